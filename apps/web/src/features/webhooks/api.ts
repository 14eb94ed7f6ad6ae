import type { ListResponse, TWebhookDelivery, TWebhookEndpoint, TWebhookEndpointRequest, TWebhookEndpointUpdate, TWebhookSecretAnswer } from '@marquee/core';
import { api } from '../../ui/api-client';

/** Where an owner's endpoints live: a tenant's (its id) or the platform's (null). */
export const endpointsBase = (tenantId: string | null) => (tenantId ? `/api/tenants/${tenantId}/webhooks/endpoints` : '/api/platform/webhooks/endpoints');

type Answer = { success: true; message: string; endpoint: TWebhookEndpoint };

export const webhooksApi = {
  list: (base: string, signal?: AbortSignal) => api.get<ListResponse<TWebhookEndpoint>>(base, undefined, signal),
  create: (base: string, body: TWebhookEndpointRequest) => api.post<TWebhookSecretAnswer>(base, body),
  update: (base: string, id: string, body: TWebhookEndpointUpdate) => api.patch<Answer>(`${base}/${id}`, body),
  remove: (base: string, id: string) => api.delete<{ success: true; message: string }>(`${base}/${id}`),
  rotate: (base: string, id: string) => api.post<TWebhookSecretAnswer>(`${base}/${id}/rotate-secret`),
  deliveries: (base: string, id: string, q: { cursor?: string; limit: number }, signal?: AbortSignal) =>
    api.get<ListResponse<TWebhookDelivery>>(`${base}/${id}/deliveries`, q, signal),
  redeliver: (base: string, id: string, deliveryId: string) =>
    api.post<{ success: true; message: string; delivery: TWebhookDelivery }>(`${base}/${id}/deliveries/${deliveryId}/redeliver`),
};
