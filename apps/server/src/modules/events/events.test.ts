import { randomUUID } from 'node:crypto';
import { M } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountCodes, events, invites, memberships, ticketTypes, waitingRoomAddresses, waitingRooms, waitingRoomVisitors } from '../../db/schema/index.js';
import {
  givenEventOnSale,
  givenHeldOrder,
  givenTenant,
  givenUser,
  invalidUuid,
  notFoundError,
  startServer,
  validationError,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { givenEventActors as givenActors, type EventActors as Actors } from '../../../test/actors.js';
import { GIF_1PX, PNG_1PX } from '../../../test/fixtures/images.js';

let server: TestServer;
let tenant: GivenTenant;
let actors: Actors;
let event: { id: string };
let otherEvent: { id: string };
const base = () => `/api/tenants/${tenant.id}/events`;
const db = () => server.app.deps.db;

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenant(server);
  event = await givenEventOnSale(server, tenant.id, { name: 'Matrix Night' });
  otherEvent = await givenEventOnSale(server, tenant.id);
  actors = await givenActors(server, tenant, event.id, otherEvent.id);
});
afterAll(async () => {
  await server.close();
});

const valid = {
  name: 'Autumn Gala',
  startDateTime: '2031-10-01T19:00:00-04:00',
  timeZone: 'America/Chicago',
  venueName: 'Grand Hall',
  address1: '1 Main St',
  city: 'Chicago',
  state: 'IL',
  zip: '60601',
  capacity: 300,
  covidSafety: true,
  covidSafetyText: 'Masks welcome.',
  emailDeliveryVerbiage: 'Show the QR code at the door.',
  description: 'A night of music.',
};

