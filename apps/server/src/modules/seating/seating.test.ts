import { SEAT_NOT_FOR_SALE_COLOUR, SEAT_TAKEN_COLOUR, seatCategoryColour, SM, type TVenueLayoutInput } from '@marquee/core';
import sharp from 'sharp';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventSeats, orders, seatHolds, ticketTypes, tickets } from '../../db/schema/index.js';
import {
  checkoutPayload,
  givenEventOnSale,
  givenTenantAdmin,
  givenTenantWithSettings,
  inspectPdf,
  lastMailTo,
  startServer,
  type Client,
  type GivenEventOnSale,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { expireHold } from '../orders/holds.js';
import { TAKE_BATCH_SQL, TAKE_SEATS_SQL } from './repository.js';
import { seatHoldExpiryJob } from './seat-hold-jobs.js';
import { takeInBatch } from './take-batch.js';
import { expireSeatHold, reconcileSeatHolds } from './seat-hold-jobs.js';

// Issue 27: venue layouts, an event's seats, seat holds (picked and best available), the checkout
// with seats, and the seat on the tickets.

let server: TestServer, tenant: GivenTenant, other: GivenTenant, admin: Client, otherAdmin: Client;
beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenantWithSettings(server);
  other = await givenTenantWithSettings(server);
  admin = await givenTenantAdmin(server, tenant);
  otherAdmin = await givenTenantAdmin(server, other);
});
afterAll(() => server.close());

const db = () => server.app.deps.db;
const site = (t = tenant): Client => server.client(t.url);
const layouts = (t = tenant) => `/api/tenants/${t.id}/venue-layouts`;
const seatingPath = (e: { id: string }, t = tenant) => `/api/tenants/${t.id}/events/${e.id}/seating`;
const pub = (e: { id: string }, t = tenant) => `/api/p/tenants/${t.id}/events/${e.id}`;
const form = (fields: Record<string, string>) => Buffer.from(new URLSearchParams(fields).toString());
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Stalls: rows A-C of 6 seats with an aisle after seat 3; Balcony: one row of 4. */
const plan = (over: Partial<TVenueLayoutInput> = {}): TVenueLayoutInput => ({
  name: 'Town Hall',
  sections: [
    { name: 'Stalls', category: 'Stalls', rows: 3, seatsPerRow: 6, aisleAfter: [3] },
    { name: 'Balcony', category: 'Balcony', rows: 1, seatsPerRow: 4, y: 60 },
  ],
  blocked: ['Stalls|A|1'],
  accessible: ['Stalls|C|6'],
  ...over,
});

async function seatedEvent(): Promise<{ e: GivenEventOnSale; layoutId: string }> {
  const e = await givenEventOnSale(server, tenant.id, {
    ticketTypes: [
      { name: 'Stalls', price: 5000, quantity: 18, maxPerOrder: 4 },
      { name: 'Balcony', price: 3000, quantity: 4 },
      { name: 'Programme', price: 500, quantity: 100 },
    ],
  });
  const layout = await admin.post(layouts(), plan());
  expect(layout.status).toBe(201);
  const set = await admin.put(seatingPath(e), {
    layoutId: layout.body.id,
    categories: [
      { category: 'Stalls', ticketTypeId: e.ticketTypeIds[0] },
      { category: 'Balcony', ticketTypeId: e.ticketTypeIds[1] },
    ],
  });
  expect(set.status).toBe(200);
  return { e, layoutId: layout.body.id };
}

