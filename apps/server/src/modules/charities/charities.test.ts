import { randomUUID } from 'node:crypto';
import { M } from '@marquee/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { charities, orders, tenantCharities } from '../../db/schema/index.js';
import {
  badRequestError,
  givenEventOnSale,
  givenHeldOrder,
  givenPlatformAdmin,
  givenTenant,
  notFoundError,
  startServer,
  type Client,
  type GivenTenant,
  type TestServer,
  validationError,
} from '../../../test/harness.js';
import { givenActors, statusesOf, type Actors } from '../../../test/actors.js';

let server: TestServer;
let admin: Client;
let tenant: GivenTenant;
let other: GivenTenant;
let actors: Actors;
/** The tenant's admin on the tenant's host, and the other tenant's admin on theirs. */
let organiser: Client;
let otherOrganiser: Client;

beforeAll(async () => {
  server = await startServer();
  const user = await givenPlatformAdmin(server);
  admin = server.client();
  await admin.login(user.email);
  tenant = await givenTenant(server);
  other = await givenTenant(server);
  actors = await givenActors(server, tenant, other);
  organiser = actors.tenant_admin.tenant;
  otherOrganiser = actors.other_tenant_admin.tenant;
});
afterAll(async () => {
  await server.close();
});

const fields = (over: Record<string, unknown> = {}) => ({
  name: `Food Bank ${randomUUID().slice(0, 6)}`,
  status: 'active',
  street: '12 Harbour Road',
  city: 'Springfield',
  state: 'IL',
  zip_code: '62701',
  ...over,
});

