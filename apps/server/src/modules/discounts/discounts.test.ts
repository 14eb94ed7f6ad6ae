import { M } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountCodes } from '../../db/schema/index.js';
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
const base = (eventId = event.id) => `/api/tenants/${tenant.id}/events/${eventId}/discount-codes`;

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenant(server);
  event = await givenEventOnSale(server, tenant.id, {
    ticketTypes: [
      { name: 'GA', price: 4500, quantity: 100 },
      { name: 'VIP', price: 12000, quantity: 10 },
    ],
  });
  otherEvent = await givenEventOnSale(server, tenant.id);
  actors = await givenActors(server, tenant, event.id, otherEvent.id);
});
afterAll(async () => {
  await server.close();
});

describe('discount codes', () => {
  it('refuses a usage limit below the times the code was used with a 409 (issue 14 §5)', async () => {
    const created = await actors.admin.post(base(), { details: { code: 'USEDTHRICE', kind: 'percent', value: 10, usageLimit: 10 } });
    expect(created.status).toBe(201);
    await server.app.deps.db.update(discountCodes).set({ usedCount: 3 }).where(eq(discountCodes.id, created.body.id));
    const res = await actors.admin.patch(`${base()}/${created.body.id}`, { details: { usageLimit: 2 } });
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({ code: 'CONFLICT', message: M.usageLimitBelowUsed });
    expect((await actors.admin.patch(`${base()}/${created.body.id}`, { details: { usageLimit: 3 } })).status).toBe(200);
  });

  it('creates a percentage code, stored upper-case, and reads it back', async () => {
    const res = await actors.admin.post(base(), {
      details: { code: 'summer25', kind: 'percent', value: 12.5, usageLimit: 100, startsAt: '2030-01-01T00:00:00Z', endsAt: '2031-01-01T00:00:00Z', ticketTypeIds: [event.ticketTypeIds[1]] },
    });
    expect(res.status).toBe(201);
    expect(res.body.details).toMatchObject({
      eventId: event.id,
      code: 'SUMMER25',
      kind: 'percent',
      value: 12.5,
      usageLimit: 100,
      usedCount: 0,
      startsAt: '2030-01-01T00:00:00.000Z',
      endsAt: '2031-01-01T00:00:00.000Z',
      ticketTypeIds: [event.ticketTypeIds[1]],
      active: true,
    });
    expect((await actors.admin.get(`${base()}/${res.body.id}`)).body).toEqual(res.body);
  });

  it('creates an amount code in cents for every ticket type', async () => {
    const res = await actors.admin.post(base(), { details: { code: 'TENOFF', kind: 'amount', value: 1000 } });
    expect(res.status).toBe(201);
    expect(res.body.details).toMatchObject({ kind: 'amount', value: 1000, ticketTypeIds: [], usageLimit: null, startsAt: null, endsAt: null });
  });

  it.each([
    [{ code: '' }, 'details.code', M.discountRequired],
    [{ code: 'NO SPACES' }, 'details.code', M.discountCodeFormat],
    [{ kind: 'bogus' }, 'details.kind', M.invalidValue],
    [{ kind: 'percent', value: 101 }, 'details.value', M.discountPercentRange],
    [{ kind: 'percent', value: 12.345 }, 'details.value', M.discountPercentRange],
    [{ kind: 'amount', value: 10.5 }, 'details.value', M.invalidValue],
    [{ value: 0 }, 'details.value', M.invalidValue],
    [{ usageLimit: 0 }, 'details.usageLimit', M.invalidValue],
    [{ startsAt: '2031-01-02T00:00:00Z', endsAt: '2031-01-01T00:00:00Z' }, 'details.endsAt', M.salesWindowOrder],
    [{ ticketTypeIds: ['not-a-uuid'] }, 'details.ticketTypeIds.0', M.discountTicketTypes],
  ])('refuses %o with its message', async (patch, field, message) => {
    const res = await actors.admin.post(base(), { details: { code: 'BADONE', kind: 'percent', value: 10, ...patch } });
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
  });

  it("refuses another event's ticket types and a code the event already has", async () => {
    const foreign = await actors.admin.post(base(), { details: { code: 'FOREIGN', kind: 'percent', value: 10, ticketTypeIds: [otherEvent.ticketTypeIds[0]] } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.fields['details.ticketTypeIds']).toBe(M.discountTicketTypes);
    await actors.admin.post(base(), { details: { code: 'TWICE', kind: 'percent', value: 10 } });
    const dup = await actors.admin.post(base(), { details: { code: 'twice', kind: 'amount', value: 100 } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe(M.discountCodeTaken);
    // The same code on another event is fine.
    expect((await actors.admin.post(base(otherEvent.id), { details: { code: 'TWICE', kind: 'percent', value: 10 } })).status).toBe(201);
  });

  it('updates, switches off, lists and deletes', async () => {
    const res = await actors.admin.post(base(), { details: { code: 'EDITME', kind: 'percent', value: 5 } });
    const id = res.body.id as string;
    const up = await actors.admin.patch(`${base()}/${id}`, { details: { kind: 'amount', value: 250, active: false, code: 'edited' } });
    expect(up.status).toBe(200);
    expect(up.body.details).toMatchObject({ code: 'EDITED', kind: 'amount', value: 250, active: false });
    const bad = await actors.admin.patch(`${base()}/${id}`, { details: { kind: 'percent', value: 250 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields['details.value']).toBe(M.discountPercentRange);
    const list = await actors.staff.get(`${base()}?filters=details.code=EDIT&limit=100`);
    expect(list.body.result.map((d: { details: { code: string } }) => d.details.code)).toEqual(['EDITED']);
    expect((await actors.admin.delete(`${base()}/${id}`)).status).toBe(200);
    expect((await actors.admin.get(`${base()}/${id}`)).status).toBe(404);
  });

  it('role matrix and other tenants', async () => {
    const res = await actors.admin.post(base(), { details: { code: 'MATRIX', kind: 'percent', value: 10 } });
    const one = `${base()}/${res.body.id}`;
    const cases: Array<[keyof Actors, 'read' | 'write', number]> = [
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
      const r = what === 'read' ? await actors[who].get(one) : await actors[who].patch(one, { details: { usageLimit: 50 } });
      expect({ who, what, status: r.status }).toEqual({ who, what, status });
    }
    for (const who of ['staff', 'checkin', 'otherEventManager'] as const) {
      expect((await actors[who].post(base(), { details: { code: `BY${who.toUpperCase()}`, kind: 'percent', value: 5 } })).status).toBe(403);
      expect((await actors[who].delete(one)).status).toBe(403);
    }
    expect((await actors.eventManager.post(base(), { details: { code: 'BYMANAGER', kind: 'percent', value: 5 } })).status).toBe(201);
    expect((await actors.outsider.delete(one)).status).toBe(404);
    expect((await actors.eventManager.delete(one)).status).toBe(200);
    const foreignTenant = await givenTenant(server);
    const foreign = await givenEventOnSale(server, foreignTenant.id, { discounts: [{ code: 'THEIRS', kind: 'percent', value: 50 }] });
    expect((await actors.admin.get(base(foreign.id))).status).toBe(404);
    expect((await actors.admin.get(`${base()}/${foreign.discountCodeIds[0]}`)).status).toBe(404);
    expect((await actors.admin.patch(`${base()}/${foreign.discountCodeIds[0]}`, { details: { value: 99 } })).status).toBe(404);
    expect((await actors.admin.delete(`${base()}/${foreign.discountCodeIds[0]}`)).status).toBe(404);
  });

  it('answers malformed ids and list queries with a 400 naming the field, and writes nothing', async () => {
    const created = await actors.admin.post(base(), { details: { code: 'KEEPME', kind: 'percent', value: 10 } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const cases: Array<[string, () => Promise<{ status: number; body: unknown }>, number, unknown]> = [
      ['list, malformed event id', () => actors.admin.get(base('not-a-uuid')), 400, invalidUuid('eventId')],
      ['list, unknown filter', () => actors.admin.get(`${base()}?filters=details.nope=1`), 400, badRequestError('Filtering on details.nope is not supported.')],
      ['list, limit not a number', () => actors.admin.get(`${base()}?limit=abc`), 400, badRequestError('Invalid input: expected number, received NaN')],
      ['list, garbage cursor', () => actors.admin.get(`${base()}?cursor=garbage`), 400, badRequestError('Invalid cursor.')],
      ['list, NUL in a filter', () => actors.admin.get(`${base()}?filters=details.code=K%00`), 400, validationError('filters', M.invalidValue)],
      ['read, malformed code id', () => actors.admin.get(`${base()}/not-a-uuid`), 400, invalidUuid('discountCodeId')],
      ['read, malformed event id', () => actors.admin.get(`${base('not-a-uuid')}/${id}`), 400, invalidUuid('eventId')],
      ['update, malformed code id', () => actors.admin.patch(`${base()}/not-a-uuid`, { details: { value: 20 } }), 400, invalidUuid('discountCodeId')],
      ['update, value of the wrong type', () => actors.admin.patch(`${base()}/${id}`, { details: { value: 'twenty' } }), 400, validationError('details.value', M.invalidValue)],
      ['delete, malformed code id', () => actors.admin.delete(`${base()}/not-a-uuid`), 400, invalidUuid('discountCodeId')],
      ['delete, malformed event id', () => actors.admin.delete(`${base('not-a-uuid')}/${id}`), 400, invalidUuid('eventId')],
      ['delete, id with a suffix', () => actors.admin.delete(`${base()}/${id}x`), 400, invalidUuid('discountCodeId')],
    ];
    for (const [label, call, status, body] of cases) {
      const res = await call();
      expect({ label, status: res.status, body: res.body }).toEqual({ label, status, body });
    }
    // The code is as it was created.
    const [row] = await server.app.deps.db.select().from(discountCodes).where(eq(discountCodes.id, id));
    expect(row).toMatchObject({ code: 'KEEPME', kind: 'percent', value: 1000 });
  });

  it("answers 404 for a code created on another tenant's event, and creates nothing", async () => {
    const foreignTenant = await givenTenant(server);
    const foreign = await givenEventOnSale(server, foreignTenant.id);
    const codesOf = (eventId: string) => server.app.deps.db.select().from(discountCodes).where(eq(discountCodes.eventId, eventId));
    const details = { code: 'NOTYOURS', kind: 'percent', value: 50 };
    // Their event through this tenant's path, their path from this tenant's host, and the outsider
    // (their admin) naming this tenant's event from their own host.
    const attempts = [
      await actors.admin.post(base(foreign.id), { details }),
      await actors.admin.post(`/api/tenants/${foreignTenant.id}/events/${foreign.id}/discount-codes`, { details }),
      await actors.outsiderHome.post(base(), { details }),
    ];
    for (const res of attempts) expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: notFoundError });
    expect(await codesOf(foreign.id)).toEqual([]);
    expect((await codesOf(event.id)).map((c) => c.code)).not.toContain('NOTYOURS');
  });
});