/** A PNG's opaque pixels by colour (#rrggbb). */
async function colourCounts(png: Buffer): Promise<Map<string, number>> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const counts = new Map<string, number>();
  for (let o = 0; o < info.width * info.height * 4; o += 4) {
    if (data[o + 3] !== 255) continue;
    const hex = `#${[data[o]!, data[o + 1]!, data[o + 2]!].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
    counts.set(hex, (counts.get(hex) ?? 0) + 1);
  }
  return counts;
}

const seatRow = async (e: { id: string }, n: number) =>
  (await db().select().from(eventSeats).where(and(eq(eventSeats.eventId, e.id), eq(eventSeats.n, n))))[0]!;
const freeCount = async (e: { id: string }) =>
  (await db().select({ c: sql<number>`count(*)::int` }).from(eventSeats).where(and(eq(eventSeats.eventId, e.id), sql`hold_id is null and order_id is null`)))[0]!.c;

/** Runs `run`, noting the text of every statement sent to the database meanwhile (PGlite's query and exec; on PostgreSQL, each pg client's query). */
async function withStatements<T>(seen: string[], run: () => Promise<T>): Promise<T> {
  const pool = (db() as unknown as { $client: Record<string, unknown> }).$client;
  // A pg pool's clients send everything through Client.prototype.query (the pool's own query too).
  const client = (typeof pool.totalCount === 'number' ? pg.Client.prototype : pool) as unknown as Record<string, (...a: unknown[]) => unknown>;
  const names = typeof pool.totalCount === 'number' ? (['query'] as const) : (['query', 'exec'] as const);
  const originals = names.map((name) => [name, client[name]!] as const);
  for (const [name, fn] of originals)
    client[name] = function (this: unknown, ...a: unknown[]) {
      const q = a[0] as { text?: string } | string;
      seen.push(typeof q === 'string' ? q : String(q?.text ?? q));
      return fn.apply(this, a);
    };
  try {
    return await run();
  } finally {
    for (const [name, fn] of originals) client[name] = fn;
  }
}

describe('venue layouts (console)', () => {
  it('creates a layout from its grids, reads it back, lists, updates and deletes it', async () => {
    const res = await admin.post(layouts(), plan());
    expect(res.status).toBe(201);
    expect(res.body.details).toMatchObject({ name: 'Town Hall', seatCount: 22, blocked: ['Stalls|A|1'], accessible: ['Stalls|C|6'], kept: [], companion: [] });
    expect(res.body.details.sections[0]).toMatchObject({ name: 'Stalls', rows: 3, seatsPerRow: 6, aisleAfter: [3], rowLabels: 'letters', numbering: 'ltr' });
    expect((await admin.get(`${layouts()}/${res.body.id}`)).body).toEqual(res.body);
    expect((await admin.get(layouts())).body.result.map((l: { id: string }) => l.id)).toContain(res.body.id);
    const updated = await admin.put(`${layouts()}/${res.body.id}`, plan({ name: 'Town Hall (new)', blocked: [] }));
    expect(updated.status).toBe(200);
    expect(updated.body.details).toMatchObject({ name: 'Town Hall (new)', blocked: [] });
    expect((await admin.delete(`${layouts()}/${res.body.id}`)).status).toBe(200);
    expect((await admin.get(`${layouts()}/${res.body.id}`)).status).toBe(404);
  });

  it('refuses bad input with the field and message, writing nothing', async () => {
    const before = (await admin.get(layouts())).body.count;
    const cases: Array<[Partial<TVenueLayoutInput>, string]> = [
      [{ name: ' ' }, SM.layoutNameRequired],
      [{ blocked: ['Stalls|Z|99'] }, SM.unknownSeatKey],
      [{ sections: [{ name: 'A', category: 'A', rows: 100, seatsPerRow: 120 }, { name: 'B', category: 'B', rows: 100, seatsPerRow: 120 }, { name: 'C', category: 'C', rows: 100, seatsPerRow: 120 }], blocked: [], accessible: [] }, SM.tooManySeats],
      [{ sections: [{ name: 'A', category: 'A', rows: 1, seatsPerRow: 2 }, { name: 'a', category: 'B', rows: 1, seatsPerRow: 2 }], blocked: [], accessible: [] }, SM.sectionNamesUnique],
    ];
    for (const [over, message] of cases) {
      const res = await admin.post(layouts(), plan(over));
      expect(res.status, message).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
    }
    expect((await admin.post(layouts(), { ...plan(), sections: [{ name: 'S', category: 'S', rows: 0, seatsPerRow: 3 }] })).status).toBe(400);
    expect((await admin.get(layouts())).body.count).toBe(before);
  });

  it("another tenant's layout is not found (read, save, delete, or taken by an event)", async () => {
    const theirs = await otherAdmin.post(layouts(other), plan());
    expect((await admin.get(`${layouts()}/${theirs.body.id}`)).status).toBe(404);
    expect((await admin.put(`${layouts()}/${theirs.body.id}`, plan())).status).toBe(404);
    expect((await admin.delete(`${layouts()}/${theirs.body.id}`)).status).toBe(404);
    expect((await admin.get(layouts(other))).status).toBe(404);
    const e = await givenEventOnSale(server, tenant.id);
    expect((await admin.put(seatingPath(e), { layoutId: theirs.body.id, categories: [] })).status).toBe(404);
    expect((await otherAdmin.get(`${layouts(other)}/${theirs.body.id}`)).status).toBe(200);
  });
});

describe("an event's seating (console)", () => {
  it('copies the layout with each category selling as a ticket type; bad mappings are 400; another tenant\'s event is 404', async () => {
    const { e, layoutId } = await seatedEvent();
    const got = await admin.get(seatingPath(e));
    expect(got.body).toMatchObject({ layoutId, layoutName: 'Town Hall', seatCount: 22, held: 0, sold: 0 });
    const unmapped = await admin.put(seatingPath(e), { layoutId, categories: [{ category: 'Stalls', ticketTypeId: e.ticketTypeIds[0] }] });
    expect(unmapped.status).toBe(400);
    expect(unmapped.body.error.message).toBe(SM.categoryUnmapped('Balcony'));
    const elsewhere = await givenEventOnSale(server, tenant.id);
    const foreignType = await admin.put(seatingPath(e), {
      layoutId,
      categories: [
        { category: 'Stalls', ticketTypeId: elsewhere.ticketTypeIds[0] },
        { category: 'Balcony', ticketTypeId: e.ticketTypeIds[1] },
      ],
    });
    expect(foreignType.status).toBe(400);
    expect(foreignType.body.error.message).toBe(SM.ticketTypeNotFound);
    expect((await otherAdmin.get(seatingPath(e, other))).status).toBe(404);
    expect((await otherAdmin.put(seatingPath(e, other), { layoutId, categories: [] })).status).toBe(404);
    expect((await admin.get(seatingPath(e))).body.seatCount).toBe(22);
  });
});

describe('the seat map and seat holds (attendee site)', () => {
  it('answers the plan, and the states with an ETag that a poll answers 304 until a seat changes', async () => {
    const { e } = await seatedEvent();
    const map = await site().get(`${pub(e)}/seat-map`);
    expect(map.status).toBe(200);
    expect(map.body.sections).toEqual(['Stalls', 'Balcony']);
    expect(map.body.seats).toHaveLength(22);
    expect(map.body.seats[0]).toEqual([0, 'A', '1', 0, 0, expect.any(Number), 0]);
    expect(map.body.categories.map((c: { ticketTypeName: string }) => c.ticketTypeName).sort()).toEqual(['Balcony', 'Stalls']);
    // Compressed for a browser that accepts gzip (a 20,000-seat plan is ~540 KB of JSON), the same JSON inside.
    const packed = await site().request('GET', `${pub(e)}/seat-map`, undefined, { 'accept-encoding': 'gzip, br' });
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.body).toEqual(map.body);
    const states = await site().get(`${pub(e)}/seat-states`);
    expect(states.body.states).toBe('x' + 'f'.repeat(21));
    const etag = String(states.headers.etag);
    expect((await site().request('GET', `${pub(e)}/seat-states`, undefined, { 'if-none-match': etag })).status).toBe(304);
    expect((await site().post(`${pub(e)}/seat-holds`, { seats: [1, 2] })).status).toBe(201);
    const after = await site().request('GET', `${pub(e)}/seat-states`, undefined, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.body.states.slice(0, 4)).toBe('xhhf');
    // Another tenant's host does not see this event's seats.
    expect((await site(other).get(`${pub(e, other)}/seat-map`)).status).toBe(404);
    const plain = await givenEventOnSale(server, tenant.id);
    expect((await site().get(`${pub(plain)}/seat-map`)).status).toBe(404);
  });

  it("draws the map's preview: a PNG of every seat in its state's colour (the canvas's), new with each change of the states (issue 27 paint)", async () => {
    const { e } = await seatedEvent();
    const first = await site().request('GET', `${pub(e)}/seat-preview.png`);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['cache-control']).toBe('no-cache');
    const before = await colourCounts(first.raw);
    // Seat 0 (Stalls A1) is blocked: not for sale; the 21 others free in their category's colour; none taken.
    const side2 = before.get(SEAT_NOT_FOR_SALE_COLOUR)!;
    expect(side2).toBeGreaterThan(0);
    expect(before.get(seatCategoryColour(0))! + before.get(seatCategoryColour(1))!).toBe(21 * side2);
    expect(before.get(SEAT_TAKEN_COLOUR) ?? 0).toBe(0);
    const etag = String(first.headers.etag);
    expect((await site().request('GET', `${pub(e)}/seat-preview.png`, undefined, { 'if-none-match': etag })).status).toBe(304);
    // Two seats held: the next image shows them taken (and has another ETag).
    expect((await site().post(`${pub(e)}/seat-holds`, { seats: [1, 2] })).status).toBe(201);
    const after = await site().request('GET', `${pub(e)}/seat-preview.png`, undefined, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect((await colourCounts(after.raw)).get(SEAT_TAKEN_COLOUR)).toBe(2 * side2);
    // Another tenant's host, an event without seats, a bad id: no image, never a 500.
    expect((await site(other).request('GET', `${pub(e, other)}/seat-preview.png`)).status).toBe(404);
    const plain = await givenEventOnSale(server, tenant.id);
    expect((await site().request('GET', `${pub(plain)}/seat-preview.png`)).status).toBe(404);
    expect((await site().request('GET', `/api/p/tenants/${tenant.id}/events/not-a-uuid/seat-preview.png`)).status).toBe(400);
  });

  it('holds picked seats with their labels; a taken, blocked or unknown seat is refused and nothing is written', async () => {
    const { e } = await seatedEvent();
    const res = await site().post(`${pub(e)}/seat-holds`, { seats: [2, 1] });
    expect(res.status).toBe(201);
    expect(res.body.seats).toEqual([
      { n: 1, label: 'Stalls · Row A · Seat 2', section: 'Stalls', row: 'A', seat: '2', ticketTypeId: e.ticketTypeIds[0] },
      { n: 2, label: 'Stalls · Row A · Seat 3', section: 'Stalls', row: 'A', seat: '3', ticketTypeId: e.ticketTypeIds[0] },
    ]);
    const free = await freeCount(e);
    const taken = await site().post(`${pub(e)}/seat-holds`, { seats: [3, 2] });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ domainCode: 'SEAT_UNAVAILABLE', message: SM.seatUnavailable('Stalls · Row A · Seat 3') });
    const blocked = await site().post(`${pub(e)}/seat-holds`, { seats: [0] });
    expect(blocked.body.error.domainCode).toBe('SEAT_UNAVAILABLE');
    const unknown = await site().post(`${pub(e)}/seat-holds`, { seats: [3, 500] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ domainCode: 'SEAT_NOT_FOUND', message: SM.seatNotFound });
    expect((await site().post(`${pub(e)}/seat-holds`, { seats: [-1] })).status).toBe(400);
    expect((await site().post(`${pub(e)}/seat-holds`, {})).status).toBe(400);
    expect((await site().post(`${pub(e)}/seat-holds`, { seats: [3], best: { ticketTypeId: e.ticketTypeIds[0], quantity: 1 } })).status).toBe(400);
    expect((await seatRow(e, 3)).holdId).toBeNull();
    expect(await freeCount(e)).toBe(free);
    // Five Stalls seats: more than the ticket type's 4 per order.
    const limit = await site().post(`${pub(e)}/seat-holds`, { seats: [3, 4, 5, 6, 7] });
    expect(limit.status).toBe(400);
    expect(limit.body.error).toMatchObject({ domainCode: 'SEAT_LIMIT', message: SM.seatLimit(4) });
    expect(await freeCount(e)).toBe(free);
    // Another event's seat hold cannot be given back here, nor with a wrong token.
    expect((await site().post(`${pub(e)}/seat-holds/${res.body.holdId}/release`, { token: 'nope' })).status).toBe(404);
    expect((await site().post(`${pub(e)}/seat-holds/${res.body.holdId}/release`, { token: res.body.token })).status).toBe(200);
    expect((await seatRow(e, 1)).holdId).toBeNull();
  });

  it('best available: N together takes adjacent seats in one row, front and centre first, skipping blocked, held and accessible seats', async () => {
    const { e } = await seatedEvent();
    const [stalls, balcony, programme] = e.ticketTypeIds as [string, string, string];
    const first = await site().post(`${pub(e)}/seat-holds`, { best: { ticketTypeId: stalls, quantity: 2 } });
    expect(first.status).toBe(201);
    // Row A: seat 1 blocked; the aisle after 3 splits 2-3 from 4-5-6; the centre pair is 3|4 but not adjacent, so A 2-3 or A 4-5.
    const labels = first.body.seats.map((s: { label: string }) => s.label);
    expect([['Stalls · Row A · Seat 2', 'Stalls · Row A · Seat 3'], ['Stalls · Row A · Seat 4', 'Stalls · Row A · Seat 5']]).toContainEqual(labels);
    const second = await site().post(`${pub(e)}/seat-holds`, { best: { ticketTypeId: stalls, quantity: 2 } });
    expect(second.body.seats.map((s: { row: string }) => s.row)).toEqual(['A', 'A']);
    expect(second.body.seats.map((s: { label: string }) => s.label)).not.toEqual(labels);
    const three = await site().post(`${pub(e)}/seat-holds`, { best: { ticketTypeId: stalls, quantity: 3 } });
    expect(three.body.seats.map((s: { row: string; seat: string }) => `${s.row}${s.seat}`)).toEqual(['B1', 'B2', 'B3']);
    // The balcony has 4 seats: never 5 together.
    const none = await site().post(`${pub(e)}/seat-holds`, { best: { ticketTypeId: balcony, quantity: 5 } });
    expect(none.status).toBe(409);
    const tooMany = await site().post(`${pub(e)}/seat-holds`, { best: { ticketTypeId: stalls, quantity: 4 } });
    // Rows left: B 4-6, C 1-3, C 4-5 (C6 is accessible): no 4 together.
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toMatchObject({ domainCode: 'SEATS_NOT_TOGETHER', message: SM.noSeatsTogether(4) });
    const wrongType = await site().post(`${pub(e)}/seat-holds`, { best: { ticketTypeId: programme, quantity: 1 } });
    expect(wrongType.body.error.domainCode).toBe('SEAT_WRONG_TICKET_TYPE');
  });

  it('a seat is in one hold or one order at most: the database refuses both, whatever the code does', async () => {
    const { e } = await seatedEvent();
    const held = await site().post(`${pub(e)}/seat-holds`, { seats: [5] });
    expect(held.status).toBe(201);
    const attempt = db().execute(sql`update event_seats set order_id = gen_random_uuid() where event_id = ${e.id} and n = 5`);
    await expect(attempt).rejects.toThrow();
    const blocked = db().execute(sql`update event_seats set hold_id = gen_random_uuid() where event_id = ${e.id} and n = 0`);
    await expect(blocked).rejects.toThrow();
  });
});

describe('the checkout with seats', () => {
  const holdsPath = (e: { id: string }) => `/api/p/tenants/${tenant.id}/events/${e.id}/holds`;
  const ordersPath = (e: { id: string }) => `/api/p/tenants/${tenant.id}/events/${e.id}/orders`;

  it('holds the cart with its seats, pays, and the tickets carry the seats (PDF, order page, states sold)', async () => {
    const { e } = await seatedEvent();
    const [stalls, , programme] = e.ticketTypeIds as [string, string, string];
    const c = site();
    const seats = await c.post(`${pub(e)}/seat-holds`, { seats: [7, 8] });
    const seatHold = { holdId: seats.body.holdId, token: seats.body.token };
    const lines = [
      { ticketTypeId: stalls, quantity: 2 },
      { ticketTypeId: programme, quantity: 1 },
    ];
    // Without the seats, or with seats for another cart: refused, nothing held.
    const none = await c.post(holdsPath(e), { lines });
    expect(none.status).toBe(409);
    expect(none.body.error).toMatchObject({ domainCode: 'SEATS_DO_NOT_MATCH_CART', message: SM.seatsRequired });
    const more = await c.post(holdsPath(e), { lines: [{ ticketTypeId: stalls, quantity: 3 }], seatHold });
    expect(more.body.error).toMatchObject({ domainCode: 'SEATS_DO_NOT_MATCH_CART', message: SM.seatsDoNotMatchCart });
    const forged = await c.post(holdsPath(e), { lines, seatHold: { ...seatHold, token: 'x' } });
    expect(forged.body.error.domainCode).toBe('SEAT_HOLD_EXPIRED');
    expect(await db().select().from(orders).where(eq(orders.eventId, e.id))).toHaveLength(0);

    const held = await c.post(holdsPath(e), { lines, seatHold });
    expect(held.status).toBe(201);
    const placed = await c.post(ordersPath(e), { ...checkoutPayload(lines, { email: 'seated@example.test' }), draftOrderUID: held.body.orderUID, seatHold });
    expect(placed.status).toBe(201);
    const [order] = await db().select().from(orders).where(eq(orders.orderUid, placed.body.orderUID));
    const [hold] = await db().select().from(seatHolds).where(eq(seatHolds.id, seatHold.holdId));
    expect(hold).toMatchObject({ orderId: order!.id, status: 'live' });

    const payUrl = new URL(placed.body.message);
    expect((await c.request('POST', payUrl.pathname, form({ cardNumber: '4242424242424242', expiry: '11/39', cvc: '999' }), FORM)).status).toBe(303);
    await server.app.deps.jobs.drain();
    const sold = await db().select().from(tickets).where(eq(tickets.orderId, order!.id));
    expect(sold.map((t) => t.seatLabel).sort()).toEqual(['Stalls · Row B · Seat 2', 'Stalls · Row B · Seat 3', null]);
    expect((await seatRow(e, 7)).orderId).toBe(order!.id);
    expect((await seatRow(e, 7)).holdId).toBeNull();
    expect((await db().select().from(seatHolds).where(eq(seatHolds.id, seatHold.holdId)))[0]!.status).toBe('sold');
    expect((await site().get(`${pub(e)}/seat-states`)).body.states.slice(6, 10)).toBe('fssf');
    expect((await admin.get(seatingPath(e))).body).toMatchObject({ sold: 2, held: 0 });

    const mail = await lastMailTo(server, 'seated@example.test');
    const pdf = inspectPdf((await server.app.deps.storage.get(mail!.attachments[0]!.key))!.bytes);
    expect(pdf.pages.some((p) => p.text.includes('Stalls · Row B · Seat 2'))).toBe(true);

    // The sold seats are nobody else's, and the seating no longer changes.
    expect((await site().post(`${pub(e)}/seat-holds`, { seats: [7] })).body.error.domainCode).toBe('SEAT_UNAVAILABLE');
    const change = await admin.delete(seatingPath(e));
    expect(change.status).toBe(409);
    expect(change.body.error).toMatchObject({ domainCode: 'SEATING_IN_USE', message: SM.seatingInUse });
    // The tickets export has the seat.
    const csv = await admin.get(`/api/tenants/${tenant.id}/reports/tickets/export?filters=${encodeURIComponent(JSON.stringify({ 'details.eventId': e.id }))}`);
    if (csv.status === 200) expect(csv.raw.toString()).toContain('Stalls · Row B · Seat 2');
  });

  it('a seat hold runs out like a ticket hold: its job (or the sweep) frees the seats, and the checkout then refuses it', async () => {
    const { e } = await seatedEvent();
    const c = site();
    const seats = await c.post(`${pub(e)}/seat-holds`, { seats: [9, 10] });
    const holdId = seats.body.holdId as string;
    // Not due yet: the job leaves it alone.
    expect(await expireSeatHold({ deps: server.app.deps, tenantId: tenant.id, holdId })).toBe(false);
    await db().update(seatHolds).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(seatHolds.id, holdId));
    expect(await reconcileSeatHolds({ deps: server.app.deps })).toBeGreaterThanOrEqual(1);
    expect((await seatRow(e, 9)).holdId).toBeNull();
    expect(await expireSeatHold({ deps: server.app.deps, tenantId: tenant.id, holdId })).toBe(false);
    const late = await c.post(holdsPath(e), { lines: [{ ticketTypeId: e.ticketTypeIds[0], quantity: 2 }], seatHold: { holdId, token: seats.body.token } });
    expect(late.status).toBe(410);
    expect(late.body.error).toMatchObject({ domainCode: 'SEAT_HOLD_EXPIRED', message: SM.seatHoldExpired });
  });

  it('a hold at on-sale speed: one statement takes the seats, writes the hold and queues its expiry; an event taken off sale a moment after the node read it is refused', async () => {
    const { e } = await seatedEvent();
    // The node reads the event's sale (and, for best available, its window of runs) once...
    expect((await site().post(`${pub(e)}/seat-holds`, { seats: [9] })).status).toBe(201);
    expect((await site().post(`${pub(e)}/seat-holds`, { best: { ticketTypeId: e.ticketTypeIds[0], quantity: 2 } })).status).toBe(201);
    // ...then each hold writes in one statement: the seats, the hold row and its expiry job together.
    for (const body of [{ seats: [12, 13] }, { best: { ticketTypeId: e.ticketTypeIds[0], quantity: 2 } }]) {
      const seen: string[] = [];
      const res = await withStatements(seen, () => site().post(`${pub(e)}/seat-holds`, body));
      expect(res.status).toBe(201);
      // Besides the site's tenant (read by the guard of every attendee request), at most a fresh read
      // of the sale and of the best seats when the node's are older than a second (a slow machine).
      const hold = seen.filter((q) => !/from "tenants"/.test(q));
      expect(hold.length).toBeLessThanOrEqual(3);
      expect(hold.filter((q) => /^\s*(begin|savepoint|commit)/i.test(q))).toEqual([]);
      const writes = hold.filter((q) => /update "?event_seats"?|insert into/.test(q));
      expect(writes).toHaveLength(1);
      expect(writes[0]).toMatch(/update "?event_seats"?[\s\S]*insert into "?seat_holds"?[\s\S]*insert into "?jobs"?/);
      const [row] = await db().select().from(seatHolds).where(eq(seatHolds.id, res.body.holdId));
      expect(row).toMatchObject({ eventId: e.id, status: 'live' });
      expect(row!.expiresAt.toISOString()).toBe(res.body.expiresAt);
      const job = await db().execute(sql`select name, payload, run_at from jobs where dedupe_key like ${`seating.expire-hold:${res.body.holdId}:%`}`);
      const rows = (job as unknown as { rows: Array<{ name: string; payload: unknown; run_at: Date | string }> }).rows;
      expect(rows).toHaveLength(1);
      expect(rows[0]!.payload).toEqual({ tenantId: tenant.id, holdId: res.body.holdId });
      expect(new Date(rows[0]!.run_at).toISOString()).toBe(res.body.expiresAt);
    }
    // A pick of a seat someone holds is refused from the take's own read (issue 27 seats3): no read of
    // the sale or of the seats after it (before: the take, then the sale and the seats, 3 statements).
    {
      const seen: string[] = [];
      const refused = await withStatements(seen, () => site().post(`${pub(e)}/seat-holds`, { seats: [13, 14] }));
      expect(refused.status).toBe(409);
      expect(refused.body.error?.domainCode).toBe('SEAT_UNAVAILABLE');
      expect(refused.body.error.message).toBe(SM.seatUnavailable((await seatRow(e, 13)).label));
      expect(seen.filter((q) => !/from "tenants"/.test(q))).toHaveLength(1);
      expect((await seatRow(e, 14)).holdId).toBeNull();
      const unknown = await withStatements([], () => site().post(`${pub(e)}/seat-holds`, { seats: [14, 999] }));
      expect(unknown.body.error?.domainCode).toBe('SEAT_NOT_FOUND');
    }
    // Taken off sale now: the node's read of a moment ago does not sell it (the take checks the event itself).
    await db().execute(sql`update events set status = 'draft' where id = ${e.id}`);
    const free = await freeCount(e);
    const late = await site().post(`${pub(e)}/seat-holds`, { seats: [14, 15] });
    expect(late.body.error?.domainCode).toBe('EVENT_NOT_ON_SALE');
    const lateBest = await site().post(`${pub(e)}/seat-holds`, { best: { ticketTypeId: e.ticketTypeIds[0], quantity: 2 } });
    expect(lateBest.body.error?.domainCode).toBe('EVENT_NOT_ON_SALE');
    expect(await freeCount(e)).toBe(free);
  });

  it("holds arriving when the node's read of the sale is a second old read it once, together (issue 27 seats3)", async () => {
    const { e } = await seatedEvent();
    expect((await site().post(`${pub(e)}/seat-holds`, { seats: [1] })).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const seen: string[] = [];
    const many = await withStatements(seen, () => Promise.all([2, 3, 4, 5, 6, 7].map((n) => site().post(`${pub(e)}/seat-holds`, { seats: [n] }))));
    expect(many.map((r) => r.status)).toEqual(Array(6).fill(201));
    // Before: each hold that found the read too old read the sale itself (six reads here).
    expect(seen.filter((q) => q.includes('e.published_at is not null as published'))).toHaveLength(1);
  });

  it('holds asked in the same turn go to the database in one statement, each taken all or nothing on its own (issue 27 seats3)', async () => {
    const { e } = await seatedEvent();
    const stalls = e.ticketTypeIds[0]!;
    const balcony = e.ticketTypeIds[1]!;
    // Stalls: A1 blocked (seat 0), C6 accessible (seat 17); Balcony: seats 18-21. Seat 7 held by someone first.
    const first = await site().post(`${pub(e)}/seat-holds`, { seats: [7] });
    expect(first.status).toBe(201);
    const ask = (seats: number[], bestOf: string | null = null) => {
      const holdId = crypto.randomUUID();
      const expiresAt = new Date(Date.now() + 10 * 60_000);
      return { tenantId: tenant.id, eventId: e.id, seats, bestOf, holdId, tokenHash: `hash-${holdId}`, expiresAt, job: seatHoldExpiryJob({ tenantId: tenant.id, holdId, at: expiresAt }) };
    };
    const asks = [
      ask([1, 2]), // free: held
      ask([6, 7]), // 7 is held: nothing taken, 6 stays free
      ask([0, 8]), // 0 is blocked: nothing taken
      ask([18, 19], balcony), // best-available run of the balcony: held
      ask([16, 17], stalls), // best available never takes an accessible seat: nothing taken
      ask([9, 10, 11, 12, 13]), // over the stalls' limit of 4: nothing taken
      ask([2, 3]), // shares seat 2 with the first: goes in a later statement, and finds it taken
      ask([20, 21]), // free: held
    ];
    const seen: string[] = [];
    const out = await withStatements(seen, () => Promise.all(asks.map((a) => takeInBatch(db(), a))));
    // One statement for the seven that share no seat, one for the eighth (before: one statement per hold).
    expect(seen.filter((q) => q.includes('update event_seats s set hold_id = v.hold_id'))).toHaveLength(2);
    expect(out.map((o) => o.seats.map((s) => s.n))).toEqual([[1, 2], [], [], [18, 19], [], [], [], [20, 21]]);
    expect(out.map((o) => o.complete)).toEqual([true, false, false, true, false, true, false, true]);
    expect(out[5]!.within).toBe(false);
    expect(out[5]!.counted).toEqual([[stalls, 5]]);
    // What looked free (no lock) when the statement began: a pick refused with every seat free was racing another take.
    expect(out.map((o) => o.free)).toEqual([2, 1, 1, 2, 2, 5, 1, 2]);
    // A hold not taken says why, from the same read: its seats as they were, and the event on sale.
    expect(out[1]!.refusal).toEqual({ onSale: true, seen: [expect.objectContaining({ n: 6, free: true }), expect.objectContaining({ n: 7, free: false })] });
    expect(out[0]!.refusal).toBeNull();
    // The database agrees: only the three complete holds have rows, seats and an expiry job.
    const holds = await db().select({ id: seatHolds.id }).from(seatHolds).where(eq(seatHolds.eventId, e.id));
    expect(holds.map((h) => h.id).sort()).toEqual([first.body.holdId, asks[0]!.holdId, asks[3]!.holdId, asks[7]!.holdId].sort());
    for (const i of [1, 2, 4, 5, 6]) {
      const jobs = await db().execute(sql`select 1 from jobs where dedupe_key = ${asks[i]!.job.dedupeKey}`);
      expect((jobs as unknown as { rows: unknown[] }).rows, `hold ${i}`).toEqual([]);
    }
    for (const n of [3, 6, 8, 9, 16]) expect((await seatRow(e, n)).holdId, `seat ${n}`).toBeNull();
    expect((await seatRow(e, 2)).holdId).toBe(asks[0]!.holdId);
    expect((await seatRow(e, 21)).holdId).toBe(asks[7]!.holdId);
  });

  it('a hold looks its seats up by key on an arena whose seats were just copied: the planner measured them, no scan of every seat', async () => {
    // 3,000 seats copied at once (the console's PUT seating), then the take's plan as the pool runs it
    // (generic, after a few executions) and as a first execution plans it (custom). Before issue 27
    // (seats) nothing measured the new rows (PGlite never analyzes; PostgreSQL when autovacuum came
    // round), and the planner read every seat of the tenant per hold (~100 ms on a 20,000-seat arena).
    const e = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'Arena', price: 5000, quantity: 3000, maxPerOrder: 10 }] });
    const layout = await admin.post(layouts(), { name: 'Arena', sections: [0, 1, 2].map((i) => ({ name: `Block ${i + 1}`, category: 'Arena', rows: 20, seatsPerRow: 50, y: i * 400 })) });
    expect(layout.status).toBe(201);
    const set = await admin.put(seatingPath(e), { layoutId: layout.body.id, categories: [{ category: 'Arena', ticketTypeId: e.ticketTypeIds[0] }] });
    expect(set.status).toBe(200);
    expect(set.body.seatCount).toBe(3000);
    type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Actual Rows'?: number; 'Actual Loops'?: number; 'Rows Removed by Filter'?: number; 'Rows Removed by Join Filter'?: number; Plans?: PlanNode[] };
    /** Rows each node of the plan read on the seats (the event's and its ticket types' reads are the tenant's few rows, not looked at here). */
    const seatRowsRead = (node: PlanNode): Array<[number, string]> => [
      ...(node['Relation Name'] === 'event_seats' || (node['Node Type'] === 'Nested Loop' && JSON.stringify(node.Plans ?? []).includes('"event_seats"'))
        ? [[(node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1) + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Join Filter'] ?? 0), `${node['Node Type']} ${node['Index Name'] ?? ''}`] as [number, string]]
        : []),
      ...(node.Plans ?? []).flatMap(seatRowsRead),
    ];
    // Issue 27 (seats3): and the takes of many holds in one statement (two holds here).
    for (const [mode, kind] of [['force_generic_plan', 'skip'], ['force_custom_plan', 'wait'], ['force_generic_plan', 'batch'], ['force_custom_plan', 'batch']] as const) {
      let plan: PlanNode | null = null;
      const holdId = crypto.randomUUID();
      const holdId2 = crypto.randomUUID();
      const [types, text, args] =
        kind === 'batch'
          ? [
              'uuid[], uuid[], uuid[], uuid[], text[], timestamptz[], text[], jsonb[], text[], int[], int[]',
              TAKE_BATCH_SQL,
              `'{${tenant.id},${tenant.id}}', '{${e.id},${e.id}}', '{NULL,${e.ticketTypeIds[0]}}', '{${holdId},${holdId2}}', '{x,y}', '{"2030-01-01T00:00:00Z","2030-01-01T00:00:00Z"}', '{plan-test,plan-test}', '{"{}","{}"}', '{plan-test:${holdId},plan-test:${holdId2}}', '{1,1,2,2}', '{1500,1501,1700,1701}'`,
            ]
          : [
              'uuid, uuid, int[], uuid, uuid, text, timestamptz, text, jsonb, text',
              TAKE_SEATS_SQL[kind],
              `'${tenant.id}', '${e.id}', '{1500,1501}', null, '${holdId}', 'x', now() + interval '10 minutes', 'plan-test', '{}', 'plan-test:${holdId}'`,
            ];
      await db()
        .transaction(async (tx) => {
          await tx.execute(sql.raw(`set local plan_cache_mode = ${mode}`));
          await tx.execute(sql.raw(`prepare mq_take_plan_test(${types}) as ${text}`));
          try {
            const out = await tx.execute(sql.raw(`explain (analyze, format json) execute mq_take_plan_test(${args})`));
            const cell = Object.values((out as unknown as { rows: Array<Record<string, unknown>> }).rows[0]!)[0];
            plan = (typeof cell === 'string' ? JSON.parse(cell) : cell)[0].Plan as PlanNode;
          } finally {
            await tx.execute(sql.raw('deallocate mq_take_plan_test'));
          }
          throw new Error('rollback');
        })
        .catch((err: Error) => {
          if (err.message !== 'rollback') throw err;
        });
      expect(plan, `${mode} ${kind}`).not.toBeNull();
      // The seats asked for: no node of the plan on the seats reads more than a handful of rows (not the event's 3,000).
      const read = seatRowsRead(plan!);
      expect(read.length, `${mode} ${kind}`).toBeGreaterThan(0);
      expect(read.filter(([rows]) => rows > 10), `${mode} ${kind}: nodes of the plan reading more than 10 seats`).toEqual([]);
    }
    expect(await freeCount(e)).toBe(3000);
  });

  it('events without seats keep the general-admission checkout, and pay no query of the seating for it (read with the checkout snapshot)', async () => {
    const e = await givenEventOnSale(server, tenant.id);
    const seen: string[] = [];
    const res = await withStatements(seen, () => site().post(holdsPath(e), { lines: [{ ticketTypeId: e.ticketTypeIds[0], quantity: 2 }] }));
    expect(res.status).toBe(201);
    const lines = [{ ticketTypeId: e.ticketTypeIds[0]!, quantity: 1 }];
    const placed = await withStatements(seen, () => site().post(ordersPath(e), checkoutPayload(lines, { email: 'ga-snapshot@example.test' })));
    expect(placed.status).toBe(201);
    // The seated ticket types come with the snapshot's one read; no statement of their own.
    expect(seen.filter((q) => q.includes('event_seat_categories') && !q.includes('to_jsonb(e)'))).toEqual([]);
    expect(seen.some((q) => q.includes('event_seat_categories') && q.includes('to_jsonb(e)'))).toBe(true);
  });
});

describe('seats back on sale, and a payment after the seats ran out (issue 27, second slice)', () => {
  const holdsPath = (e: { id: string }) => `/api/p/tenants/${tenant.id}/events/${e.id}/holds`;
  const ordersPath = (e: { id: string }) => `/api/p/tenants/${tenant.id}/events/${e.id}/orders`;
  const orderUrl = (e: { id: string }, uid: string) => `/api/tenants/${tenant.id}/events/${e.id}/orders/${uid}`;
  const remaining = async (id: string) => (await db().select({ r: ticketTypes.remaining }).from(ticketTypes).where(eq(ticketTypes.id, id)))[0]!.r;

  /** Holds these Stalls seats, places the order and sends the card; `pay: false` leaves the gateway's webhook queued. */
  async function buySeats(e: GivenEventOnSale, seats: number[], email: string, pay = true) {
    const c = site();
    const held = await c.post(`${pub(e)}/seat-holds`, { seats });
    expect(held.status).toBe(201);
    const seatHold = { holdId: held.body.holdId, token: held.body.token };
    const lines = [{ ticketTypeId: e.ticketTypeIds[0]!, quantity: seats.length }];
    const draft = await c.post(holdsPath(e), { lines, seatHold });
    expect(draft.status).toBe(201);
    const placed = await c.post(ordersPath(e), { ...checkoutPayload(lines, { email }), draftOrderUID: draft.body.orderUID, seatHold });
    expect(placed.status).toBe(201);
    const [order] = await db().select().from(orders).where(eq(orders.orderUid, placed.body.orderUID));
    const payUrl = new URL(placed.body.message);
    expect((await c.request('POST', payUrl.pathname, form({ cardNumber: '4242424242424242', expiry: '11/39', cvc: '999' }), FORM)).status).toBe(303);
    if (pay) await server.app.deps.jobs.drain();
    return { order: order!, seatHold };
  }
  const ticketsOf = async (orderId: string) => db().select().from(tickets).where(eq(tickets.orderId, orderId)).orderBy(tickets.seatLabel);

  it('a refunded ticket’s seat is free to sell again, as its count is; a full refund frees the rest', async () => {
    const { e } = await seatedEvent();
    const stalls = e.ticketTypeIds[0]!;
    const { order } = await buySeats(e, [7, 8], 'refund-seat@example.test');
    const [t7, t8] = await ticketsOf(order.id);
    expect([t7!.seatLabel, t8!.seatLabel]).toEqual(['Stalls · Row B · Seat 2', 'Stalls · Row B · Seat 3']);
    const before = await remaining(stalls);
    const refund = await admin.post(`${orderUrl(e, order.orderUid)}/refunds`, { mode: 'tickets', ticketIds: [t7!.id], reason: 'Cannot come' });
    expect(refund.status).toBe(201);
    expect(await remaining(stalls)).toBe(before + 1);
    expect(await seatRow(e, 7)).toMatchObject({ orderId: null, ticketId: null, holdId: null });
    expect((await seatRow(e, 8)).orderId).toBe(order.id);
    expect((await site().get(`${pub(e)}/seat-states`)).body.states.slice(7, 9)).toBe('fs');
    // Someone else buys the seat: one ticket per seat.
    const again = await site().post(`${pub(e)}/seat-holds`, { seats: [7] });
    expect(again.status).toBe(201);
    const full = await admin.post(`${orderUrl(e, order.orderUid)}/refunds`, { mode: 'full', reason: 'All of it' });
    expect(full.status).toBe(201);
    expect(await seatRow(e, 8)).toMatchObject({ orderId: null, ticketId: null });
    expect(await remaining(stalls)).toBe(before + 2);
    expect((await admin.get(seatingPath(e))).body).toMatchObject({ sold: 0, held: 1 });
  });

  it('a voided ticket frees its seat; unvoided, it takes its own seat back, or is refused when that seat was sold again', async () => {
    const { e } = await seatedEvent();
    const { order } = await buySeats(e, [13], 'void-seat@example.test');
    const [t] = await ticketsOf(order.id);
    const voidUrl = `/api/tenants/${tenant.id}/events/${e.id}/tickets/void`;
    const voided = await admin.post(voidUrl, { orderUID: order.orderUid, ticketId: t!.id, void: true, reason: 'Duplicate' });
    expect(voided.status).toBe(200);
    expect(await seatRow(e, 13)).toMatchObject({ orderId: null, ticketId: null });
    const unvoided = await admin.post(voidUrl, { orderUID: order.orderUid, ticketId: t!.id, void: false, reason: 'Mistake' });
    expect(unvoided.status).toBe(200);
    expect(await seatRow(e, 13)).toMatchObject({ orderId: order.id, ticketId: t!.id });
    // Voided again, and the seat goes to another buyer: the unvoid is refused, nothing changes.
    expect((await admin.post(voidUrl, { orderUID: order.orderUid, ticketId: t!.id, void: true, reason: 'Duplicate' })).status).toBe(200);
    const other = await site().post(`${pub(e)}/seat-holds`, { seats: [13] });
    expect(other.status).toBe(201);
    const left = await remaining(e.ticketTypeIds[0]!);
    const refused = await admin.post(voidUrl, { orderUID: order.orderUid, ticketId: t!.id, void: false, reason: 'Mistake' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(SM.unvoidSeatTaken('Stalls · Row C · Seat 2'));
    expect(await seatRow(e, 13)).toMatchObject({ holdId: other.body.holdId, orderId: null });
    expect(await remaining(e.ticketTypeIds[0]!)).toBe(left);
    expect((await ticketsOf(order.id))[0]!.voided).toBe(true);
  });

  async function runOut(order: { id: string }, seatHoldId: string) {
    await db().update(orders).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(orders.id, order.id));
    await db().update(seatHolds).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(seatHolds.id, seatHoldId));
    expect(await expireSeatHold({ deps: server.app.deps, tenantId: tenant.id, holdId: seatHoldId })).toBe(true);
    expect(await expireHold({ deps: server.app.deps, orderId: order.id })).toBe(true);
  }

  it('a payment after the seats ran out takes the same seats again when they are still free', async () => {
    const { e } = await seatedEvent();
    const { order, seatHold } = await buySeats(e, [15, 16], 'late-free@example.test', false);
    await runOut(order, seatHold.holdId);
    expect((await seatRow(e, 15)).holdId).toBeNull();
    await server.app.deps.jobs.drain();
    expect((await db().select().from(orders).where(eq(orders.id, order.id)))[0]!.status).toBe('completed');
    expect((await ticketsOf(order.id)).map((t) => t.seatLabel)).toEqual(['Stalls · Row C · Seat 4', 'Stalls · Row C · Seat 5']);
    expect(await seatRow(e, 15)).toMatchObject({ orderId: order.id, holdId: null });
  });

  it('a payment after the seats ran out and one was taken by another buyer is given back: no ticket without its seat, no seat twice', async () => {
    const { e } = await seatedEvent();
    const { order, seatHold } = await buySeats(e, [15, 16], 'late-taken@example.test', false);
    await runOut(order, seatHold.holdId);
    const other = await site().post(`${pub(e)}/seat-holds`, { seats: [16] });
    expect(other.status).toBe(201);
    const left = await remaining(e.ticketTypeIds[0]!);
    await server.app.deps.jobs.drain();
    expect((await db().select().from(orders).where(eq(orders.id, order.id)))[0]).toMatchObject({ status: 'cancelled', refunded: true });
    expect(await ticketsOf(order.id)).toHaveLength(0);
    expect(await seatRow(e, 15)).toMatchObject({ orderId: null, holdId: null });
    expect(await seatRow(e, 16)).toMatchObject({ orderId: null, holdId: other.body.holdId });
    expect(await remaining(e.ticketTypeIds[0]!)).toBe(left);
  });

  it('a payment landing while the order is still a draft but its seat hold already ran out: the seats are taken again, or the payment is given back', async () => {
    const { e } = await seatedEvent();
    const a = await buySeats(e, [9], 'draft-free@example.test', false);
    await db().update(seatHolds).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(seatHolds.id, a.seatHold.holdId));
    expect(await expireSeatHold({ deps: server.app.deps, tenantId: tenant.id, holdId: a.seatHold.holdId })).toBe(true);
    const b = await buySeats(e, [10], 'draft-taken@example.test', false);
    await db().update(seatHolds).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(seatHolds.id, b.seatHold.holdId));
    expect(await expireSeatHold({ deps: server.app.deps, tenantId: tenant.id, holdId: b.seatHold.holdId })).toBe(true);
    expect((await site().post(`${pub(e)}/seat-holds`, { seats: [10] })).status).toBe(201);
    await server.app.deps.jobs.drain();
    expect((await ticketsOf(a.order.id)).map((t) => t.seatLabel)).toEqual(['Stalls · Row B · Seat 4']);
    expect((await db().select().from(orders).where(eq(orders.id, b.order.id)))[0]).toMatchObject({ status: 'cancelled', refunded: true });
    expect(await ticketsOf(b.order.id)).toHaveLength(0);
  });
});

describe('the box office sells seats (issue 27, second slice)', () => {
  const bo = (e: { id: string }, t = tenant) => `/api/tenants/${t.id}/events/${e.id}/box-office`;
  const sale = (lines: Array<{ ticketTypeId: string; quantity: number }>, extra: Record<string, unknown> = {}) => ({
    idempotencyKey: `seat-sale-${Math.random().toString(36).slice(2)}`,
    lines,
    paymentMethod: 'card_terminal',
    terminalReference: 'T-1',
    ...extra,
  });

  it('holds best available N together or picked seats through the seat holds, and the sale answers each ticket with its seat', async () => {
    const { e } = await seatedEvent();
    const [stalls, , programme] = e.ticketTypeIds as [string, string, string];
    const menu = await admin.get(bo(e));
    expect(menu.body.ticketTypes.map((t: { name: string; seated: boolean }) => [t.name, t.seated])).toEqual([['Stalls', true], ['Balcony', true], ['Programme', false]]);
    const best = await admin.post(`${bo(e)}/seat-holds`, { best: { ticketTypeId: stalls, quantity: 2 } });
    expect(best.status).toBe(201);
    const lines = [{ ticketTypeId: stalls, quantity: 2 }, { ticketTypeId: programme, quantity: 1 }];
    // Without its seats, a seated sale is refused and nothing is written.
    const none = await admin.post(`${bo(e)}/sales`, sale(lines));
    expect(none.status).toBe(409);
    expect(none.body.error).toMatchObject({ domainCode: 'SEATS_DO_NOT_MATCH_CART', message: SM.seatsRequired });
    const sold = await admin.post(`${bo(e)}/sales`, sale(lines, { seatHold: { holdId: best.body.holdId, token: best.body.token } }));
    expect(sold.status).toBe(200);
    const seatsSold = best.body.seats.map((s: { label: string }) => s.label);
    expect(sold.body.tickets.map((t: { seat: string | null }) => t.seat).sort()).toEqual([...seatsSold, null].sort());
    // The receipt lists the seats in the hold's order (seat order), as the seller saw them before the money.
    expect(sold.body.tickets.map((t: { seat: string | null }) => t.seat).filter(Boolean)).toEqual(seatsSold);
    const order = (await db().select().from(orders).where(eq(orders.orderUid, sold.body.orderUID)))[0]!;
    for (const s of best.body.seats as Array<{ n: number }>) expect(await seatRow(e, s.n)).toMatchObject({ orderId: order.id, holdId: null, ticketId: expect.any(String) });
    expect((await db().select().from(seatHolds).where(eq(seatHolds.id, best.body.holdId)))[0]!.status).toBe('sold');
    // The tickets carry the seats, and the online buyer sees them sold.
    expect((await db().select().from(tickets).where(eq(tickets.orderId, order.id))).map((t) => t.seatLabel).filter(Boolean).sort()).toEqual([...seatsSold].sort());
    const states = (await site().get(`${pub(e)}/seat-states`)).body.states as string;
    for (const s of best.body.seats as Array<{ n: number }>) expect(states[s.n]).toBe('s');
    // Picked seats; the same hold cannot sell twice; a sold seat cannot be held again.
    const picked = await admin.post(`${bo(e)}/seat-holds`, { seats: [19] });
    expect(picked.status).toBe(201);
    const balcony = await admin.post(`${bo(e)}/sales`, sale([{ ticketTypeId: e.ticketTypeIds[1]!, quantity: 1 }], { seatHold: { holdId: picked.body.holdId, token: picked.body.token } }));
    expect(balcony.body.tickets.map((t: { seat: string }) => t.seat)).toEqual(['Balcony · Row A · Seat 2']);
    const twice = await admin.post(`${bo(e)}/sales`, sale([{ ticketTypeId: e.ticketTypeIds[1]!, quantity: 1 }], { seatHold: { holdId: picked.body.holdId, token: picked.body.token } }));
    expect(twice.body.error.domainCode).toBe('SEAT_HOLD_EXPIRED');
    expect((await admin.post(`${bo(e)}/seat-holds`, { seats: [19] })).body.error.domainCode).toBe('SEAT_UNAVAILABLE');
  });

  it('bad input and another tenant: 400 / 404, nothing held', async () => {
    const { e } = await seatedEvent();
    expect((await admin.post(`${bo(e)}/seat-holds`, {})).status).toBe(400);
    expect((await admin.post(`${bo(e)}/seat-holds`, { seats: [500] })).body.error.domainCode).toBe('SEAT_NOT_FOUND');
    expect((await admin.post(`${bo({ id: 'nope' })}/seat-holds`, { seats: [1] })).status).toBe(404);
    expect((await otherAdmin.post(`${bo(e, other)}/seat-holds`, { seats: [1] })).status).toBe(404);
    const plain = await givenEventOnSale(server, tenant.id);
    expect((await admin.post(`${bo(plain)}/seat-holds`, { seats: [1] })).status).toBe(404);
    expect((await site().post(`/api/tenants/${tenant.id}/events/${e.id}/box-office/seat-holds`, { seats: [1] })).status).not.toBe(201);
    expect(await freeCount(e)).toBe(22);
  });
});