async function givenCharity(over: Record<string, unknown> = {}): Promise<string> {
  const res = await admin.post('/api/platform/charities', { charityRequest: fields(over) });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const assign = (c: Client, charityId: string, tenantId: string) => c.post(`/api/platform/charities/${charityId}/assign`, { tenantId });
const unassign = (c: Client, charityId: string, tenantId: string) => c.post(`/api/platform/charities/${charityId}/unassign`, { tenantId });
const tenantList = (c: Client, t: GivenTenant, query = '') => c.get(`/api/tenants/${t.id}/charities?limit=100${query}`);
const enabledIn = async (c: Client, t: GivenTenant) =>
  Object.fromEntries(((await tenantList(c, t)).body.result as Array<{ id: string; details: { enabled: boolean } }>).map((r) => [r.id, r.details.enabled]));

describe('platform charities (spec §2 screen 19, §7)', () => {
  it('creates with charityRequest (returns the id), reads, lists, updates and deletes', async () => {
    const name = `Harbour Food Bank ${randomUUID().slice(0, 6)}`;
    const created = await admin.post('/api/platform/charities', { charityRequest: fields({ name: `  ${name} ` }) });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(['id']);
    const id = created.body.id;

    const one = await admin.get(`/api/platform/charities/${id}`);
    expect(one.body).toMatchObject({ id, details: { name, status: 'active', street: '12 Harbour Road', city: 'Springfield', state: 'IL', zip_code: '62701' } });

    const listed = await admin.get(`/api/platform/charities?filters=details.name=${encodeURIComponent(name.slice(7).toLowerCase())}`);
    expect(listed.status).toBe(200);
    expect(listed.body.count).toBe(1);
    expect(listed.body.result[0].id).toBe(id);

    const updated = await admin.put(`/api/platform/charities/${id}`, { charityRequest: fields({ name, status: 'inactive', zip_code: '10001' }) });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ success: true });
    expect((await admin.get(`/api/platform/charities/${id}`)).body.details).toMatchObject({ status: 'inactive', zip_code: '10001' });

    expect((await admin.delete(`/api/platform/charities/${id}`)).body).toEqual({ success: true });
    expect((await admin.get(`/api/platform/charities/${id}`)).status).toBe(404);
    expect((await admin.delete(`/api/platform/charities/${id}`)).status).toBe(404);
    expect((await admin.put(`/api/platform/charities/${id}`, { charityRequest: fields() })).status).toBe(404);
  });

  it('pages with cursor and limit, sorts and filters on details.name and details.status', async () => {
    const tag = randomUUID().slice(0, 8);
    for (const [n, status] of [['A', 'active'], ['B', 'inactive'], ['C', 'active'], ['D', 'active']] as const) {
      await givenCharity({ name: `${tag} ${n}`, status });
    }
    const first = await admin.get(`/api/platform/charities?limit=2&filters=details.name=${tag}`);
    expect(first.body.count).toBe(4);
    expect(first.body.result.map((c: { details: { name: string } }) => c.details.name)).toEqual([`${tag} A`, `${tag} B`]);
    const second = await admin.get(`/api/platform/charities?limit=2&filters=details.name=${tag}&cursor=${first.body.cursor}`);
    expect(second.body.result.map((c: { details: { name: string } }) => c.details.name)).toEqual([`${tag} C`, `${tag} D`]);
    expect(second.body.cursor).toBeNull();

    const desc = await admin.get(`/api/platform/charities?sort=-details.name&filters=details.name=${tag}`);
    expect(desc.body.result[0].details.name).toBe(`${tag} D`);
    const inactive = await admin.get(`/api/platform/charities?filters=details.name=${tag}&filters=details.status=inactive`);
    expect(inactive.body.result.map((c: { details: { name: string } }) => c.details.name)).toEqual([`${tag} B`]);
  });

  // spec §5 Charity, word for word.
  it.each([
    [{ name: undefined }, 'charityRequest.name', M.charityName],
    [{ name: '' }, 'charityRequest.name', M.charityName],
    [{ name: '   ' }, 'charityRequest.name', M.charityName],
    [{ street: undefined }, 'charityRequest.street', M.fieldRequired],
    [{ street: ' ' }, 'charityRequest.street', M.fieldRequired],
    [{ city: '' }, 'charityRequest.city', M.fieldRequired],
    [{ state: undefined }, 'charityRequest.state', M.fieldRequired],
    [{ zip_code: '' }, 'charityRequest.zip_code', M.fieldRequired],
    [{ zip_code: '123456' }, 'charityRequest.zip_code', M.zipMax],
    [{ status: undefined }, 'charityRequest.status', M.charityStatusRequired],
    [{ status: 'archived' }, 'charityRequest.status', M.charityStatusRequired],
    [{ status: null }, 'charityRequest.status', M.charityStatusRequired],
    [{ name: 42 }, 'charityRequest.name', M.charityName],
  ])('refuses %o with the spec message, on create and on update', async (over, field, message) => {
    const id = await givenCharity();
    for (const res of [
      await admin.post('/api/platform/charities', { charityRequest: fields(over) }),
      await admin.put(`/api/platform/charities/${id}`, { charityRequest: fields(over) }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.error.fields[field]).toBe(message);
    }
  });

  it('answers bad input with its exact 4xx and message, and writes nothing', async () => {
    const id = await givenCharity();
    const db = server.app.deps.db;
    const charityCount = async () => (await db.select().from(charities)).length;
    const enabledRows = async () => (await db.select().from(tenantCharities).where(eq(tenantCharities.tenantId, tenant.id))).length;
    const before = { charities: await charityCount(), enabled: await enabledRows() };
    const cursorOfWrongShape = Buffer.from(JSON.stringify([{}, 'x'])).toString('base64url');
    const validation = (field: string, message: string) => ({ status: 400, body: validationError(field, message) });
    const badRequest = (message: string) => ({ status: 400, body: badRequestError(message) });
    const notFound = { status: 404, body: notFoundError };
    const cases: Array<[string, () => Promise<{ status: number; body: unknown }>, { status: number; body: unknown }]> = [
      ['create without charityRequest', () => admin.post('/api/platform/charities', {}), validation('charityRequest', 'Invalid input: expected object, received undefined')],
      ['create with a string', () => admin.post('/api/platform/charities', { charityRequest: 'x' }), validation('charityRequest', 'Invalid input: expected object, received string')],
      [
        'create with broken JSON',
        () => admin.request('POST', '/api/platform/charities', Buffer.from('{"charityRequest":'), { 'content-type': 'application/json' }),
        badRequest("Body is not valid JSON but content-type is set to 'application/json'"),
      ],
      ['read a malformed id', () => admin.get('/api/platform/charities/not-a-uuid'), validation('charityId', 'Invalid UUID')],
      ['update a malformed id', () => admin.put('/api/platform/charities/not-a-uuid', { charityRequest: fields() }), validation('charityId', 'Invalid UUID')],
      ['delete a malformed id', () => admin.delete('/api/platform/charities/1'), validation('charityId', 'Invalid UUID')],
      ['list with a garbage cursor', () => admin.get('/api/platform/charities?cursor=garbage'), badRequest('Invalid cursor.')],
      ['list with limit 0', () => admin.get('/api/platform/charities?limit=0'), badRequest('Too small: expected number to be >=1')],
      ['list with limit abc', () => admin.get('/api/platform/charities?limit=abc'), badRequest('Invalid input: expected number, received NaN')],
      ['sort on an unknown field', () => admin.get('/api/platform/charities?sort=details.street'), badRequest('Sorting on details.street is not supported.')],
      ['filter on an unknown field', () => admin.get('/api/platform/charities?filters=details.zip_code=1'), badRequest('Filtering on details.zip_code is not supported.')],
      ['filter a date with a word', () => admin.get('/api/platform/charities?filters=details.dateCreated>yesterday'), badRequest('Invalid filter value for details.dateCreated.')],
      ['list with a cursor of the wrong shape', () => admin.get(`/api/platform/charities?cursor=${cursorOfWrongShape}`), badRequest('Invalid cursor.')],
      ['list with a NUL in a filter', () => admin.get('/api/platform/charities?filters=details.name=a%00b'), validation('filters', M.invalidValue)],
      ['assign a malformed charity id', () => assign(admin, 'not-a-uuid', tenant.id), validation('charityId', 'Invalid UUID')],
      ['assign without tenantId', () => admin.post(`/api/platform/charities/${id}/assign`, {}), validation('tenantId', M.tenantIdRequired)],
      ['assign with a numeric tenantId', () => admin.post(`/api/platform/charities/${id}/assign`, { tenantId: 42 }), validation('tenantId', M.tenantIdRequired)],
      ['assign to a malformed tenant id', () => assign(admin, id, 'not-a-uuid'), notFound],
      ['unassign a malformed charity id', () => unassign(admin, 'not-a-uuid', tenant.id), validation('charityId', 'Invalid UUID')],
      ['unassign without tenantId', () => admin.post(`/api/platform/charities/${id}/unassign`, {}), validation('tenantId', M.tenantIdRequired)],
      ['unassign with a numeric tenantId', () => admin.post(`/api/platform/charities/${id}/unassign`, { tenantId: 42 }), validation('tenantId', M.tenantIdRequired)],
      ['unassign from a malformed tenant id', () => unassign(admin, id, 'not-a-uuid'), notFound],
      ['unassign as a tenant admin with a malformed charity id', () => unassign(organiser, 'not-a-uuid', tenant.id), validation('charityId', 'Invalid UUID')],
      ['tenant list: enabled=maybe', () => organiser.get(`/api/tenants/${tenant.id}/charities?filters=details.enabled=maybe`), badRequest('Invalid filter value for details.enabled.')],
      ['tenant list: sort on status', () => organiser.get(`/api/tenants/${tenant.id}/charities?sort=details.status`), badRequest('Sorting on details.status is not supported.')],
    ];
    for (const [label, call, expected] of cases) {
      const res = await call();
      expect({ label, status: res.status, body: res.body }).toEqual({ label, ...expected });
    }
    expect({ charities: await charityCount(), enabled: await enabledRows() }).toEqual(before);
    expect((await admin.get(`/api/platform/charities/${id}`)).body.details).toEqual(expect.objectContaining(fields({ name: expect.any(String) })));
    expect((await assign(admin, randomUUID(), tenant.id)).status).toBe(404);
    expect((await assign(admin, id, randomUUID())).status).toBe(404);
    expect(await enabledRows()).toBe(before.enabled);
  });
});