describe('events: create, read, update', () => {
  it('creates a draft event, derives its URL name, and reads it back', async () => {
    const res = await actors.admin.post(base(), { details: valid });
    expect(res.status).toBe(201);
    expect(res.body.tenantId).toBe(tenant.id);
    expect(res.body.details).toMatchObject({
      name: 'Autumn Gala',
      urlName: 'autumn-gala',
      status: 'draft',
      startDateTime: '2031-10-01T23:00:00.000Z',
      timeZone: 'America/Chicago',
      capacity: 300,
      remainingCapacity: 300,
      covidSafety: true,
      covidSafetyText: 'Masks welcome.',
      emailDeliveryVerbiage: 'Show the QR code at the door.',
      country: 'USA',
      seatMap: null,
      charityId: null,
      surchargeRuleId: null,
    });
    const got = await actors.admin.get(`${base()}/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ ...res.body, sales: { sold: 0, held: 0 } }); // one event's GET carries its sales (issue 15)
  });

  it.each([
    [{ name: '' }, 'details.name', M.eventNameRequired],
    [{ name: '   ' }, 'details.name', M.eventNameRequired],
    [{ urlName: 'Has Spaces' }, 'details.urlName', M.urlNameFormat],
    [{ urlName: 'login' }, 'details.urlName', M.urlNameReserved],
    [{ urlName: 'tickets-' }, 'details.urlName', M.urlNameFormat],
    [{ timeZone: 'Mars/Olympus' }, 'details.timeZone', M.timeZoneInvalid],
    [{ startDateTime: '2031-10-01 19:00' }, 'details.startDateTime', M.dateTimeInvalid],
    [{ capacity: 0 }, 'details.capacity', M.invalidValue],
    [{ capacity: 1.5 }, 'details.capacity', M.invalidValue],
    [{ endDateTime: '2031-10-01T18:00:00-04:00' }, 'details.endDateTime', M.salesWindowOrder],
    [{ surchargeRuleId: 'no-such-rule' }, 'details.surchargeRuleId', M.surchargeRuleInvalid],
  ])('refuses %o with its message', async (patch, field, message) => {
    const res = await actors.admin.post(base(), { details: { ...valid, name: 'Bad One', ...patch } });
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
  });

  it('keeps URL names unique per tenant (and free across tenants)', async () => {
    const first = await actors.admin.post(base(), { details: { ...valid, name: 'Unique Night', urlName: 'unique-night' } });
    expect(first.status).toBe(201);
    const again = await actors.admin.post(base(), { details: { ...valid, name: 'Another', urlName: 'unique-night' } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(M.urlNameTaken);
    const other = await givenTenant(server);
    const { givenUser } = await import('../../../test/harness.js');
    const u = await givenUser(server, { tenant: { id: other.id, roles: ['tenant_admin'] } });
    const c = server.client(other.url);
    await c.login(u.email);
    expect((await c.post(`/api/tenants/${other.id}/events`, { details: { ...valid, urlName: 'unique-night' } })).status).toBe(201);
    // Renaming onto a taken URL name is refused too.
    const second = await actors.admin.post(base(), { details: { ...valid, name: 'Second Night' } });
    const rename = await actors.admin.patch(`${base()}/${second.body.id}`, { details: { urlName: 'unique-night' } });
    expect(rename.status).toBe(409);
    expect(rename.body.error.fields['details.urlName']).toBe(M.urlNameTaken);
  });

  it('updates fields and moves remaining capacity with the capacity, never below what is sold or held', async () => {
    const created = await actors.admin.post(base(), { details: { ...valid, name: 'Capacity Test' } });
    const id = created.body.id as string;
    // 2 + 1 tickets held by a draft order on this event.
    await givenHeldOrder(server, tenant.id, { eventId: id, lines: [{ name: 'A', price: 1000, quantity: 2, left: 5 }, { name: 'B', price: 500, quantity: 1, left: 5 }] });
    await server.app.deps.db.execute(
      (await import('drizzle-orm')).sql`update events set remaining_capacity = capacity - 3 where id = ${id}`,
    );
    const up = await actors.admin.patch(`${base()}/${id}`, { details: { capacity: 10, venueName: 'Small Hall', covidSafety: false } });
    expect(up.status).toBe(200);
    expect(up.body.details).toMatchObject({ capacity: 10, remainingCapacity: 7, venueName: 'Small Hall', covidSafety: false, name: 'Capacity Test' });
    const tooSmall = await actors.admin.patch(`${base()}/${id}`, { details: { capacity: 2 } });
    expect(tooSmall.status).toBe(409);
    expect(tooSmall.body.error.message).toBe(M.capacityBelowSold);
    // No cap, then a cap again: what is out is counted from the ticket types.
    expect((await actors.admin.patch(`${base()}/${id}`, { details: { capacity: null } })).body.details).toMatchObject({ capacity: null, remainingCapacity: null });
    expect((await actors.admin.patch(`${base()}/${id}`, { details: { capacity: 3 } })).body.details).toMatchObject({ capacity: 3, remainingCapacity: 0 });
  });

  it('lists with cursor paging and finds an event by name (spec §7 ?filters=details.name=)', async () => {
    const res = await actors.admin.get(`${base()}?filters=${encodeURIComponent('details.name=Matrix Night')}`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    expect(res.body.result[0].id).toBe(event.id);
    const qForm = await actors.admin.get(`${base()}?filters=${encodeURIComponent('q?details.name=Matrix Night')}`);
    expect(qForm.body.result[0].id).toBe(event.id);
    const contains = await actors.admin.get(`${base()}?filters=${encodeURIComponent('details.name=matrix')}`);
    expect(contains.body.result[0].id).toBe(event.id);
    const page1 = await actors.admin.get(`${base()}?limit=2`);
    expect(page1.body.result).toHaveLength(2);
    expect(page1.body.count).toBeGreaterThan(2);
    const page2 = await actors.admin.get(`${base()}?limit=2&cursor=${page1.body.cursor}`);
    expect(page2.body.result[0].id).not.toBe(page1.body.result[0].id);
    expect((await actors.admin.get(`${base()}?filters=details.status=published`)).body.result.every((e: { details: { status: string } }) => e.details.status === 'published')).toBe(true);
    expect((await actors.admin.get(`${base()}?filters=details.nope=1`)).status).toBe(400);
  });
});

describe('events: publish, unpublish, cancel, delete', () => {
  it('publishes only with a start time and a ticket type; cancel is final', async () => {
    const created = await actors.admin.post(base(), { details: { name: 'Lifecycle', startDateTime: null } });
    const id = created.body.id as string;
    const noStart = await actors.admin.post(`${base()}/${id}/publish`);
    expect(noStart.status).toBe(409);
    expect(noStart.body.error.message).toBe(M.publishNeedsStart);
    await actors.admin.patch(`${base()}/${id}`, { details: { startDateTime: '2031-01-01T20:00:00Z' } });
    const noTickets = await actors.admin.post(`${base()}/${id}/publish`);
    expect(noTickets.body.error.message).toBe(M.publishNeedsTickets);
    await actors.admin.post(`${base()}/${id}/ticket-types`, { details: { name: 'GA', price: 1000, quantity: 10 } });
    expect((await actors.admin.post(`${base()}/${id}/publish`)).body.details.status).toBe('published');
    expect((await actors.admin.post(`${base()}/${id}/publish`)).body.details.status).toBe('published');
    expect((await actors.admin.post(`${base()}/${id}/unpublish`)).body.details.status).toBe('draft');
    expect((await actors.admin.post(`${base()}/${id}/cancel`)).body.details.status).toBe('cancelled');
    const after = await actors.admin.post(`${base()}/${id}/publish`);
    expect(after.status).toBe(409);
    expect(after.body.error).toEqual({ code: 'CONFLICT', message: M.eventCancelledReadOnly, domainCode: 'EVENT_CANCELLED' });
    const edit = await actors.admin.patch(`${base()}/${id}`, { details: { name: 'Renamed' } });
    expect(edit.status).toBe(409);
  });

  it('deletes an event without orders, refuses one with orders', async () => {
    const created = await actors.admin.post(base(), { details: { name: 'Short Lived' } });
    expect((await actors.admin.delete(`${base()}/${created.body.id}`)).status).toBe(200);
    expect((await actors.admin.get(`${base()}/${created.body.id}`)).status).toBe(404);
    // Its ticket types and discount codes go with it; a second delete finds nothing.
    const unsold = await givenEventOnSale(server, tenant.id, { discounts: [{ code: 'GONE', kind: 'percent', value: 10 }] });
    expect((await actors.admin.delete(`${base()}/${unsold.id}`)).status).toBe(200);
    expect(await server.app.deps.db.select().from(ticketTypes).where(eq(ticketTypes.eventId, unsold.id))).toEqual([]);
    expect(await server.app.deps.db.select().from(discountCodes).where(eq(discountCodes.eventId, unsold.id))).toEqual([]);
    expect(await actors.admin.delete(`${base()}/${unsold.id}`)).toMatchObject({ status: 404 });
    const withOrders = await givenEventOnSale(server, tenant.id);
    await givenHeldOrder(server, tenant.id, { eventId: withOrders.id });
    const keptVolunteer = await givenUser(server, { event: { tenantId: tenant.id, eventId: withOrders.id, roles: ['event_checkin'] } });
    const refused = await actors.admin.delete(`${base()}/${withOrders.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(M.eventHasOrders);
    // A refused delete takes nothing with it.
    expect(await db().select().from(memberships).where(eq(memberships.userId, keptVolunteer.id))).toHaveLength(1);
  });

  it("takes the event's staff roles, invites to them and its waiting room with it; other events' stay", async () => {
    const doomed = await givenEventOnSale(server, tenant.id);
    const kept = await givenEventOnSale(server, tenant.id);
    const volunteer = await givenUser(server, { event: { tenantId: tenant.id, eventId: doomed.id, roles: ['event_checkin'] } });
    await db().insert(memberships).values({ id: randomUUID(), userId: volunteer.id, groupId: tenant.id, tenantId: tenant.id, eventId: kept.id, roles: ['event_manager'] });
    for (const e of [doomed, kept]) {
      const invited = await actors.admin.post(`${base()}/${e.id}/staff/invites`, { email: `door-${e.id.slice(0, 8)}@example.test`, roles: ['event_checkin'] });
      expect(invited.status).toBe(201);
      const room = await actors.admin.put(`${base()}/${e.id}/waiting-room`, { enabled: true, opensAt: new Date(Date.now() + 3_600_000).toISOString(), admitPerMinute: 60 });
      expect(room.status).toBe(200);
      const joined = await server.client(tenant.url).post(`/api/p/tenants/${tenant.id}/events/${e.id}/waiting-room`, {});
      expect(joined.status).toBeLessThan(300);
    }
    const leftOf = async (eventId: string) => ({
      roles: (await db().select().from(memberships).where(eq(memberships.eventId, eventId))).length,
      invites: (await db().select().from(invites).where(eq(invites.eventId, eventId))).length,
      rooms: (await db().select().from(waitingRooms).where(eq(waitingRooms.eventId, eventId))).length,
      places: (await db().select().from(waitingRoomVisitors).where(eq(waitingRoomVisitors.eventId, eventId))).length,
      addresses: (await db().select().from(waitingRoomAddresses).where(eq(waitingRoomAddresses.eventId, eventId))).length,
    });
    expect(await leftOf(doomed.id)).toEqual({ roles: 1, invites: 1, rooms: 1, places: 1, addresses: 1 });
    expect((await actors.admin.delete(`${base()}/${doomed.id}`)).status).toBe(200);
    expect(await leftOf(doomed.id)).toEqual({ roles: 0, invites: 0, rooms: 0, places: 0, addresses: 0 });
    expect(await leftOf(kept.id)).toEqual({ roles: 1, invites: 1, rooms: 1, places: 1, addresses: 1 });
  });
});

describe('events: seat map', () => {
  it('stores a PNG or GIF by its bytes and serves it publicly at /{eventName}/assets/seatmap.{ext} on the tenant host only', async () => {
    const up = await actors.admin.upload(`${base()}/${event.id}/seatmap`, 'file', 'map.jpg', PNG_1PX, 'image/jpeg');
    expect(up.status).toBe(200);
    const urlName = (await actors.admin.get(`${base()}/${event.id}`)).body.details.urlName as string;
    expect(up.body.details.seatMap).toBe(`/${urlName}/assets/seatmap.png`);

    const site = server.client(tenant.url);
    const img = await site.get(`/${urlName}/assets/seatmap.png`);
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(img.raw, PNG_1PX)).toBe(0);
    // The other names of the probe order, unknown names, other hosts: 404.
    for (const name of ['seatmap.jpg', 'seatmap.jpeg', 'seatmap.gif', 'seatmap.webp', 'other.png', 'seatmap.png.txt']) {
      expect((await site.get(`/${urlName}/assets/${name}`)).status).toBe(404);
    }
    expect((await site.get(`/no-such-event/assets/seatmap.png`)).status).toBe(404);
    expect((await server.client().get(`/${urlName}/assets/seatmap.png`)).status).toBe(404);
    expect((await server.client('nobody-here').get(`/${urlName}/assets/seatmap.png`)).status).toBe(404);

    // Replacing with a GIF moves the file; the PNG name is gone.
    const gif = await actors.admin.upload(`${base()}/${event.id}/seatmap`, 'file', 'map.gif', GIF_1PX, 'image/gif');
    expect(gif.body.details.seatMap).toBe(`/${urlName}/assets/seatmap.gif`);
    expect((await site.get(`/${urlName}/assets/seatmap.gif`)).headers['content-type']).toBe('image/gif');
    expect((await site.get(`/${urlName}/assets/seatmap.png`)).status).toBe(404);

    // A draft event's seat map is not public.
    await actors.admin.post(`${base()}/${event.id}/unpublish`);
    expect((await site.get(`/${urlName}/assets/seatmap.gif`)).status).toBe(404);
    await actors.admin.post(`${base()}/${event.id}/publish`);

    expect((await actors.admin.delete(`${base()}/${event.id}/seatmap`)).body.details.seatMap).toBeNull();
    expect((await site.get(`/${urlName}/assets/seatmap.gif`)).status).toBe(404);
  });

  it('refuses files that are not PNG, JPG or GIF by content, and files over 5 MB', async () => {
    const text = await actors.admin.upload(`${base()}/${event.id}/seatmap`, 'file', 'map.png', Buffer.from('not an image at all'), 'image/png');
    expect(text.status).toBe(415);
    expect(text.body.error.message).toBe(M.seatmapType);
    const webp = Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBP'), Buffer.alloc(20)]);
    expect((await actors.admin.upload(`${base()}/${event.id}/seatmap`, 'file', 'map.webp', webp, 'image/webp')).status).toBe(415);
    const big = Buffer.concat([PNG_1PX, Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await actors.admin.upload(`${base()}/${event.id}/seatmap`, 'file', 'map.png', big, 'image/png');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.message).toBe(M.seatmapSize);
  });
});

describe('events: who may do what', () => {
  it("lets an event manager read the tenant's rule and charity lists (their event's choices), not check-in staff", async () => {
    for (const path of [`/api/tenants/${tenant.id}/rules`, `/api/tenants/${tenant.id}/charities`]) {
      expect({ path, status: (await actors.eventManager.get(path)).status }).toEqual({ path, status: 200 });
      expect({ path, status: (await actors.checkin.get(path)).status }).toEqual({ path, status: 403 });
      expect({ path, status: (await actors.outsider.get(path)).status }).toEqual({ path, status: 404 });
    }
    // Reading is all: writing the rules stays the tenant admin's.
    expect((await actors.eventManager.delete(`/api/tenants/${tenant.id}/rules/${randomUUID()}`)).status).toBe(403);
  });

  it('lists only their own events to event staff, and every event to tenant-wide roles', async () => {
    const ids = async (c: keyof Actors) => {
      const res = await actors[c].get(`${base()}?limit=100`);
      expect(res.status).toBe(200);
      return { ids: (res.body.result as Array<{ id: string }>).map((e) => e.id).sort(), count: res.body.count };
    };
    expect(await ids('eventManager')).toEqual({ ids: [event.id], count: 1 });
    expect(await ids('checkin')).toEqual({ ids: [event.id], count: 1 });
    expect(await ids('otherEventManager')).toEqual({ ids: [otherEvent.id], count: 1 });
    const all = await ids('staff');
    expect(all.ids).toEqual(expect.arrayContaining([event.id, otherEvent.id]));
    expect(all.count).toBeGreaterThanOrEqual(2);
    // A filter narrows within their events, never beyond them.
    const matrix = `${base()}?filters=${encodeURIComponent('details.name=Matrix Night')}`;
    expect((await actors.eventManager.get(matrix)).body).toMatchObject({ result: [{ id: event.id }], count: 1 });
    expect((await actors.otherEventManager.get(matrix)).body).toMatchObject({ result: [], count: 0 });
  });

  it('lets organisers and platform managers write, staff and reporting read, event staff only their own event', async () => {
    const one = `${base()}/${event.id}`;
    const expectations: Array<[keyof Actors, 'GET list' | 'GET one' | 'PATCH one' | 'POST create' | 'POST cancel', number]> = [
      ['admin', 'GET list', 200],
      ['staff', 'GET list', 200],
      ['staff', 'GET one', 200],
      ['staff', 'PATCH one', 403],
      ['staff', 'POST create', 403],
      ['eventManager', 'GET one', 200],
      ['eventManager', 'PATCH one', 200],
      ['eventManager', 'GET list', 200],
      ['eventManager', 'POST create', 403],
      ['eventManager', 'POST cancel', 403],
      ['checkin', 'GET one', 200],
      ['checkin', 'PATCH one', 403],
      ['otherEventManager', 'GET one', 403],
      ['otherEventManager', 'PATCH one', 403],
      ['platformManager', 'GET list', 200],
      ['platformManager', 'PATCH one', 200],
      ['platformManager', 'POST create', 201],
      ['platformReport', 'GET list', 200],
      ['platformReport', 'GET one', 200],
      ['platformReport', 'PATCH one', 404],
      ['outsider', 'GET list', 404],
      ['outsider', 'GET one', 404],
      ['outsider', 'PATCH one', 404],
      ['outsiderHome', 'GET one', 404],
      ['outsiderHome', 'GET list', 404],
      ['anonymous', 'GET list', 401],
      ['anonymous', 'PATCH one', 401],
    ];
    for (const [who, what, status] of expectations) {
      const c = actors[who];
      const res =
        what === 'GET list'
          ? await c.get(base())
          : what === 'GET one'
            ? await c.get(one)
            : what === 'PATCH one'
              ? await c.patch(one, { details: { description: `edited by ${who}` } })
              : what === 'POST create'
                ? await c.post(base(), { details: { name: `By ${who}` } })
                : await c.post(`${base()}/${otherEvent.id}/cancel`);
      expect({ who, what, status: res.status }).toEqual({ who, what, status });
    }
  });

  it('lets event managers publish and upload a seat map for their event, not tenant staff', async () => {
    const one = `${base()}/${event.id}`;
    expect((await actors.staff.post(`${one}/unpublish`)).status).toBe(403);
    expect((await actors.checkin.post(`${one}/unpublish`)).status).toBe(403);
    expect((await actors.eventManager.post(`${one}/unpublish`)).body.details.status).toBe('draft');
    expect((await actors.eventManager.post(`${one}/publish`)).body.details.status).toBe('published');
    expect((await actors.otherEventManager.post(`${one}/publish`)).status).toBe(403);
    expect((await actors.staff.upload(`${one}/seatmap`, 'file', 'm.png', PNG_1PX, 'image/png')).status).toBe(403);
    expect((await actors.outsider.upload(`${one}/seatmap`, 'file', 'm.png', PNG_1PX, 'image/png')).status).toBe(404);
    expect((await actors.staff.delete(`${one}/seatmap`)).status).toBe(403);
    expect((await actors.eventManager.upload(`${one}/seatmap`, 'file', 'm.png', PNG_1PX, 'image/png')).status).toBe(200);
    expect((await actors.eventManager.delete(`${one}/seatmap`)).status).toBe(200);
    expect((await actors.staff.delete(one)).status).toBe(403);
    expect((await actors.eventManager.delete(one)).status).toBe(403);
  });

  it("answers 404 for another tenant's event through this tenant's path", async () => {
    const other = await givenTenant(server);
    const foreign = await givenEventOnSale(server, other.id);
    expect((await actors.admin.get(`${base()}/${foreign.id}`)).status).toBe(404);
    expect((await actors.admin.patch(`${base()}/${foreign.id}`, { details: { name: 'Mine now' } })).status).toBe(404);
    expect((await actors.admin.post(`${base()}/${foreign.id}/publish`)).status).toBe(404);
    expect((await actors.admin.post(`${base()}/${foreign.id}/cancel`)).status).toBe(404);
    expect((await actors.admin.delete(`${base()}/${foreign.id}`)).status).toBe(404);
    expect((await actors.admin.upload(`${base()}/${foreign.id}/seatmap`, 'file', 'm.png', PNG_1PX, 'image/png')).status).toBe(404);
    // And the other tenant's path from this tenant's host.
    expect((await actors.admin.get(`/api/tenants/${other.id}/events/${foreign.id}`)).status).toBe(404);
  });
});

describe('events: bad input and other tenants', () => {
  const rowOf = async (id: string) => (await server.app.deps.db.select().from(events).where(eq(events.id, id)))[0];

  it('refuses a PATCH with bad input with a 400 naming the field, and changes nothing', async () => {
    const created = await actors.admin.post(base(), { details: { ...valid, name: 'Patch Target' } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const before = await rowOf(id);
    const one = `${base()}/${id}`;
    const cases: Array<[string, unknown, unknown]> = [
      ['no details', {}, validationError('details', 'Invalid input: expected object, received undefined')],
      ['details not an object', { details: 'rename me' }, validationError('details', 'Invalid input: expected object, received string')],
      ['capacity a word', { details: { capacity: 'many' } }, validationError('details.capacity', M.invalidValue)],
      ['capacity 0', { details: { capacity: 0 } }, validationError('details.capacity', M.invalidValue)],
      ['name empty', { details: { name: '' } }, validationError('details.name', M.eventNameRequired)],
      ['URL name with spaces', { details: { urlName: 'Has Spaces' } }, validationError('details.urlName', M.urlNameFormat)],
      ['unknown time zone', { details: { timeZone: 'Mars/Olympus' } }, validationError('details.timeZone', M.timeZoneInvalid)],
      ['start not a date', { details: { startDateTime: 'tomorrow' } }, validationError('details.startDateTime', M.dateTimeInvalid)],
      ['NUL in the description', { details: { description: 'A\u0000B' } }, validationError('details.description', M.invalidValue)],
    ];
    for (const [label, body, expected] of cases) {
      const res = await actors.admin.patch(one, body);
      expect({ label, status: res.status, body: res.body }).toEqual({ label, status: 400, body: expected });
    }
    const broken = await actors.admin.request('PATCH', one, Buffer.from('{"details":'), { 'content-type': 'application/json' });
    expect({ status: broken.status, body: broken.body }).toEqual({
      status: 400,
      body: { error: { code: 'BAD_REQUEST', message: "Body is not valid JSON but content-type is set to 'application/json'" } },
    });
    expect(await rowOf(id)).toEqual(before);
  });

  it('answers a malformed event id with a 400 on every route, and changes nothing', async () => {
    const before = await rowOf(event.id);
    const bad = `${base()}/not-a-uuid`;
    const calls: Array<[string, () => Promise<{ status: number; body: unknown }>]> = [
      ['GET one', () => actors.admin.get(bad)],
      ['PATCH', () => actors.admin.patch(bad, { details: { name: 'x' } })],
      ['DELETE', () => actors.admin.delete(bad)],
      ['publish', () => actors.admin.post(`${bad}/publish`)],
      ['unpublish', () => actors.admin.post(`${bad}/unpublish`)],
      ['cancel', () => actors.admin.post(`${bad}/cancel`)],
      ['DELETE seatmap', () => actors.admin.delete(`${bad}/seatmap`)],
      ['GET one, id with a suffix', () => actors.admin.get(`${base()}/${event.id}0`)],
      ['cancel, id with a suffix', () => actors.admin.post(`${base()}/${event.id}0/cancel`)],
    ];
    for (const [label, call] of calls) {
      const res = await call();
      expect({ label, status: res.status, body: res.body }).toEqual({ label, status: 400, body: invalidUuid('eventId') });
    }
    expect(await rowOf(event.id)).toEqual(before);
  });

  it("answers 404 for unpublish, seat map removal and create on another tenant's event or path, and changes nothing", async () => {
    const other = await givenTenant(server);
    const foreign = await givenEventOnSale(server, other.id);
    await server.app.deps.db.update(events).set({ seatmapKey: `tenants/${other.id}/events/${foreign.id}/seatmap.png` }).where(eq(events.id, foreign.id));
    const before = await rowOf(foreign.id);
    const theirPath = `/api/tenants/${other.id}/events`;
    const calls: Array<[string, () => Promise<{ status: number; body: unknown }>]> = [
      ['unpublish through this path', () => actors.admin.post(`${base()}/${foreign.id}/unpublish`)],
      ['unpublish through their path', () => actors.admin.post(`${theirPath}/${foreign.id}/unpublish`)],
      ['DELETE seatmap through this path', () => actors.admin.delete(`${base()}/${foreign.id}/seatmap`)],
      ['DELETE seatmap through their path', () => actors.admin.delete(`${theirPath}/${foreign.id}/seatmap`)],
      ['create on their path', () => actors.admin.post(theirPath, { details: { ...valid, name: 'Planted', urlName: 'planted' } })],
      ['create on this path from their host', () => actors.outsiderHome.post(base(), { details: { ...valid, name: 'Planted', urlName: 'planted' } })],
      ['unpublish this event from their host', () => actors.outsiderHome.post(`${base()}/${event.id}/unpublish`)],
    ];
    for (const [label, call] of calls) {
      const res = await call();
      expect({ label, status: res.status, body: res.body }).toEqual({ label, status: 404, body: notFoundError });
    }
    expect(await rowOf(foreign.id)).toEqual(before);
    const planted = await server.app.deps.db.select().from(events).where(eq(events.urlName, 'planted'));
    expect(planted).toEqual([]);
    expect((await rowOf(event.id))!.status).toBe('published');
  });
});

describe('the API document', () => {
  it('describes the event, ticket type, discount, checkout and event site routes', async () => {
    const res = await server.client().get('/api/docs/openapi.json');
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths);
    for (const p of [
      '/api/tenants/{tenantId}/events',
      '/api/tenants/{tenantId}/events/{eventId}/publish',
      '/api/tenants/{tenantId}/events/{eventId}/seatmap',
      '/api/tenants/{tenantId}/events/{eventId}/ticket-types/{ticketTypeId}',
      '/api/tenants/{tenantId}/events/{eventId}/discount-codes',
      '/api/p/events/{eventName}',
      '/api/p/events/{eventName}/cart/validate',
      '/api/p/events/{eventName}/price',
      '/api/p/tenants/{tenantId}/events/{eventId}/setting',
      '/api/p/tenants/{tenantId}/events/{eventId}/orders',
      '/api/p/orders/{orderUID}',
    ]) {
      expect(paths).toContain(p);
    }
  });
});

describe('events: seat map as a JPEG', () => {
  // A real baseline JFIF: 1x1, one grey pixel (Chromium decodes it), 159 bytes.
  const JPEG_1PX = Buffer.from(
    'ffd8ffe000104a46494600010100000100010000ffdb00430001010101010101010101010101010101010101010101010101010101010101' +
      '010101010101010101010101010101010101010101010101010101010101010101ffc0000b080001000101011100ffc40014000100000000' +
      '000000000000000000000000ffc40014100100000000000000000000000000000000ffda0008010100003f003fffd9',
    'hex',
  );

  it('stores JPEG bytes as seatmap.jpg and serves them at .jpg and .jpeg as image/jpeg', async () => {
    const e = await givenEventOnSale(server, tenant.id);
    const up = await actors.admin.upload(`${base()}/${e.id}/seatmap`, 'file', 'Hall Plan.JPEG', JPEG_1PX, 'image/jpeg');
    expect(up.status).toBe(200);
    expect(up.body.details.seatMap).toBe(`/${e.urlName}/assets/seatmap.jpg`);
    const site = server.client(tenant.url);
    for (const name of ['seatmap.jpg', 'seatmap.jpeg']) {
      const img = await site.get(`/${e.urlName}/assets/${name}`);
      expect(img.status).toBe(200);
      expect(img.headers['content-type']).toBe('image/jpeg');
      expect(Buffer.compare(img.raw, JPEG_1PX)).toBe(0);
    }
    // The probe's other names are not there, so the web settles on the JPEG (spec §7).
    expect((await site.get(`/${e.urlName}/assets/seatmap.png`)).status).toBe(404);
    expect((await site.get(`/${e.urlName}/assets/seatmap.gif`)).status).toBe(404);
  });
});
