import type { TBreakdown, TPriceRequest } from '@marquee/core';
import { api } from '../../../ui/api-client';

/** The cart's breakdown as the server prices it (the one pricing engine, run with the tenant's fees). */
export const priceCart = (eventName: string, body: TPriceRequest) =>
  api.post<TBreakdown>(`/api/p/events/${encodeURIComponent(eventName)}/price`, body);
