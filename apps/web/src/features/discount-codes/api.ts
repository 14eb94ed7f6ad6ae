import type { ListResponse, TCreateDiscountCodeRequest, TDiscountCode, TUpdateDiscountCodeRequest } from '@marquee/core';
import { api } from '../../ui/api-client';

export type DiscountCodeListQuery = { cursor?: string; limit: number };

const base = (tenantId: string, eventId: string) => `/api/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}/discount-codes`;
const one = (tenantId: string, eventId: string, id: string) => `${base(tenantId, eventId)}/${encodeURIComponent(id)}`;

export const discountCodesApi = {
  list: (tenantId: string, eventId: string, { cursor, limit }: DiscountCodeListQuery, signal?: AbortSignal) =>
    api.get<ListResponse<TDiscountCode>>(base(tenantId, eventId), { cursor, limit }, signal),
  create: (tenantId: string, eventId: string, details: TCreateDiscountCodeRequest['details']) => api.post<TDiscountCode>(base(tenantId, eventId), { details }),
  update: (tenantId: string, eventId: string, id: string, details: TUpdateDiscountCodeRequest['details']) =>
    api.patch<TDiscountCode>(one(tenantId, eventId, id), { details }),
  remove: (tenantId: string, eventId: string, id: string) => api.delete<{ success: true }>(one(tenantId, eventId, id)),
};
