import type { TAttendeeForm, TCreateOrderRequest, TCreateOrderResponse, THoldCartRequest, THoldCartResponse, TPublicOrder } from '@marquee/core';
import { api } from '../../../ui/api-client';

/** PLACE ORDER (spec §7 Create order): holds the tickets; the answer's message is the payment URL. */
export const createOrder = (tenantId: string, eventId: string, body: TCreateOrderRequest) =>
  api.post<TCreateOrderResponse>(`/api/p/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}/orders`, body);

/** The success page's order: 'processing' until the payment is confirmed. */
export const fetchPublicOrder = (orderUID: string, token: string, signal?: AbortSignal) =>
  api.get<TPublicOrder>(`/api/p/orders/${encodeURIComponent(orderUID)}`, { token }, signal);

/** Issue 21.8: holds the cart's tickets while the buyer fills in the checkout; PLACE ORDER takes its place. */
export const holdCart = (tenantId: string, eventId: string, body: THoldCartRequest) =>
  api.post<THoldCartResponse>(`/api/p/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}/holds`, body);

/** Issue 24: what the checkout asks (the questions, each ticket type's attendee name and e-mail). */
export const fetchAttendeeForm = (tenantId: string, eventId: string, signal?: AbortSignal) =>
  api.get<TAttendeeForm>(`/api/p/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}/attendee-form`, undefined, signal);
