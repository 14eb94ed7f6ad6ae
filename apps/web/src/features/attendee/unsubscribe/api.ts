import type { TUnsubscribeAnswer, TUnsubscribeState } from '@marquee/core';
import { api } from '../../../ui/api-client';

const base = (token: string) => `/api/p/unsubscribe/${encodeURIComponent(token)}`;

/** Issue 15: the unsubscribe link in messages to attendees. */
export const unsubscribeApi = {
  get: (token: string, signal?: AbortSignal) => api.get<TUnsubscribeState>(base(token), undefined, signal),
  unsubscribe: (token: string) => api.post<TUnsubscribeAnswer>(base(token)),
  resubscribe: (token: string) => api.delete<TUnsubscribeAnswer>(base(token)),
};
