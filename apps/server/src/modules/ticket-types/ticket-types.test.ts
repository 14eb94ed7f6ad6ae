import { randomUUID } from 'node:crypto';
import { M, ticketTypeInDiscountCodes } from '@marquee/core';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountCodes, ticketTypes } from '../../db/schema/index.js';
import {
  badRequestError,
  givenEventOnSale,
  givenTenant,
  invalidUuid,
  notFoundError,
  startServer,
  validationError,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { givenEventActors as givenActors, type EventActors as Actors } from '../../../test/actors.js';

let server: TestServer;
let tenant: GivenTenant;
let actors: Actors;
let event: { id: string; ticketTypeIds: string[] };
let otherEvent: { id: string; ticketTypeIds: string[] };
const base = (eventId = event.id) => `/api/tenants/${tenant.id}/events/${eventId}/ticket-types`;

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenant(server);
  event = await givenEventOnSale(server, tenant.id, { timeZone: 'America/Chicago' });
  otherEvent = await givenEventOnSale(server, tenant.id);
  actors = await givenActors(server, tenant, event.id, otherEvent.id);
});
afterAll(async () => {
  await server.close();
});

const setRemaining = (id: string, remaining: number) => server.app.deps.db.execute(sql`update ticket_types set remaining = ${remaining} where id = ${id}`);

