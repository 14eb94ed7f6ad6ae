import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applePassRegistrations, jobs } from '../../db/schema/index.js';
import { givenTenant, givenTenantAdmin, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { type WalletTestCredentials } from '../../../test/fixtures/wallet-certs.js';
import { givenCompletedOrder, givenWalletServers, unzip } from '../../../test/fixtures/wallet-orders.js';
import { APPLE_PASS_UPDATE_JOB } from '../../platform/domain-events.js';
import { applePassAuthToken } from './apple-pass-auth.js';

// Issue 28: Apple's pass web service. A pass carries the web service's address and its own token;
// a device registers for it, a change of the ticket (a void) or of the event (a moved date) queues
// the check that finds the pass changed, the device's "updated since" list names it, and the pass
// it fetches again shows the change (void, the new date). Wrong tokens 401, another pass type,
// another tenant's host 404; bad input 400.

let creds: WalletTestCredentials;
let server: TestServer;
let plain: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let admin: Client;
beforeAll(async () => {
  ({ creds, server, plain, tenant, other } = await givenWalletServers());
  admin = await givenTenantAdmin(server, tenant);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await plain?.close();
});

/** The pass.json of a .pkpass. */
async function passJsonOf(buf: Buffer): Promise<Record<string, any>> {
  const json = (await unzip(buf)).get('pass.json');
  if (!json) throw new Error('no pass.json');
  return JSON.parse(json.toString('utf8'));
}

const fieldsOf = (pass: Record<string, any>) =>
  Object.fromEntries(['headerFields', 'primaryFields', 'secondaryFields', 'auxiliaryFields', 'backFields'].flatMap((k) => (pass.eventTicket[k] ?? []).map((f: { key: string; value: string }) => [f.key, f.value])));

const WS = '/api/wallet/apple/v1';

describe('Apple Wallet pass updates (the pass web service)', () => {
  it('a device registers, a void and a moved date show on the pass it fetches again; the device unregisters', async () => {
    const order = await givenCompletedOrder(server, tenant);
    const [first, second] = order.page.tickets;
    const site = server.client(tenant.url);
    // The pass names the web service on the tenant's host, with its own token.
    const added = await passJsonOf((await site.get(first!.wallet.apple!)).raw);
    const token = applePassAuthToken(server.config.secret, tenant.id, first!.ticketUID);
    expect(added.webServiceURL).toMatch(new RegExp(`^https?://${tenant.url}\\.[^/]+/api/wallet/apple$`));
    expect(added.authenticationToken).toBe(token);
    expect(added.voided).toBeUndefined();
    const auth = { authorization: `ApplePass ${token}` };
    const device = 'device-1a2b3c';
    const reg = `${WS}/devices/${device}/registrations/${creds.passTypeId}/${first!.ticketUID}`;

    // Nothing registered yet: 204.
    expect((await site.get(`${WS}/devices/${device}/registrations/${creds.passTypeId}`)).status).toBe(204);
    // A wrong token, none, or another pass's: 401, nothing written.
    for (const h of [{} as Record<string, string>, { authorization: 'ApplePass wrongwrongwrongwrong' }, { authorization: `ApplePass ${applePassAuthToken(server.config.secret, tenant.id, second!.ticketUID)}` }]) {
      const res = await site.request('POST', reg, { pushToken: 'push-a' }, h);
      expect(res.status, JSON.stringify(h)).toBe(401);
    }
    expect(await server.app.deps.db.select().from(applePassRegistrations).where(eq(applePassRegistrations.tenantId, tenant.id))).toHaveLength(0);
    // Bad input: 400.
    expect((await site.request('POST', reg, { pushToken: '' }, auth)).status).toBe(400);
    expect((await site.request('POST', reg, {}, auth)).status).toBe(400);
    expect((await site.request('POST', `${WS}/devices/${device}/registrations/${creds.passTypeId}/bad%20serial`, { pushToken: 'p' }, auth)).status).toBe(400);
    // Another pass type: 404.
    expect((await site.request('POST', `${WS}/devices/${device}/registrations/pass.other.type/${first!.ticketUID}`, { pushToken: 'p' }, auth)).status).toBe(404);

    expect((await site.request('POST', reg, { pushToken: 'push-a' }, auth)).status).toBe(201);
    expect((await site.request('POST', reg, { pushToken: 'push-b' }, auth)).status).toBe(200);
    const all = await site.get(`${WS}/devices/${device}/registrations/${creds.passTypeId}`);
    expect(all.status).toBe(200);
    expect(all.body.serialNumbers).toEqual([first!.ticketUID]);
    const tag = all.body.lastUpdated as string;
    expect(tag).toMatch(/^\d+$/);
    // Nothing changed since: 204.
    expect((await site.get(`${WS}/devices/${device}/registrations/${creds.passTypeId}?passesUpdatedSince=${tag}`)).status).toBe(204);
    const latest = await site.get(`${WS}/passes/${creds.passTypeId}/${first!.ticketUID}`, auth);
    expect(latest.status).toBe(200);
    expect(latest.headers['content-type']).toBe('application/vnd.apple.pkpass');
    const lastModified = String(latest.headers['last-modified']);
    expect((await site.get(`${WS}/passes/${creds.passTypeId}/${first!.ticketUID}`, { ...auth, 'if-modified-since': lastModified })).status).toBe(304);
    expect((await site.get(`${WS}/passes/${creds.passTypeId}/${first!.ticketUID}`, { authorization: 'ApplePass nopenopenopenopenope' })).status).toBe(401);

    // The organiser voids the ticket: the check is queued (the domain event), and runs.
    await new Promise((r) => setTimeout(r, 1100)); // Last-Modified has whole seconds
    const voided = await admin.post(`/api/tenants/${tenant.id}/events/${order.eventId}/tickets/void`, { ticketId: first!.ticketId, orderUID: order.orderUid, void: true, reason: 'Duplicate' });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    const queued = await server.app.deps.db.select().from(jobs).where(eq(jobs.name, APPLE_PASS_UPDATE_JOB));
    expect(queued.map((j) => j.payload)).toContainEqual({ tenantId: tenant.id, eventId: order.eventId });
    await server.app.deps.jobs.drain();
    const changed = await site.get(`${WS}/devices/${device}/registrations/${creds.passTypeId}?passesUpdatedSince=${tag}`);
    expect(changed.status).toBe(200);
    expect(changed.body.serialNumbers).toEqual([first!.ticketUID]);
    expect(Number(changed.body.lastUpdated)).toBeGreaterThan(Number(tag));
    const again = await site.get(`${WS}/passes/${creds.passTypeId}/${first!.ticketUID}`, { ...auth, 'if-modified-since': lastModified });
    expect(again.status).toBe(200);
    const voidPass = await passJsonOf(again.raw);
    expect(voidPass.voided).toBe(true);
    expect(fieldsOf(voidPass).status).toBe('Voided');

    // Unvoided, then the event moves to another day: the pass shows the new date.
    await admin.post(`/api/tenants/${tenant.id}/events/${order.eventId}/tickets/void`, { ticketId: first!.ticketId, orderUID: order.orderUid, void: false, reason: 'Oops' });
    await server.app.deps.jobs.drain();
    const tag2 = (await site.get(`${WS}/devices/${device}/registrations/${creds.passTypeId}?passesUpdatedSince=${tag}`)).body.lastUpdated as string;
    const before = fieldsOf(await passJsonOf((await site.get(`${WS}/passes/${creds.passTypeId}/${first!.ticketUID}`, auth)).raw));
    expect(before.status).toBeUndefined();
    const moved = await admin.request('PATCH', `/api/tenants/${tenant.id}/events/${order.eventId}`, { details: { startDateTime: '2030-06-07T00:30:00.000Z', endDateTime: '2030-06-07T03:00:00.000Z' } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await server.app.deps.jobs.drain();
    const movedList = await site.get(`${WS}/devices/${device}/registrations/${creds.passTypeId}?passesUpdatedSince=${tag2}`);
    expect(movedList.body.serialNumbers).toEqual([first!.ticketUID]);
    const after = fieldsOf(await passJsonOf((await site.get(`${WS}/passes/${creds.passTypeId}/${first!.ticketUID}`, auth)).raw));
    expect(after.when).not.toBe(before.when);
    expect(after.when).toMatch(/June 6, 2030/);

    // Wallet's log, and the device deleting the pass.
    expect((await site.post(`${WS}/log`, { logs: ['Web service error for pass.x: 500'] })).status).toBe(200);
    expect((await site.post(`${WS}/log`, { logs: 'nope' })).status).toBe(400);
    expect((await site.request('DELETE', reg, undefined, { authorization: 'ApplePass wrongwrongwrongwrong' })).status).toBe(401);
    expect((await site.request('DELETE', reg, undefined, auth)).status).toBe(200);
    expect((await site.get(`${WS}/devices/${device}/registrations/${creds.passTypeId}`)).status).toBe(204);
  });

  it('another tenant’s host: the pass is not found there (401: its token is not that tenant’s); a server without Apple Wallet: 404', async () => {
    const order = await givenCompletedOrder(server, tenant);
    const uid = order.page.tickets[0]!.ticketUID;
    const auth = { authorization: `ApplePass ${applePassAuthToken(server.config.secret, tenant.id, uid)}` };
    const theirs = server.client(other.url);
    expect((await theirs.request('POST', `${WS}/devices/d1/registrations/${creds.passTypeId}/${uid}`, { pushToken: 'p' }, auth)).status).toBe(401);
    expect((await theirs.get(`${WS}/passes/${creds.passTypeId}/${uid}`, auth)).status).toBe(401);
    // Even with a token made for the other tenant, its host has no such ticket.
    const forOther = { authorization: `ApplePass ${applePassAuthToken(server.config.secret, other.id, uid)}` };
    expect((await theirs.get(`${WS}/passes/${creds.passTypeId}/${uid}`, forOther)).status).toBe(401);
    expect(await server.app.deps.db.select().from(applePassRegistrations).where(and(eq(applePassRegistrations.tenantId, other.id)))).toHaveLength(0);
    const plainTenant = await givenTenant(plain);
    expect((await plain.client(plainTenant.url).get(`${WS}/devices/d1/registrations/${creds.passTypeId}`)).status).toBe(404);
  });
});
