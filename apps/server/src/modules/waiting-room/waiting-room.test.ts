import { M, WAITING_ROOM_HEADER } from '@marquee/core';
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

/** A new visitor (own cookie jar) joining the line. */
async function visit(event: GivenEventOnSale) {
  const c = server.client(tenant.url);
  const res = await c.post(roomPath(event));
  expect(res.status).toBe(200);
  return { c, place: res.body, token: res.headers[WAITING_ROOM_HEADER] as string };
}

const order = (c: Client, event: GivenEventOnSale, headers: Record<string, string> = {}) =>
  c.post(ordersPath(event), checkoutPayload([{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 1 }]), headers);

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
    const event = await eventWithRoom(opensAt, 60); // one a second
    const early = [];
    for (let i = 0; i < 12; i++) early.push(await visit(event));
    // Re-read each place once all have joined: a permutation of 1..12, not arrival order.
    const positions = [];
    for (const v of early) positions.push((await v.c.post(roomPath(event))).body.position as number);
    expect([...positions].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(positions).not.toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    for (const v of early) expect((await v.c.post(roomPath(event))).body.admitted).toBe(false);

    // The line opens (an organiser moves the time to now): the draw's first is in, the others follow a second apart.
    await organiser.put(settingsPath(event), { enabled: true, opensAt: new Date(Date.now() - 100).toISOString(), admitPerMinute: 60 });
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
    // About 1 s after opening at 60/min: one or two admitted, never more than the rate allows.
    expect(inLine.length).toBeGreaterThanOrEqual(1);
    expect(inLine.length).toBeLessThanOrEqual(3);
    const first = early[positions.indexOf(1)]!;
    const firstPlace = (await first.c.post(roomPath(event))).body;
    expect(firstPlace.admitted).toBe(true);
    expect((await order(first.c, event)).status).toBe(201);
    const last = early[positions.indexOf(12)]!;
    const lastPlace = (await last.c.post(roomPath(event))).body;
    expect(lastPlace.admitted).toBe(false);
    expect(lastPlace.estimateSeconds).toBeGreaterThanOrEqual(9);
    expect(lastPlace.estimateSeconds).toBeLessThanOrEqual(12);
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