describe('ticket types', () => {
  it('creates with the defaults (OPT_1, 1 to 10 per order) and reads back', async () => {
    const res = await actors.admin.post(base(), { details: { name: 'Balcony', details: 'Upstairs', price: 3550, quantity: 40 } });
    expect(res.status).toBe(201);
    expect(res.body.details).toMatchObject({
      eventId: event.id,
      name: 'Balcony',
      details: 'Upstairs',
      price: 3550,
      quantity: 40,
      remainingQuantity: 40,
      soldOrHeld: 0,
      minTicketPerOrder: 1,
      maxTicketPerOrder: 10,
      salesAvailability: 'SALES_AVAILABILITY_OPT_1',
      salesStartAt: null,
      otherTicketTypeId: null,
      active: true,
      sk: res.body.id,
    });
    expect((await actors.admin.get(`${base()}/${res.body.id}`)).body).toEqual(res.body);
  });

  it.each([
    [{ name: '' }, 'details.name', M.ticketNameRequired],
    [{ price: -1 }, 'details.price', M.invalidValue],
    [{ price: 10.5 }, 'details.price', M.invalidValue],
    [{ quantity: -3 }, 'details.quantity', M.invalidValue],
    [{ minTicketPerOrder: 0 }, 'details.minTicketPerOrder', M.invalidValue],
    [{ minTicketPerOrder: 6, maxTicketPerOrder: 4 }, 'details.minTicketPerOrder', M.minAboveMax],
    [{ quantity: 3, minTicketPerOrder: 5, maxTicketPerOrder: 8 }, 'details.minTicketPerOrder', M.minAboveQuantity],
    [{ quantity: 1, minTicketPerOrder: 2 }, 'details.minTicketPerOrder', M.minAboveQuantity],
    [{ salesAvailability: 'SALES_AVAILABILITY_OPT_9' }, 'details.salesAvailability', M.invalidValue],
    [{ salesAvailability: 'SALES_AVAILABILITY_OPT_2', startDate: '2031-07-01', startTime: '10:00' }, 'details.endDate', M.salesWindowRequired],
    [
      { salesAvailability: 'SALES_AVAILABILITY_OPT_2', startDate: '2031-07-02', startTime: '10:00', endDate: '2031-07-01', endTime: '10:00' },
      'details.endDate',
      M.salesWindowOrder,
    ],
    [{ salesAvailability: 'SALES_AVAILABILITY_OPT_2', startDate: '07/01/2031', startTime: '10:00', endDate: '2031-07-02', endTime: '10:00' }, 'details.startDate', M.dateTimeInvalid],
    [{ salesAvailability: 'SALES_AVAILABILITY_OPT_3' }, 'details.otherTicketTypeId', M.otherTicketTypeRequired],
  ])('refuses %o with its message', async (patch, field, message) => {
    const res = await actors.admin.post(base(), { details: { name: 'Bad', price: 1000, quantity: 5, ...patch } });
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
  });

  it('links OPT_3 only to a ticket type of the same event', async () => {
    const foreign = await actors.admin.post(base(), {
      details: { name: 'Linked', price: 1000, quantity: 5, salesAvailability: 'SALES_AVAILABILITY_OPT_3', otherTicketTypeId: otherEvent.ticketTypeIds[0] },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.fields['details.otherTicketTypeId']).toBe(M.otherTicketTypeRequired);
    const ok = await actors.admin.post(base(), {
      details: { name: 'Linked', price: 1000, quantity: 5, salesAvailability: 'SALES_AVAILABILITY_OPT_3', otherTicketTypeId: event.ticketTypeIds[0] },
    });
    expect(ok.status).toBe(201);
    const self = await actors.admin.patch(`${base()}/${ok.body.id}`, { details: { otherTicketTypeId: ok.body.id } });
    expect(self.status).toBe(400);
  });

  it("computes the sales window's instants in the event's time zone, and again when the zone changes", async () => {
    const res = await actors.admin.post(base(), {
      details: {
        name: 'Early Bird',
        price: 2000,
        quantity: 20,
        salesAvailability: 'SALES_AVAILABILITY_OPT_2',
        startDate: '2031-07-04',
        startTime: '19:30',
        endDate: '2031-12-01',
        endTime: '09:00',
      },
    });
    expect(res.status).toBe(201);
    // Chicago: CDT (-5) in July, CST (-6) in December.
    expect(res.body.details.salesStartAt).toBe('2031-07-05T00:30:00.000Z');
    expect(res.body.details.salesEndAt).toBe('2031-12-01T15:00:00.000Z');
    const moved = await actors.admin.patch(`/api/tenants/${tenant.id}/events/${event.id}`, { details: { timeZone: 'Europe/London' } });
    expect(moved.status).toBe(200);
    const after = await actors.admin.get(`${base()}/${res.body.id}`);
    expect(after.body.details).toMatchObject({ startDate: '2031-07-04', startTime: '19:30', salesStartAt: '2031-07-04T18:30:00.000Z', salesEndAt: '2031-12-01T09:00:00.000Z' });
    await actors.admin.patch(`/api/tenants/${tenant.id}/events/${event.id}`, { details: { timeZone: 'America/Chicago' } });
  });

  it('moves remaining with the quantity and never below what is sold or held', async () => {
    const res = await actors.admin.post(base(), { details: { name: 'Floor', price: 5000, quantity: 10 } });
    const id = res.body.id as string;
    await setRemaining(id, 7); // three out
    const more = await actors.admin.patch(`${base()}/${id}`, { details: { quantity: 20 } });
    expect(more.body.details).toMatchObject({ quantity: 20, remainingQuantity: 17, soldOrHeld: 3 });
    const tooFew = await actors.admin.patch(`${base()}/${id}`, { details: { quantity: 2 } });
    expect(tooFew.status).toBe(409);
    expect(tooFew.body.error.message).toBe(M.quantityBelowSold);
    expect((await actors.admin.patch(`${base()}/${id}`, { details: { quantity: 3 } })).body.details).toMatchObject({ quantity: 3, remainingQuantity: 0 });
    // Other fields alone leave the counts alone.
    expect((await actors.admin.patch(`${base()}/${id}`, { details: { name: 'Floor Standing', active: false } })).body.details).toMatchObject({
      name: 'Floor Standing',
      active: false,
      quantity: 3,
      remainingQuantity: 0,
    });
  });

  it('keeps the minimum per order within the quantity, on create and on every update', async () => {
    // As much as the minimum is fine, and so is 0 (nothing for sale, whatever the minimum).
    expect((await actors.admin.post(base(), { details: { name: 'Exact', price: 100, quantity: 4, minTicketPerOrder: 4 } })).status).toBe(201);
    expect((await actors.admin.post(base(), { details: { name: 'None Yet', price: 100, quantity: 0, minTicketPerOrder: 2 } })).status).toBe(201);
    const made = await actors.admin.post(base(), { details: { name: 'Table of Four', price: 100, quantity: 12, minTicketPerOrder: 4, maxTicketPerOrder: 8 } });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    // Lowering the quantity below the stored minimum, or raising the minimum above the stored quantity.
    for (const details of [{ quantity: 3 }, { minTicketPerOrder: 13, maxTicketPerOrder: 20 }, { quantity: 5, minTicketPerOrder: 6 }]) {
      const res = await actors.admin.patch(`${base()}/${id}`, { details });
      expect({ details, status: res.status, body: res.body }).toEqual({ details, status: 400, body: validationError('details.minTicketPerOrder', M.minAboveQuantity) });
    }
    expect((await actors.admin.get(`${base()}/${id}`)).body.details).toMatchObject({ quantity: 12, remainingQuantity: 12, minTicketPerOrder: 4, maxTicketPerOrder: 8 });
    // The quantity is the ticket type's total, sold and held included: 9 of 12 out leaves 3, and the minimum of 4 still stands.
    await setRemaining(id, 3);
    const lowered = await actors.admin.patch(`${base()}/${id}`, { details: { quantity: 10 } });
    expect(lowered.status).toBe(200);
    expect(lowered.body.details).toMatchObject({ quantity: 10, remainingQuantity: 1, soldOrHeld: 9, minTicketPerOrder: 4 });
    // Both together: the minimum may come down with the quantity.
    expect((await actors.admin.patch(`${base()}/${id}`, { details: { quantity: 9, minTicketPerOrder: 1 } })).body.details).toMatchObject({ quantity: 9, minTicketPerOrder: 1 });
  });

  it('deletes only what never sold and nothing depends on', async () => {
    const a = await actors.admin.post(base(), { details: { name: 'Gone Soon', price: 100, quantity: 5 } });
    expect((await actors.admin.delete(`${base()}/${a.body.id}`)).status).toBe(200);
    expect((await actors.admin.get(`${base()}/${a.body.id}`)).status).toBe(404);
    const sold = await actors.admin.post(base(), { details: { name: 'Sold One', price: 100, quantity: 5 } });
    await setRemaining(sold.body.id, 4);
    const refused = await actors.admin.delete(`${base()}/${sold.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(M.ticketTypeHasSales);
    const target = await actors.admin.post(base(), { details: { name: 'Target', price: 100, quantity: 5 } });
    await actors.admin.post(base(), { details: { name: 'Dependent', price: 100, quantity: 5, salesAvailability: 'SALES_AVAILABILITY_OPT_3', otherTicketTypeId: target.body.id } });
    const linked = await actors.admin.delete(`${base()}/${target.body.id}`);
    expect(linked.status).toBe(409);
    expect(linked.body.error.message).toBe(M.ticketTypeLinked);
  });

  it('refuses to delete a ticket type that discount codes apply to, naming them, and changes nothing', async () => {
    const ev = await givenEventOnSale(server, tenant.id, {
      ticketTypes: [
        { name: 'Early Bird', price: 2000, quantity: 10 },
        { name: 'Regular', price: 3000, quantity: 10 },
      ],
      discounts: [
        { code: 'VIP50', kind: 'percent', value: 50, ticketTypeIndexes: [1] },
        { code: 'EVERYONE', kind: 'percent', value: 5 },
      ],
    });
    const [early, regular] = ev.ticketTypeIds as [string, string];
    const codes = `/api/tenants/${tenant.id}/events/${ev.id}/discount-codes`;
    const both = await actors.admin.post(codes, { details: { code: 'BOTH10', kind: 'percent', value: 10, ticketTypeIds: [early, regular] } });
    expect(both.status).toBe(201);
    const rowsBefore = await server.app.deps.db.select().from(discountCodes).where(eq(discountCodes.eventId, ev.id));

    const refused = await actors.admin.delete(`${base(ev.id)}/${regular}`);
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 409,
      body: { error: { code: 'CONFLICT', message: 'Discount codes BOTH10 and VIP50 apply to this ticket type. Change or delete those codes first.' } },
    });
    expect((await actors.admin.get(`${base(ev.id)}/${regular}`)).status).toBe(200);
    expect(await server.app.deps.db.select().from(discountCodes).where(eq(discountCodes.eventId, ev.id))).toEqual(rowsBefore);

    // Once BOTH10 no longer names it, only VIP50 is in the way; a code for every ticket type never is.
    expect((await actors.admin.patch(`${codes}/${both.body.id}`, { details: { ticketTypeIds: [early] } })).status).toBe(200);
    const one = await actors.admin.delete(`${base(ev.id)}/${regular}`);
    expect({ status: one.status, message: one.body.error.message }).toEqual({
      status: 409,
      message: 'Discount code VIP50 applies to this ticket type. Change or delete that code first.',
    });
    expect((await actors.admin.delete(`${codes}/${ev.discountCodeIds[0]}`)).status).toBe(200);
    expect((await actors.admin.delete(`${base(ev.id)}/${regular}`)).status).toBe(200);
    expect((await actors.admin.get(`${base(ev.id)}/${regular}`)).status).toBe(404);
    // The other codes are as they were: nothing was widened or switched off.
    const after = await actors.admin.get(`${codes}?limit=100`);
    expect(after.body.result.map((c: { details: { code: string; ticketTypeIds: string[]; active: boolean } }) => c.details).sort((a: { code: string }, b: { code: string }) => a.code.localeCompare(b.code))).toMatchObject([
      { code: 'BOTH10', ticketTypeIds: [early], active: true },
      { code: 'EVERYONE', ticketTypeIds: [], active: true },
    ]);
  });

  it('names at most five codes', () => {
    expect(ticketTypeInDiscountCodes(['A', 'B', 'C', 'D', 'E', 'F', 'G'])).toBe('Discount codes A, B, C, D, E and 2 more apply to this ticket type. Change or delete those codes first.');
  });

  it("is not held back by another event's or another tenant's code, and never deletes their ticket type", async () => {
    const mine = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'Mine', price: 100, quantity: 5 }] });
    const id = mine.ticketTypeIds[0]!;
    const foreignTenant = await givenTenant(server);
    const foreign = await givenEventOnSale(server, foreignTenant.id, {
      ticketTypes: [{ name: 'Theirs', price: 100, quantity: 5 }],
      discounts: [{ code: 'THEIRS', kind: 'percent', value: 10, ticketTypeIndexes: [0] }],
    });
    // Codes elsewhere that carry this id (the API would refuse them; written straight to the table).
    await server.app.deps.db.insert(discountCodes).values([
      { tenantId: foreignTenant.id, id: randomUUID(), eventId: foreign.id, code: 'STRAY', kind: 'percent', value: 1000, ticketTypeIds: [id] },
      { tenantId: tenant.id, id: randomUUID(), eventId: otherEvent.id, code: 'ELSEWHERE', kind: 'percent', value: 1000, ticketTypeIds: [id] },
    ]);
    // Their ticket type, which their own code applies to: a 404 through either event, never their 409.
    for (const path of [`${base()}/${foreign.ticketTypeIds[0]}`, `${base(foreign.id)}/${foreign.ticketTypeIds[0]}`, `/api/tenants/${foreignTenant.id}/events/${foreign.id}/ticket-types/${foreign.ticketTypeIds[0]}`]) {
      const res = await actors.admin.delete(path);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: notFoundError });
    }
    expect(await server.app.deps.db.select().from(ticketTypes).where(eq(ticketTypes.id, foreign.ticketTypeIds[0]!))).toHaveLength(1);
    expect((await actors.admin.delete(`${base(mine.id)}/${id}`)).status).toBe(200);
  });

  it('never leaves a code naming a deleted ticket type when the delete and the code race', async () => {
    const codes = `/api/tenants/${tenant.id}/events/${event.id}/discount-codes`;
    for (let i = 0; i < 8; i++) {
      const made = await actors.admin.post(base(), { details: { name: `Racer ${i}`, price: 100, quantity: 5 } });
      const id = made.body.id as string;
      const [code, gone] = await Promise.all([
        actors.admin.post(codes, { details: { code: `RACE${i}`, kind: 'percent', value: 10, ticketTypeIds: [id] } }),
        actors.admin.delete(`${base()}/${id}`),
      ]);
      // Either the code came first and the delete is refused, or the delete did and the code is.
      const outcome = { code: code.status, delete: gone.status };
      expect([
        { code: 201, delete: 409 },
        { code: 400, delete: 200 },
      ]).toContainEqual(outcome);
      const stored = await server.app.deps.db.select().from(ticketTypes).where(eq(ticketTypes.id, id));
      expect(stored).toHaveLength(outcome.delete === 200 ? 0 : 1);
    }
  });

  it('never leaves an OPT_3 link to a deleted ticket type when the link and the delete race', async () => {
    for (let i = 0; i < 8; i++) {
      const target = await actors.admin.post(base(), { details: { name: `Target ${i}`, price: 100, quantity: 5 } });
      const id = target.body.id as string;
      const [linked, gone] = await Promise.all([
        actors.admin.post(base(), { details: { name: `After ${i}`, price: 100, quantity: 5, salesAvailability: 'SALES_AVAILABILITY_OPT_3', otherTicketTypeId: id } }),
        actors.admin.delete(`${base()}/${id}`),
      ]);
      const outcome = { link: linked.status, delete: gone.status };
      expect([
        { link: 201, delete: 409 },
        { link: 400, delete: 200 },
      ]).toContainEqual(outcome);
      const dangling = await server.app.deps.db.select().from(ticketTypes).where(eq(ticketTypes.otherTicketTypeId, id));
      expect(dangling).toHaveLength(outcome.delete === 200 ? 0 : 1);
    }
  });

  it('lists in menu order through the one list implementation', async () => {
    const res = await actors.staff.get(`${base()}?limit=100`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(res.body.result.length);
    const orders = res.body.result.map((t: { details: { sortOrder: number } }) => t.details.sortOrder);
    expect(orders).toEqual([...orders].sort((x: number, y: number) => x - y));
    const named = await actors.staff.get(`${base()}?filters=${encodeURIComponent('details.name=early')}`);
    expect(named.body.result.map((t: { details: { name: string } }) => t.details.name)).toEqual(['Early Bird']);
  });

  it('refuses changes on a cancelled event', async () => {
    const cancelled = await givenEventOnSale(server, tenant.id, { status: 'cancelled' });
    const res = await actors.admin.post(base(cancelled.id), { details: { name: 'Late', price: 100, quantity: 5 } });
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({ code: 'CONFLICT', message: M.eventCancelledReadOnly, domainCode: 'EVENT_CANCELLED' });
  });

  it('role matrix: organisers, platform managers and the event manager write; staff, check-in and reporting read', async () => {
    const id = event.ticketTypeIds[0]!;
    const cases: Array<[keyof Actors, 'read' | 'write', number]> = [
      ['admin', 'write', 200],
      ['staff', 'read', 200],
      ['staff', 'write', 403],
      ['eventManager', 'write', 200],
      ['checkin', 'read', 200],
      ['checkin', 'write', 403],
      ['otherEventManager', 'read', 403],
      ['platformManager', 'write', 200],
      ['platformReport', 'read', 200],
      ['platformReport', 'write', 404],
      ['outsider', 'read', 404],
      ['outsiderHome', 'read', 404],
      ['anonymous', 'read', 401],
    ];
    for (const [who, what, status] of cases) {
      const res = what === 'read' ? await actors[who].get(`${base()}/${id}`) : await actors[who].patch(`${base()}/${id}`, { details: { details: `by ${who}` } });
      expect({ who, what, status: res.status }).toEqual({ who, what, status });
    }
  });

  it('lets only writers create and delete', async () => {
    const made = await actors.eventManager.post(base(), { details: { name: 'By Manager', price: 100, quantity: 1 } });
    expect(made.status).toBe(201);
    for (const who of ['staff', 'checkin', 'otherEventManager'] as const) {
      expect((await actors[who].post(base(), { details: { name: 'Nope', price: 100, quantity: 1 } })).status).toBe(403);
      expect((await actors[who].delete(`${base()}/${made.body.id}`)).status).toBe(403);
    }
    expect((await actors.outsider.delete(`${base()}/${made.body.id}`)).status).toBe(404);
    expect((await actors.anonymous.post(base(), { details: { name: 'Nope', price: 100, quantity: 1 } })).status).toBe(401);
    expect((await actors.platformManager.delete(`${base()}/${made.body.id}`)).status).toBe(200);
  });

  it("answers 404 for another event's or another tenant's ticket type", async () => {
    const foreignTenant = await givenTenant(server);
    const foreign = await givenEventOnSale(server, foreignTenant.id);
    expect((await actors.admin.get(`${base()}/${otherEvent.ticketTypeIds[0]}`)).status).toBe(404);
    expect((await actors.admin.patch(`${base()}/${otherEvent.ticketTypeIds[0]}`, { details: { name: 'x' } })).status).toBe(404);
    expect((await actors.admin.delete(`${base()}/${otherEvent.ticketTypeIds[0]}`)).status).toBe(404);
    expect((await actors.admin.get(base(foreign.id))).status).toBe(404);
    expect((await actors.admin.post(base(foreign.id), { details: { name: 'x', price: 1, quantity: 1 } })).status).toBe(404);
    expect((await actors.admin.get(`/api/tenants/${foreignTenant.id}/events/${foreign.id}/ticket-types`)).status).toBe(404);
  });

  it("answers 404 for another tenant's ticket type id, through either event, and leaves it as it was", async () => {
    const foreignTenant = await givenTenant(server);
    const foreign = await givenEventOnSale(server, foreignTenant.id, { ticketTypes: [{ name: 'Theirs', price: 2500, quantity: 7 }] });
    const theirs = foreign.ticketTypeIds[0]!;
    const rowOf = async () => (await server.app.deps.db.select().from(ticketTypes).where(eq(ticketTypes.id, theirs)))[0];
    const before = await rowOf();
    for (const path of [`${base()}/${theirs}`, `${base(foreign.id)}/${theirs}`, `/api/tenants/${foreignTenant.id}/events/${foreign.id}/ticket-types/${theirs}`]) {
      for (const res of [
        await actors.admin.get(path),
        await actors.admin.patch(path, { details: { name: 'Mine now', price: 1, quantity: 1000 } }),
        await actors.admin.delete(path),
      ]) {
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: notFoundError });
      }
    }
    expect(await rowOf()).toEqual(before);
  });

  it('answers malformed ids and list queries with a 400 naming the field, and writes nothing', async () => {
    const made = await actors.admin.post(base(), { details: { name: 'Keep Me', price: 1500, quantity: 3 } });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    const cases: Array<[string, () => Promise<{ status: number; body: unknown }>, number, unknown]> = [
      ['list, malformed event id', () => actors.admin.get(base('not-a-uuid')), 400, invalidUuid('eventId')],
      ['list, unknown filter', () => actors.admin.get(`${base()}?filters=details.nope=1`), 400, badRequestError('Filtering on details.nope is not supported.')],
      ['list, limit 0', () => actors.admin.get(`${base()}?limit=0`), 400, badRequestError('Too small: expected number to be >=1')],
      ['list, garbage cursor', () => actors.admin.get(`${base()}?cursor=garbage`), 400, badRequestError('Invalid cursor.')],
      ['read, malformed id', () => actors.admin.get(`${base()}/not-a-uuid`), 400, invalidUuid('ticketTypeId')],
      ['read, malformed event id', () => actors.admin.get(`${base('not-a-uuid')}/${id}`), 400, invalidUuid('eventId')],
      ['update, malformed id', () => actors.admin.patch(`${base()}/not-a-uuid`, { details: { name: 'x' } }), 400, invalidUuid('ticketTypeId')],
      ['update, price of the wrong type', () => actors.admin.patch(`${base()}/${id}`, { details: { price: '15.00' } }), 400, validationError('details.price', M.invalidValue)],
      ['update, NUL in the name', () => actors.admin.patch(`${base()}/${id}`, { details: { name: 'Keep\u0000Me' } }), 400, validationError('details.name', M.invalidValue)],
      ['delete, malformed id', () => actors.admin.delete(`${base()}/not-a-uuid`), 400, invalidUuid('ticketTypeId')],
      ['delete, malformed event id', () => actors.admin.delete(`${base('not-a-uuid')}/${id}`), 400, invalidUuid('eventId')],
    ];
    for (const [label, call, status, body] of cases) {
      const res = await call();
      expect({ label, status: res.status, body: res.body }).toEqual({ label, status, body });
    }
    const [row] = await server.app.deps.db.select().from(ticketTypes).where(eq(ticketTypes.id, id));
    expect(row).toMatchObject({ name: 'Keep Me', price: 1500, quantity: 3 });
  });
});