describe('tenant charities (spec §2 screen 20, §4)', () => {
  it('lists only active charities with the tenant’s enabled flag; assign and unassign toggle it, twice is harmless', async () => {
    const on = await givenCharity();
    const off = await givenCharity();
    const inactive = await givenCharity({ status: 'inactive' });
    expect(await enabledIn(organiser, tenant)).toMatchObject({ [on]: false, [off]: false });
    expect(await enabledIn(organiser, tenant)).not.toHaveProperty(inactive);

    for (let i = 0; i < 2; i++) expect((await assign(organiser, on, tenant.id)).body).toEqual({ success: true });
    expect(await enabledIn(organiser, tenant)).toMatchObject({ [on]: true, [off]: false });
    // The other tenant's list is its own.
    expect(await enabledIn(otherOrganiser, other)).toMatchObject({ [on]: false });

    const enabled = await tenantList(organiser, tenant, '&filters=details.enabled=true');
    expect(enabled.body.result.map((r: { id: string }) => r.id)).toContain(on);
    expect(enabled.body.result.map((r: { id: string }) => r.id)).not.toContain(off);

    for (let i = 0; i < 2; i++) expect((await unassign(organiser, on, tenant.id)).body).toEqual({ success: true });
    expect(await enabledIn(organiser, tenant)).toMatchObject({ [on]: false });
  });

  it('refuses to enable an inactive charity; an enabled one that becomes inactive leaves the list and returns when active again', async () => {
    const inactive = await givenCharity({ status: 'inactive' });
    const res = await assign(organiser, inactive, tenant.id);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(M.charityInactive);

    const id = await givenCharity();
    await assign(organiser, id, tenant.id);
    await admin.put(`/api/platform/charities/${id}`, { charityRequest: fields({ status: 'inactive' }) });
    expect(await enabledIn(organiser, tenant)).not.toHaveProperty(id);
    await admin.put(`/api/platform/charities/${id}`, { charityRequest: fields({ status: 'active' }) });
    expect(await enabledIn(organiser, tenant)).toMatchObject({ [id]: true });
  });

  it("answers 404 for another tenant's id: a tenant admin touches only its own tenant", async () => {
    const id = await givenCharity();
    // The other tenant's admin, on their own host and on the platform host, naming this tenant.
    expect((await assign(otherOrganiser, id, tenant.id)).status).toBe(404);
    expect((await assign(actors.other_tenant_admin.platform, id, tenant.id)).status).toBe(404);
    expect((await unassign(otherOrganiser, id, tenant.id)).status).toBe(404);
    expect((await tenantList(otherOrganiser, tenant)).status).toBe(404);
    // This tenant's admin, on this tenant's host, naming the other tenant.
    expect((await assign(organiser, id, other.id)).status).toBe(404);
    expect((await tenantList(organiser, other)).status).toBe(404);
    expect(await enabledIn(otherOrganiser, other)).toMatchObject({ [id]: false });
    // Platform operators assign for any tenant, from the platform host.
    expect((await assign(admin, id, other.id)).status).toBe(200);
    expect(await enabledIn(otherOrganiser, other)).toMatchObject({ [id]: true });
  });
});

