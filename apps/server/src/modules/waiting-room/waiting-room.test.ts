import { M, WAITING_ROOM_ADMISSION_ORDERS, WAITING_ROOM_HEADER, waitingRoomOrderLimit } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkoutPayload,
  givenEventOnSale,
  givenTenantWithSettings,
  givenUser,
  notFoundError,
  startServer,
  validationError,
  type Client,
  type GivenEventOnSale,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { orders, ticketTypes, waitingRoomAddresses, waitingRoomVisitors } from '../../db/schema/index.js';
import { expireHold } from '../orders/holds.js';
import { ADDRESS_PLACES_PER_ROUND, clientNetwork } from './service.js';

let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let organiser: Client;

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenantWithSettings(server);
  other = await givenTenantWithSettings(server);
  const u = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } });
  organiser = server.client(tenant.url);
  await organiser.login(u.email);
});
afterAll(async () => {
  await server.close();
});

const settingsPath = (e: { id: string }, tenantId = tenant.id) => `/api/tenants/${tenantId}/events/${e.id}/waiting-room`;
const roomPath = (e: { id: string }, tenantId = tenant.id) => `/api/p/tenants/${tenantId}/events/${e.id}/waiting-room`;
const ordersPath = (e: { id: string }) => `/api/p/tenants/${tenant.id}/events/${e.id}/orders`;
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

async function eventWithRoom(opensAt: string, admitPerMinute: number): Promise<GivenEventOnSale> {
  const event = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'General Admission', price: 4500, quantity: 100 }] });
  const res = await organiser.put(settingsPath(event), { enabled: true, opensAt, admitPerMinute });
  expect(res.status).toBe(200);
  return event;
}

let addresses = 0;
/** A client address of its own (the server believes x-forwarded-for from the test's loopback proxy). */
const newAddress = () => `10.${(++addresses >> 8) & 255}.${addresses & 255}.7`;

/** A new visitor (own cookie jar) joining the line, from an address of its own unless one is given. */
async function visit(event: GivenEventOnSale, address = newAddress()) {
  const c = server.client(tenant.url);
  const res = await c.post(roomPath(event), undefined, { 'x-forwarded-for': address });
  expect(res.status).toBe(200);
  return { c, place: res.body, token: res.headers[WAITING_ROOM_HEADER] as string };
}

const order = (c: Client, event: GivenEventOnSale, headers: Record<string, string> = {}, quantity = 1, contact: Record<string, unknown> = {}) =>
  c.post(ordersPath(event), checkoutPayload([{ ticketTypeId: event.ticketTypeIds[0]!, quantity }], contact), headers);

