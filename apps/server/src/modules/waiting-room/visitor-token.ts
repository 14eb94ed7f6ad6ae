import { WAITING_ROOM_HEADER, waitingRoomCookie } from '@marquee/core';
import type { FastifyRequest } from 'fastify';

/**
 * The visitor's place in an event's waiting room as the request carries it: the header an API
 * client sends it in, and the cookie the room set. Read by the room's own routes and by PLACE ORDER
 * (checkout), which admits only a visitor the room let through (and, when both are sent, only if
 * they name the same visitor).
 */
export function waitingRoomTokens(req: FastifyRequest, eventId: string): { header: string | undefined; cookie: string | undefined } {
  const header = req.headers[WAITING_ROOM_HEADER];
  return { header: typeof header === 'string' && header ? header : undefined, cookie: req.cookies[waitingRoomCookie(eventId)] || undefined };
}

/** The visitor's place: the header an API client carries it in, else the cookie the room set. */
export function waitingRoomToken(req: FastifyRequest, eventId: string): string | undefined {
  const { header, cookie } = waitingRoomTokens(req, eventId);
  return header ?? cookie;
}