describe("the event's charity (spec §7, docs/decisions.md Charities)", () => {
  const patchCharity = (c: Client, t: GivenTenant, eventId: string, charityId: string | null) =>
    c.patch(`/api/tenants/${t.id}/events/${eventId}`, { details: { charityId } });
  const settingsOf = (t: GivenTenant, eventId: string) => server.client(t.url).get(`/api/p/tenants/${t.id}/events/${eventId}/setting`);
  const eventOf = async (t: GivenTenant, eventId: string) => (await admin.get(`/api/tenants/${t.id}/events/${eventId}`)).body.details.charityId;

  it('must be an active charity enabled for the tenant; the attendee site reads {id, name}', async () => {
    const name = `Lakeside Rescue ${randomUUID().slice(0, 6)}`;
    const id = await givenCharity({ name });
    const inactive = await givenCharity({ status: 'inactive' });
    const event = await givenEventOnSale(server, tenant.id);

    for (const charityId of [id, inactive, randomUUID(), 'not-a-uuid', 'x'.repeat(101)]) {
      const res = await patchCharity(organiser, tenant, event.id, charityId);
      expect(res.status, charityId).toBe(400);
      expect(res.body.error.message).toBe(M.eventCharityInvalid);
      expect(res.body.error.fields['details.charityId']).toBe(M.eventCharityInvalid);
    }
    const refusedCreate = await organiser.post(`/api/tenants/${tenant.id}/events`, { details: { name: 'Charity Night', charityId: id } });
    expect(refusedCreate.status).toBe(400);
    expect(refusedCreate.body.error.message).toBe(M.eventCharityInvalid);

    await assign(organiser, id, tenant.id);
    const picked = await patchCharity(organiser, tenant, event.id, id);
    expect(picked.status).toBe(200);
    expect(picked.body.details.charityId).toBe(id);
    const created = await organiser.post(`/api/tenants/${tenant.id}/events`, { details: { name: `Charity Night ${randomUUID().slice(0, 6)}`, charityId: id } });
    expect(created.status).toBe(201);
    expect(created.body.details.charityId).toBe(id);

    const settings = await settingsOf(tenant, event.id);
    expect(settings.status).toBe(200);
    expect(settings.body.charity).toEqual({ id, name });
    const urlName = (await admin.get(`/api/tenants/${tenant.id}/events/${event.id}`)).body.details.urlName;
    expect((await server.client(tenant.url).get(`/api/p/events/${urlName}`)).body.settings.charity).toEqual({ id, name });

    // Enabled by this tenant only: another tenant's event cannot take it.
    const otherEvent = await givenEventOnSale(server, other.id);
    expect((await patchCharity(otherOrganiser, other, otherEvent.id, id)).status).toBe(400);

    const cleared = await patchCharity(organiser, tenant, event.id, null);
    expect(cleared.body.details.charityId).toBeNull();
    expect((await settingsOf(tenant, event.id)).body.charity).toBeNull();
  });

  it("disabling it for the tenant takes it off that tenant's events only", async () => {
    const id = await givenCharity();
    await assign(organiser, id, tenant.id);
    await assign(otherOrganiser, id, other.id);
    const mine = await givenEventOnSale(server, tenant.id);
    const theirs = await givenEventOnSale(server, other.id);
    await patchCharity(organiser, tenant, mine.id, id);
    await patchCharity(otherOrganiser, other, theirs.id, id);

    expect((await unassign(organiser, id, tenant.id)).status).toBe(200);
    expect(await eventOf(tenant, mine.id)).toBeNull();
    expect((await settingsOf(tenant, mine.id)).body.charity).toBeNull();
    expect(await eventOf(other, theirs.id)).toBe(id);
    expect((await patchCharity(organiser, tenant, mine.id, id)).status).toBe(400);
  });

  it('making it inactive takes it off every event; deleting it too, and placed orders keep their donations', async () => {
    const id = await givenCharity();
    await assign(admin, id, tenant.id);
    await assign(admin, id, other.id);
    const a = await givenEventOnSale(server, tenant.id);
    const b = await givenEventOnSale(server, other.id);
    await patchCharity(organiser, tenant, a.id, id);
    await patchCharity(otherOrganiser, other, b.id, id);
    await admin.put(`/api/platform/charities/${id}`, { charityRequest: fields({ status: 'inactive' }) });
    expect(await eventOf(tenant, a.id)).toBeNull();
    expect(await eventOf(other, b.id)).toBeNull();
    expect((await patchCharity(organiser, tenant, a.id, id)).status).toBe(400);

    await admin.put(`/api/platform/charities/${id}`, { charityRequest: fields({ status: 'active' }) });
    await patchCharity(organiser, tenant, a.id, id);
    const order = await givenHeldOrder(server, tenant.id, { eventId: a.id, status: 'completed' });
    const db = server.app.deps.db;
    await db.update(orders).set({ donation: 500 }).where(and(eq(orders.tenantId, tenant.id), eq(orders.id, order.orderId)));

    expect((await admin.delete(`/api/platform/charities/${id}`)).status).toBe(200);
    expect(await eventOf(tenant, a.id)).toBeNull();
    expect(await enabledIn(organiser, tenant)).not.toHaveProperty(id);
    const [kept] = await db.select().from(orders).where(eq(orders.id, order.orderId));
    expect(kept).toMatchObject({ donation: 500, status: 'completed' });
  });
});

