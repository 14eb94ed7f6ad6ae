import { WAITING_ROOM_HEADER, waitingRoomCookie } from '@marquee/core';
import type { FastifyRequest } from 'fastify';

/**
 * The visitor's place in an event's waiting room: the cookie the room set, or the header an API
 * client carries it in. Read by the room's own routes and by PLACE ORDER (checkout), which admits
 * only a visitor the room let through.
 */
export function waitingRoomToken(req: FastifyRequest, eventId: string): string | undefined {
  const header = req.headers[WAITING_ROOM_HEADER];
  if (typeof header === 'string' && header) return header;
  return req.cookies[waitingRoomCookie(eventId)];
}
