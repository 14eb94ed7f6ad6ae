import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { M, type TWaitingRoomPlace, type TWaitingRoomSettings } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { DomainError, notFound } from '../../platform/errors.js';
import { findEvent } from '../events/repository.js';
import * as repo from './repository.js';

// The optional waiting room of an event's on-sale (issue 13; docs/decisions.md "Waiting room").
// A visitor's place is a signed token (cookie, or the x-waiting-room header): `visitorId.admitAtMs.sig`.
// Once the admission time is known it is in the token, so PLACE ORDER checks it without the database.

/** How long an admission lasts: time to choose tickets and pay, several times over. */
export const ADMISSION_MINUTES = 30;
/**
 * Places in each round of the draw per client network (issue 21 §1): a household or an office
 * behind one address keeps this many places among everyone's first; more joins from it draw later.
 */
export const ADDRESS_PLACES_PER_ROUND = 4;
/** How stale a node's copy of a room's settings may be (as the public snapshot: about a second). */
const ROOM_CACHE_MS = 1000;

/** The room's settings and whether its event sells (published), as one node last read them. */
type CachedRoom = { room: repo.RoomRow | null; published: boolean; until: number };
/** Per server: the rooms read, and the reads under way (in a rush, the orders that arrive when an entry expires share one read). */
type RoomCache = { rooms: Map<string, CachedRoom>; reading: Map<string, Promise<CachedRoom>> };
const caches = new WeakMap<Deps, RoomCache>();

function roomOf(deps: Deps, tenantId: string, eventId: string): CachedRoom | Promise<CachedRoom> {
  let cache = caches.get(deps);
  if (!cache) caches.set(deps, (cache = { rooms: new Map(), reading: new Map() }));
  const key = `${tenantId}:${eventId}`;
  const hit = cache.rooms.get(key);
  if (hit && hit.until > Date.now()) return hit;
  let reading = cache.reading.get(key);
  if (!reading) {
    const { rooms, reading: under } = cache;
    const read = Promise.all([repo.findRoom(deps.db, tenantId, eventId), findEvent(deps.db, tenantId, eventId)]).then(([room, event]) => {
      const entry = { room: room ?? null, published: event?.status === 'published', until: Date.now() + ROOM_CACHE_MS };
      // A change while this read ran (forget) makes it stale: answer it to those who waited, keep nothing.
      if (under.get(key) === reading) rooms.set(key, entry);
      return entry;
    });
    reading = read.finally(() => {
      if (under.get(key) === reading) under.delete(key);
    });
    under.set(key, reading);
  }
  return reading;
}

function forget(deps: Deps, tenantId: string, eventId: string) {
  const cache = caches.get(deps);
  cache?.rooms.delete(`${tenantId}:${eventId}`);
  cache?.reading.delete(`${tenantId}:${eventId}`);
}

function sign(deps: Deps, eventId: string, payload: string): string {
  return createHmac('sha256', deps.config.secret).update(`waiting-room|${eventId}|${payload}`).digest('base64url');
}

export function placeToken(deps: Deps, eventId: string, visitorId: string, admitAt: Date | null): string {
  const payload = `${visitorId}.${admitAt ? admitAt.getTime() : 0}`;
  return `${payload}.${sign(deps, eventId, payload)}`;
}

/** The token's visitor and admission time, or null when it is not one this server signed for this event. */
export function readToken(deps: Deps, eventId: string, token: string | undefined): { visitorId: string; admitAtMs: number } | null {
  if (!token || token.length > 200) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [visitorId, admitAt, sig] = parts as [string, string, string];
  const expected = Buffer.from(sign(deps, eventId, `${visitorId}.${admitAt}`));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (!/^[0-9a-f-]{36}$/.test(visitorId) || !/^\d{1,15}$/.test(admitAt)) return null;
  return { visitorId, admitAtMs: Number(admitAt) };
}

/**
 * The network a client address is counted under: an IPv4 address itself (an IPv4-mapped IPv6 one
 * too), the /64 of an IPv6 address (what one subscriber is given), anything else as it is.
 */
export function clientNetwork(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv4(address) || !isIPv6(address)) return address;
  const [head, tail] = address.split('::') as [string, string | undefined];
  const groupsOf = (part: string) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const front = groupsOf(head);
  const back = tail === undefined ? [] : groupsOf(tail);
  const groups = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** The key a network's places are counted under: keyed by SECRET and the event, so no address is stored. */
function addressKey(deps: Deps, eventId: string, ip: string): string {
  return createHmac('sha256', deps.config.secret).update(`waiting-room-address|${eventId}|${clientNetwork(ip)}`).digest('base64url').slice(0, 32);
}

function toSettings(room: repo.RoomRow): TWaitingRoomSettings {
  return { enabled: room.enabled, opensAt: room.opensAt.toISOString(), admitPerMinute: room.admitPerMinute };
}

export async function getWaitingRoom({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }) {
  if (!(await findEvent(deps.db, ctx.tenantId, eventId))) throw notFound();
  const room = await repo.findRoom(deps.db, ctx.tenantId, eventId);
  return { settings: room ? toSettings(room) : null };
}

export async function setWaitingRoom({ deps, ctx, eventId, settings }: { deps: Deps; ctx: TenantCtx; eventId: string; settings: TWaitingRoomSettings }) {
  if (!(await findEvent(deps.db, ctx.tenantId, eventId))) throw notFound();
  const room = await repo.upsertRoom(deps.db, {
    tenantId: ctx.tenantId,
    eventId,
    enabled: settings.enabled,
    opensAt: new Date(settings.opensAt),
    admitPerMinute: settings.admitPerMinute,
  });
  forget(deps, ctx.tenantId, eventId);
  return { settings: toSettings(room) };
}