describe('the organiser sets the waiting room', () => {
  it('saves and reads the settings; refuses bad input with the message; 404 for another tenant', async () => {
    const event = await givenEventOnSale(server, tenant.id);
    expect((await organiser.get(settingsPath(event))).body).toEqual({ settings: null });
    const opensAt = inMinutes(60);
    const saved = await organiser.put(settingsPath(event), { enabled: true, opensAt, admitPerMinute: 120 });
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toEqual({ enabled: true, opensAt, admitPerMinute: 120 });
    expect((await organiser.get(settingsPath(event))).body.settings.admitPerMinute).toBe(120);

    const zero = await organiser.put(settingsPath(event), { enabled: true, opensAt, admitPerMinute: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body).toEqual(validationError('admitPerMinute', M.waitingRoomRate));
    const noDate = await organiser.put(settingsPath(event), { enabled: true, opensAt: 'soon', admitPerMinute: 10 });
    expect(noDate.status).toBe(400);
    expect(noDate.body).toEqual(validationError('opensAt', M.waitingRoomOpensAt));

    const theirs = await givenEventOnSale(server, other.id);
    expect((await organiser.get(settingsPath(theirs))).status).toBe(404);
    expect((await organiser.put(settingsPath(theirs, other.id), { enabled: true, opensAt, admitPerMinute: 1 })).status).toBe(404);
    expect((await organiser.put(settingsPath(theirs), { enabled: true, opensAt, admitPerMinute: 1 })).body).toEqual(notFoundError);
    // The attendee site of one tenant does not know another tenant's events.
    expect((await server.client(tenant.url).post(roomPath(theirs, other.id))).status).toBe(404);
    expect((await server.client(tenant.url).post(roomPath(theirs))).body).toEqual(notFoundError);
  });

  it('with the room off, anyone may order and the room answers admitted', async () => {
    const event = await eventWithRoom(inMinutes(60), 10);
    await organiser.put(settingsPath(event), { enabled: false, opensAt: inMinutes(60), admitPerMinute: 10 });
    const { c, place } = await visit(event);
    expect(place).toMatchObject({ enabled: false, admitted: true });
    expect((await order(c, event)).status).toBe(201);
  });
});

describe('the line cannot be skipped', () => {
  it('refuses PLACE ORDER without a place, with a place not yet admitted, and with a forged token', async () => {
    const event = await eventWithRoom(inMinutes(30), 60);
    const stranger = server.client(tenant.url);
    const none = await order(stranger, event);
    expect(none.status).toBe(403);
    expect(none.body.error).toEqual({ code: 'FORBIDDEN', message: M.waitingRoomRequired, domainCode: 'WAITING_ROOM_REQUIRED' });

    const { c, token } = await visit(event);
    expect((await order(c, event)).status).toBe(403);
    const [id, , sig] = token.split('.');
    const forged = `${id}.${Date.now() - 1000}.${sig}`;
    expect((await order(stranger, event, { [WAITING_ROOM_HEADER]: forged })).status).toBe(403);
    // A place in one event's line is no admission to another's.
    const second = await eventWithRoom(new Date(Date.now() - 60_000).toISOString(), 600);
    const admitted = await visit(second);
    expect(admitted.place.admitted).toBe(true);
    expect((await order(stranger, event, { [WAITING_ROOM_HEADER]: admitted.token })).status).toBe(403);
    expect((await order(admitted.c, second)).status).toBe(201);
  });

  it('keeps the place across a reload (the cookie)', async () => {
    const event = await eventWithRoom(inMinutes(30), 60);
    const { c, token } = await visit(event);
    for (let i = 0; i < 3; i++) await visit(event);
    const again = await c.post(roomPath(event));
    // The same visitor (not a new place at the back), still one of the 4 in the draw.
    expect((again.headers[WAITING_ROOM_HEADER] as string).split('.')[0]).toBe(token.split('.')[0]);
    expect(again.body.position).toBeGreaterThanOrEqual(1);
    expect(again.body.position).toBeLessThanOrEqual(4);
    const countAfter = (await visit(event)).place.position;
    expect(countAfter).toBeLessThanOrEqual(5);
  });
});

describe('fair order and the rate', () => {
  it('gives early visitors a random order and later ones arrival order, admitted at the rate', async () => {
    const opensAt = inMinutes(10);
    // One every 10 s: slow enough that no admission falls between two of this test's requests on a
    // loaded machine (at one a second the late visitors' positions moved under them), fast enough to test the rate.
    const event = await eventWithRoom(opensAt, 6);
    const early = [];
    for (let i = 0; i < 12; i++) early.push(await visit(event));
    // Re-read each place once all have joined: a permutation of 1..12, not arrival order.
    const positions = [];
    for (const v of early) positions.push((await v.c.post(roomPath(event))).body.position as number);
    expect([...positions].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(positions).not.toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    for (const v of early) expect((await v.c.post(roomPath(event))).body.admitted).toBe(false);

    // The line opens (an organiser moves the time to now): the draw's first is in, the others follow 10 s apart.
    await organiser.put(settingsPath(event), { enabled: true, opensAt: new Date(Date.now() - 100).toISOString(), admitPerMinute: 6 });
    await new Promise((r) => setTimeout(r, 1100));
    const late = [];
    for (let i = 0; i < 3; i++) late.push(await visit(event));
    const latePositions = late.map((v) => v.place.position as number);
    // After opening: arrival order, behind every early visitor.
    expect(latePositions[0]).toBeGreaterThanOrEqual(11);
    expect(latePositions[1]).toBe(latePositions[0]! + 1);
    expect(latePositions[2]).toBe(latePositions[1]! + 1);
    expect(late[2]!.place.estimateSeconds).toBeGreaterThan(late[0]!.place.estimateSeconds);

    const now = [];
    for (const v of early) now.push((await v.c.post(roomPath(event))).body);
    const inLine = now.filter((p) => p.admitted);
    // About 1 s after opening at 6/min: the first admitted, never more than the rate allows.
    expect(inLine.length).toBeGreaterThanOrEqual(1);
    expect(inLine.length).toBeLessThanOrEqual(2);
    const first = early[positions.indexOf(1)]!;
    const firstPlace = (await first.c.post(roomPath(event))).body;
    expect(firstPlace.admitted).toBe(true);
    expect((await order(first.c, event)).status).toBe(201);
    const last = early[positions.indexOf(12)]!;
    const lastPlace = (await last.c.post(roomPath(event))).body;
    expect(lastPlace.admitted).toBe(false);
    expect(lastPlace.estimateSeconds).toBeGreaterThanOrEqual(90);
    expect(lastPlace.estimateSeconds).toBeLessThanOrEqual(120);
    expect((await order(last.c, event)).status).toBe(403);
  });

  it('does not admit a burst at once after a quiet spell', async () => {
    const event = await eventWithRoom(new Date(Date.now() - 3_600_000).toISOString(), 6); // one every 10 s, opened an hour ago
    const places = [];
    for (let i = 0; i < 4; i++) places.push((await visit(event)).place);
    expect(places[0]!.admitted).toBe(true);
    expect(places.slice(1).map((p) => p.admitted)).toEqual([false, false, false]);
    expect(places[3]!.estimateSeconds).toBeGreaterThanOrEqual(28);
    expect(places[3]!.estimateSeconds).toBeLessThanOrEqual(30);
  });
});

describe('an admission is one visitor’s, for a few orders (issue 21 §1)', () => {
  const openNow = () => new Date(Date.now() - 60_000).toISOString();
  const admissionOrders = async (visitorId: string) => (await server.app.deps.db.select().from(orders).where(eq(orders.waitingRoomVisitorId, visitorId))).map((o) => o.status);

  it(`one admitted token sent by 12 clients from 12 addresses and e-mails places ${WAITING_ROOM_ADMISSION_ORDERS} orders, then is refused`, async () => {
    const event = await eventWithRoom(openNow(), 600);
    const { token, place } = await visit(event);
    expect(place.admitted).toBe(true);
    const answers = [];
    for (let i = 0; i < 12; i++) {
      const client = server.client(tenant.url);
      answers.push(await order(client, event, { [WAITING_ROOM_HEADER]: token, 'x-forwarded-for': newAddress() }, 10, { email: `bot${i}@example.test` }));
    }
    expect(answers.map((a) => a.status)).toEqual([...Array(WAITING_ROOM_ADMISSION_ORDERS).fill(201), ...Array(12 - WAITING_ROOM_ADMISSION_ORDERS).fill(403)]);
    for (const refused of answers.slice(WAITING_ROOM_ADMISSION_ORDERS)) {
      expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', domainCode: 'WAITING_ROOM_ORDER_LIMIT', message: waitingRoomOrderLimit });
    }
    const visitorId = token.split('.')[0]!;
    expect(await admissionOrders(visitorId)).toEqual(Array(WAITING_ROOM_ADMISSION_ORDERS).fill('draft'));
    // The refused orders took nothing.
    const [type] = await server.app.deps.db.select().from(ticketTypes).where(eq(ticketTypes.id, event.ticketTypeIds[0]!));
    expect(type!.remaining).toBe(100 - 10 * WAITING_ROOM_ADMISSION_ORDERS);

    // A hold that ran out (or a declined card's draft replaced) gives its order back to the admission.
    const [first] = await server.app.deps.db.select().from(orders).where(eq(orders.orderUid, answers[0]!.body.orderUID));
    await server.app.deps.db.update(orders).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(eq(orders.id, first!.id));
    expect(await expireHold({ deps: server.app.deps, orderId: first!.id })).toBe(true);
    expect((await order(server.client(tenant.url), event, { [WAITING_ROOM_HEADER]: token })).status).toBe(201);
    expect((await order(server.client(tenant.url), event, { [WAITING_ROOM_HEADER]: token })).status).toBe(403);
  });

  it('orders placed at once with one admission cannot pass its limit together', async () => {
    const event = await eventWithRoom(openNow(), 600);
    const { token } = await visit(event);
    const answers = await Promise.all(Array.from({ length: 8 }, () => order(server.client(tenant.url), event, { [WAITING_ROOM_HEADER]: token })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(WAITING_ROOM_ADMISSION_ORDERS);
    expect(answers.filter((a) => a.status === 403).every((a) => a.body.error.domainCode === 'WAITING_ROOM_ORDER_LIMIT')).toBe(true);
    expect(await admissionOrders(token.split('.')[0]!)).toHaveLength(WAITING_ROOM_ADMISSION_ORDERS);
  });

  it("refuses another visitor's token sent by a browser that holds its own place", async () => {
    const event = await eventWithRoom(openNow(), 6000);
    const a = await visit(event);
    const b = await visit(event);
    // One admission every 10 ms: both are in a moment later.
    await new Promise((r) => setTimeout(r, 50));
    expect((await a.c.post(roomPath(event))).body.admitted).toBe(true);
    expect((await b.c.post(roomPath(event))).body.admitted).toBe(true);
    const borrowed = await order(b.c, event, { [WAITING_ROOM_HEADER]: a.token });
    expect(borrowed.status).toBe(403);
    expect(borrowed.body.error).toMatchObject({ domainCode: 'WAITING_ROOM_REQUIRED', message: M.waitingRoomRequired });
    // Its own place, by cookie or by header, is good; A's admission was not used by B's attempt.
    expect((await order(b.c, event)).status).toBe(201);
    expect((await order(b.c, event, { [WAITING_ROOM_HEADER]: b.token })).status).toBe(201);
    expect(await admissionOrders(a.token.split('.')[0]!)).toEqual([]);
  });

  it('40 joins from one client without a cookie do not get 40 draws', async () => {
    const event = await eventWithRoom(inMinutes(10), 60);
    const people = [];
    for (let i = 0; i < 3; i++) people.push(await visit(event));
    const bot = [];
    for (let i = 0; i < 40; i++) bot.push(await visit(event, '203.0.113.9'));
    const positionOf = async (v: { c: Client }) => (await v.c.post(roomPath(event))).body.position as number;
    const peoplePositions = await Promise.all(people.map(positionOf));
    const botPositions = (await Promise.all(bot.map(positionOf))).sort((x, y) => x - y);
    // Everyone's places are one draw of 43 ...
    expect([...peoplePositions, ...botPositions].sort((x, y) => x - y)).toEqual(Array.from({ length: 43 }, (_, i) => i + 1));
    // ... in which the client's 40 joins hold as many of the first places as one address is given a round.
    const firstRound = 3 + ADDRESS_PLACES_PER_ROUND;
    expect(botPositions.filter((p) => p <= firstRound)).toHaveLength(ADDRESS_PLACES_PER_ROUND);
    expect(Math.max(...peoplePositions)).toBeLessThanOrEqual(firstRound);
    // Each further round of the address is behind the one before.
    expect(botPositions.slice(ADDRESS_PLACES_PER_ROUND, 2 * ADDRESS_PLACES_PER_ROUND)).toEqual(Array.from({ length: ADDRESS_PLACES_PER_ROUND }, (_, i) => firstRound + 1 + i));
  });

  it('counts an IPv6 client by its /64, and keeps no address', async () => {
    expect(clientNetwork('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0db8:0001:0002::')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientNetwork('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientNetwork('192.0.2.1')).toBe('192.0.2.1');

    const event = await eventWithRoom(inMinutes(10), 60);
    for (let i = 1; i <= 6; i++) await visit(event, `2001:db8:7:7::${i}`);
    const rows = await server.app.deps.db.select().from(waitingRoomVisitors).where(eq(waitingRoomVisitors.eventId, event.id));
    expect(rows.map((r) => r.drawRound).sort()).toEqual([0, 0, 0, 0, 1, 1]);
    const counted = await server.app.deps.db.select().from(waitingRoomAddresses).where(eq(waitingRoomAddresses.eventId, event.id));
    expect(counted).toEqual([expect.objectContaining({ places: 6 })]);
    expect(counted[0]!.addressKey).not.toContain('2001');
  });
});
