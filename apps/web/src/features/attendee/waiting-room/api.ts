import type { TWaitingRoomPlace } from '@marquee/core';
import { api } from '../../../ui/api-client';

/** Joins the event's line, or reads the place held (the server keeps it in a cookie). */
export const enterWaitingRoom = (tenantId: string, eventId: string) =>
  api.post<TWaitingRoomPlace>(`/api/p/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}/waiting-room`);
