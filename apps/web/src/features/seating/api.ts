import type { TEventSeating, TEventSeatingInput, TSeatHold, TSeatHoldRequest, TSeatMap, TSeatStates, TVenueLayout, TVenueLayoutInput, TVenueLayoutList } from '@marquee/core';
import { api } from '../../ui/api-client';

type TSuccess = { success: true };

// Issue 27: reserved seating's calls, for the console (layouts, an event's seating) and the attendee site (the map, seat holds).

const site = (tenantId: string, eventId: string) => `/api/p/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}`;

/** The plan; the browser keeps it (ETag) until the seating changes. */
export const fetchSeatMap = (tenantId: string, eventId: string, signal?: AbortSignal) => api.get<TSeatMap>(`${site(tenantId, eventId)}/seat-map`, undefined, signal);
/** Each seat's state; an empty string: the event has no seats. Revalidated with the ETag (Cache-Control: no-cache), so an unchanged poll is a 304. */
export const fetchSeatStates = (tenantId: string, eventId: string, signal?: AbortSignal) => api.get<TSeatStates>(`${site(tenantId, eventId)}/seat-states`, undefined, signal);
/** Issue 27 (paint): the map's preview image (a PNG of the seats' states now); the server-rendered ticket menu carries it inline. */
export const seatPreviewUrl = (tenantId: string, eventId: string) => `${site(tenantId, eventId)}/seat-preview.png`;
export const holdSeats = (tenantId: string, eventId: string, body: TSeatHoldRequest) => api.post<TSeatHold>(`${site(tenantId, eventId)}/seat-holds`, body);
export const releaseSeats = (tenantId: string, eventId: string, holdId: string, token: string) => api.post<TSuccess>(`${site(tenantId, eventId)}/seat-holds/${encodeURIComponent(holdId)}/release`, { token });

const layouts = (tenantId: string) => `/api/tenants/${encodeURIComponent(tenantId)}/venue-layouts`;
export const listLayouts = (tenantId: string) => api.get<TVenueLayoutList>(layouts(tenantId));
export const getLayout = (tenantId: string, id: string) => api.get<TVenueLayout>(`${layouts(tenantId)}/${encodeURIComponent(id)}`);
export const createLayout = (tenantId: string, body: TVenueLayoutInput) => api.post<TVenueLayout>(layouts(tenantId), body);
export const saveLayout = (tenantId: string, id: string, body: TVenueLayoutInput) => api.put<TVenueLayout>(`${layouts(tenantId)}/${encodeURIComponent(id)}`, body);
export const deleteLayout = (tenantId: string, id: string) => api.delete<TSuccess>(`${layouts(tenantId)}/${encodeURIComponent(id)}`);

const seating = (tenantId: string, eventId: string) => `/api/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}/seating`;
export const getEventSeating = (tenantId: string, eventId: string) => api.get<TEventSeating>(seating(tenantId, eventId));
export const setEventSeating = (tenantId: string, eventId: string, body: TEventSeatingInput) => api.put<TEventSeating>(seating(tenantId, eventId), body);
export const clearEventSeating = (tenantId: string, eventId: string) => api.delete<TEventSeating>(seating(tenantId, eventId));