/**
 * Joins the line, or answers the place already held (the token survives a reload). Before opening,
 * each arrival draws a random place, in the round its network (`address`) has reached (no more
 * than ADDRESS_PLACES_PER_ROUND places of one network in a round: a join without a cookie buys no
 * extra chance); after opening, places follow arrival order, one admission every 60/rate seconds
 * from the opening.
 */
export async function enterWaitingRoom({
  deps,
  tenantId,
  eventId,
  token,
  address,
}: {
  deps: Deps;
  tenantId: string;
  eventId: string;
  token: string | undefined;
  /** The client's address (req.ip: the proxies TRUST_PROXY names are believed). */
  address: string;
}): Promise<{ place: TWaitingRoomPlace; token: string | null }> {
  const { room, published } = await roomOf(deps, tenantId, eventId);
  if (!published) throw notFound();
  if (!room || !room.enabled) {
    return { place: { enabled: false, admitted: true, opensAt: null, position: 0, estimateSeconds: 0 }, token: null };
  }
  const arrived = Date.now();
  const held = readToken(deps, eventId, token);
  const intervalMs = 60_000 / room.admitPerMinute;
  // A place whose admission time is known is answered from the token alone (the rush's refreshes
  // cost no query), unless its admission has run out.
  if (held && held.admitAtMs > 0 && arrived - held.admitAtMs <= ADMISSION_MINUTES * 60_000) {
    return { place: placeAt(room, held.admitAtMs, intervalMs), token: token! };
  }
  let visitor = held ? await repo.findVisitor(deps.db, tenantId, eventId, held.visitorId) : undefined;
  // An admission that ran out is spent: back to the end of the line.
  if (visitor?.admitAt && arrived - visitor.admitAt.getTime() > ADMISSION_MINUTES * 60_000) visitor = undefined;
  if (!visitor) {
    const id = randomUUID();
    visitor =
      arrived < room.opensAt.getTime()
        ? await repo.insertEarlyVisitor(deps.db, {
            tenantId,
            eventId,
            id,
            lottery: randomInt(0, 2 ** 31 - 1),
            addressKey: addressKey(deps, eventId, address),
            placesPerRound: ADDRESS_PLACES_PER_ROUND,
          })
        : await repo.insertLateVisitor(deps.db, { tenantId, eventId, id });
  }
  let admitAt = visitor.admitAt;
  if (!admitAt) {
    const rank = await repo.earlyRank(deps.db, visitor);
    const now = Date.now();
    const at = new Date(room.opensAt.getTime() + rank * intervalMs);
    if (now >= room.opensAt.getTime()) {
      await repo.setAdmitAt(deps.db, visitor, at);
      admitAt = at;
    }
    if (!admitAt) {
      const estimateSeconds = Math.ceil((at.getTime() - now) / 1000);
      return { place: { enabled: true, admitted: false, opensAt: room.opensAt.toISOString(), position: rank + 1, estimateSeconds }, token: placeToken(deps, eventId, visitor.id, null) };
    }
  }
  return { place: placeAt(room, admitAt.getTime(), intervalMs), token: placeToken(deps, eventId, visitor.id, admitAt) };
}

/** A place with a known admission time: its position is how many admissions are still ahead of it. */
function placeAt(room: repo.RoomRow, admitAtMs: number, intervalMs: number): TWaitingRoomPlace {
  // Read the clock now, after the database gave the slot (its now() may be a little after arrival).
  const wait = admitAtMs - Date.now();
  const admitted = wait <= 0;
  const position = admitted ? 0 : Math.max(1, Math.ceil(wait / intervalMs));
  return { enabled: true, admitted, opensAt: room.opensAt.toISOString(), position, estimateSeconds: admitted ? 0 : Math.ceil(wait / 1000) };
}

/**
 * PLACE ORDER's gate: when the event's room is on, only a visitor whose admission time has come
 * (and not passed by more than ADMISSION_MINUTES) may hold tickets; the API cannot skip the line.
 * The place is the `x-waiting-room` header's or the cookie's; when a request carries both and the
 * cookie is a place in this line, the header must be that same visitor's (a browser in line cannot
 * borrow another visitor's admission). Answers the admission (the visitor's id) for PLACE ORDER to
 * count its orders against (WAITING_ROOM_ADMISSION_ORDERS, in the hold), or null when the room is off.
 */
export async function assertAdmitted({
  deps,
  tenantId,
  eventId,
  tokens,
}: {
  deps: Deps;
  tenantId: string;
  eventId: string;
  tokens: { header: string | undefined; cookie: string | undefined };
}): Promise<string | null> {
  const { room } = await roomOf(deps, tenantId, eventId);
  if (!room || !room.enabled) return null;
  const held = readToken(deps, eventId, tokens.header || tokens.cookie);
  const own = tokens.header && tokens.cookie ? readToken(deps, eventId, tokens.cookie) : null;
  const now = Date.now();
  if (
    !held ||
    (own && own.visitorId !== held.visitorId) ||
    held.admitAtMs === 0 ||
    held.admitAtMs > now ||
    now - held.admitAtMs > ADMISSION_MINUTES * 60_000
  ) {
    throw new DomainError('WAITING_ROOM_REQUIRED', M.waitingRoomRequired);
  }
  return held.visitorId;
}