describe('charity routes: who may call them', () => {
  const refused = { platform_report: 403, platform_user: 403, tenant_admin: 403, tenant_staff: 403, other_tenant_admin: 403, attendee: 403, anonymous: 401 };

  it('platform reads', async () => {
    const id = await givenCharity();
    const expected = { super_user: 200, platform_manager: 200, platform_report: 403, platform_user: 200, tenant_admin: 403, tenant_staff: 403, other_tenant_admin: 403, attendee: 403, anonymous: 401 };
    expect(await statusesOf(actors, 'platform', (c) => c.get('/api/platform/charities'))).toEqual(expected);
    expect(await statusesOf(actors, 'platform', (c) => c.get(`/api/platform/charities/${id}`))).toEqual(expected);
    // Platform routes do not exist on a tenant's host.
    expect((await organiser.get('/api/platform/charities')).status).toBe(404);
  });

  it('platform writes', async () => {
    expect(await statusesOf(actors, 'platform', (c) => c.post('/api/platform/charities', { charityRequest: fields() }))).toEqual({
      super_user: 201,
      platform_manager: 201,
      ...refused,
    });
    const id = await givenCharity();
    expect(await statusesOf(actors, 'platform', (c) => c.put(`/api/platform/charities/${id}`, { charityRequest: fields() }))).toEqual({
      super_user: 200,
      platform_manager: 200,
      ...refused,
    });
    const others = ['platform_report', 'platform_user', 'tenant_admin', 'tenant_staff', 'other_tenant_admin', 'attendee', 'anonymous'] as const;
    expect(await statusesOf(actors, 'platform', (c) => c.delete(`/api/platform/charities/${id}`), others)).toEqual(refused);
    expect((await actors.platform_manager.platform.delete(`/api/platform/charities/${id}`)).status).toBe(200);
  });

  it('assign and unassign: platform writers for any tenant, the tenant admin for its own', async () => {
    const id = await givenCharity();
    const expected = { super_user: 200, platform_manager: 200, platform_report: 404, platform_user: 404, tenant_admin: 200, tenant_staff: 403, other_tenant_admin: 404, attendee: 404, anonymous: 401 };
    expect(await statusesOf(actors, 'tenant', (c) => assign(c, id, tenant.id))).toEqual(expected);
    expect(await statusesOf(actors, 'tenant', (c) => unassign(c, id, tenant.id))).toEqual(expected);
  });

  it("the tenant's list: its people and the platform's readers", async () => {
    const expected = { super_user: 200, platform_manager: 200, platform_report: 404, platform_user: 200, tenant_admin: 200, tenant_staff: 200, other_tenant_admin: 404, attendee: 404, anonymous: 401 };
    expect(await statusesOf(actors, 'tenant', (c) => tenantList(c, tenant))).toEqual(expected);
  });
});
