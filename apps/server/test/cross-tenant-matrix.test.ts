import { randomUUID } from 'node:crypto';
import { API_KEY_SCOPES } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainEvents, eventQuestions, memberships, payouts, refunds, tickets, waitlistEntries, webhookDeliveries } from '../src/db/schema/index.js';
import { fulfilOrder, mintOrderLink } from '../src/modules/fulfilment/service.js';
import { givenWalletCredentials } from './fixtures/wallet-certs.js';
import { loadConfig } from '../src/config.js';
import { signedIn } from './actors.js';
import {
  givenEventOnSale,
  givenHeldOrder,
  givenTenantWithSettings,
  givenUser,
  startServer,
  Client,
  type GivenTenant,
  type TestServer,
} from './harness.js';
import { exampleOf, loadOperations, pathParamsOf, rowCounts, urlOf, type Operation } from './openapi.js';

// issue 14, "Suites that keep this true": the cross-tenant matrix. Every tenant-scoped operation in
// the OpenAPI document (read at run time: a new route is in it without anyone adding it), called by
// every kind of caller that is not the victim tenant's (another tenant's admin, staff and event
// manager, a platform operator on a tenant host, an attendee, an anonymous browser) from each host
// (the caller's own tenant's, the victim's, the platform's) with the victim's ids: 401, 403 or 404
// only, no foreign data in any body, and nothing of the victim's changed.

/** Path (and query) parameters naming a tenant's resource, and where the victim's value comes from. */
const TENANT_SCOPED_PARAMS = ['tenantId', 'eventId', 'orderUID', 'ticketTypeId', 'discountCodeId', 'staffId', 'ruleId', 'exportId', 'userId', 'eventName', 'groupId', 'payoutId', 'scanId', 'messageId', 'endpointId', 'deliveryId', 'entryId', 'drawerId', 'questionId', 'keyId', 'refundId', 'layoutId', 'holdId', 'ticketId', 'seriesId', 'seriesTicketTypeId', 'serialNumber'] as const;
type ScopedParam = (typeof TENANT_SCOPED_PARAMS)[number];
/**
 * Parameters naming something global (platform policies, charities, global rules) on platform-only
 * routes; `id` under /api/platform/users names a user, so it is the victim admin's there.
 */
const GLOBAL_PARAMS = new Set(['id', 'charityId', 'templateId', 'version', 'uploadId', 'passTypeId', 'deviceLibraryId']);
/** Query parameters that are not ids (list queries, signed-link parts, codes). */
const PLAIN_QUERY_PARAMS = new Set(['cursor', 'limit', 'sort', 'filters', 'from', 'to', 'exp', 'sig', 'token', 'code', 'username', 'q', 'preview', 'passesUpdatedSince']);

type Ids = Record<ScopedParam, string> & { id: string; charityId: string; token: string; passTypeId: string; deviceLibraryId: string };
type Victim = { tenant: GivenTenant; ids: Ids; secrets: string[] };

let server: TestServer;
let ops: Operation[];
let victim: Victim;
let attacker: Victim;
let callers: Array<{ name: string; host: 'own' | 'victim' | 'platform'; client: Client }>;

async function givenTenantWithData(label: string): Promise<Victim> {
  const tenant = await givenTenantWithSettings(server, { name: `${label} Presents` });
  const event = await givenEventOnSale(server, tenant.id, { name: `${label} Gala`, discounts: [{ code: `${label.toUpperCase()}10`, kind: 'percent', value: 10 }] });
  const order = await givenHeldOrder(server, tenant.id, { eventId: event.id, email: `${label.toLowerCase()}-buyer@example.test`, status: 'completed' });
  const admin = await givenUser(server, { email: `${label.toLowerCase()}-admin@example.test`, tenant: { id: tenant.id, roles: ['tenant_admin'] } });
  const staff = await givenUser(server, { email: `${label.toLowerCase()}-staff@example.test`, tenant: { id: tenant.id, roles: ['tenant_staff'] } });
  const c = await signedIn(server, admin, tenant.url);
  const staffList = await c.get(`/api/tenants/${tenant.id}/staff`);
  const rules = await c.get(`/api/tenants/${tenant.id}/rules`);
  const exp = await c.get(`/api/tenants/${tenant.id}/reports/order-list/download`);
  const staffId = staffList.body?.result?.[0]?.id ?? (await server.app.deps.db.select({ id: memberships.id }).from(memberships).where(eq(memberships.userId, staff.id)))[0]!.id;
  const ruleId: string | undefined = rules.body?.result?.[0]?.rule?.id;
  const exportId: string | undefined = exp.body?.exportId;
  // A completed payout of this tenant (as a transfer leaves it), so that the payout routes are tried with its id.
  const payoutId = randomUUID();
  await server.app.deps.db.insert(payouts).values({
    tenantId: tenant.id, id: payoutId, status: 'completed', amount: 1_000, grossAmount: 1_100, gatewayFee: 0, netAmount: 1_100,
    tenantTotal: 1_000, platformTotal: 100, chargeGatewayFeesToPlatform: false, destination: `acct_${label.toLowerCase()}`,
    transferId: `tr_matrix_${label.toLowerCase()}`, completedAt: new Date(),
  });
  // An admission at its door (issue 11), so that undo is tried with a real scan id of this tenant's.
  const doorOrder = await givenHeldOrder(server, tenant.id, { eventId: event.id, status: 'processing', lines: [{ name: 'Door', price: 1000, quantity: 1 }] });
  await fulfilOrder({ deps: server.app.deps, tenantId: tenant.id, orderId: doorOrder.orderId });
  const [doorTicket] = await server.app.deps.db.select().from(tickets).where(eq(tickets.orderId, doorOrder.orderId));
  const scan = await c.post(`/api/tenants/${tenant.id}/events/${event.id}/checkin/scans`, { clientScanId: randomUUID(), deviceId: 'door', ticketId: doorTicket!.ticketUid });
  const scanId: string | undefined = scan.body?.result === 'admitted' ? scan.body.scanId : undefined;
  // Issue 28: a private link to the door order, so that its tickets' wallet passes are tried with a real token and ticket id.
  const orderLink = await mintOrderLink(server.app.deps.db, { deps: server.app.deps, tenantId: tenant.id, tenantUrl: tenant.url, orderId: doorOrder.orderId });
  const token = orderLink.slice(orderLink.lastIndexOf('/') + 1);
  // A message to the event's attendees (issue 15), so that its routes are tried with a real id.
  const message = await c.post(`/api/tenants/${tenant.id}/events/${event.id}/messages`, { details: { subject: `${label} news`, body: '<p>Doors at 7.</p>', recipients: 'all' } });
  const messageId: string | undefined = message.body?.id;
  // A cash drawer of its admin (issue 23), so that the drawer routes are tried with a real id.
  const drawer = await c.post(`/api/tenants/${tenant.id}/cash-drawers`, { details: { openingFloat: 1_000 } });
  const drawerId: string | undefined = drawer.body?.id;
  // A refund owed at the box office (issue 23: a cash order of a cancelled event), so that settling it is tried with a real id.
  const refundId = randomUUID();
  await server.app.deps.db
    .insert(refunds)
    .values({ tenantId: tenant.id, id: refundId, orderId: order.orderId, eventId: event.id, amount: 100, tenantAmount: 100, kind: 'event_cancelled', status: 'pending', provider: 'box_office' });
  // Someone on the event's waiting list (issue 24), so that its routes are tried with a real entry id.
  const entryId = randomUUID();
  await server.app.deps.db
    .insert(waitlistEntries)
    .values({ tenantId: tenant.id, id: entryId, eventId: event.id, ticketTypeId: event.ticketTypeIds[0]!, email: `${label.toLowerCase()}-fan@example.test`, quantity: 1 });
  // A webhook endpoint (issue 25) with one delivery in its log, so its routes are tried with real ids.
  const hook = await c.post(`/api/tenants/${tenant.id}/webhooks/endpoints`, { url: `https://${label.toLowerCase()}.example.com/hooks`, description: `${label} CRM`, eventTypes: ['order.paid'] });
  const endpointId: string | undefined = hook.body?.endpoint?.id;
  const deliveryId = randomUUID();
  if (endpointId) {
    const eventRowId = randomUUID();
    await server.app.deps.db.insert(domainEvents).values({ id: eventRowId, tenantId: tenant.id, type: 'order.paid', data: { order: { uid: order.orderUid } } });
    await server.app.deps.db.insert(webhookDeliveries).values({ id: deliveryId, tenantId: tenant.id, endpointId, eventId: eventRowId, eventType: 'order.paid', status: 'failed', attempts: 8 });
  }
  // Issue 24: a question of the event, answered on the order, so that the questions' routes are tried with real ids.
  const questionId = randomUUID();
  await server.app.deps.db.insert(eventQuestions).values({ tenantId: tenant.id, id: questionId, eventId: event.id, label: `${label} diet`, kind: 'shortText', scope: 'order' });
  // An API key of this tenant's (issue 25), so that its routes are tried with a real id.
  const apiKey = await c.post(`/api/tenants/${tenant.id}/api-keys`, { details: { name: `${label} app`, scopes: ['read'] } });
  const keyId: string | undefined = apiKey.body?.id;
  // Issue 27: a venue layout the event's seats are copied from, and a buyer's seat hold, so the seating routes are tried with real ids.
  const layout = await c.post(`/api/tenants/${tenant.id}/venue-layouts`, { name: `${label} hall`, sections: [{ name: 'Hall', category: 'Hall', rows: 2, seatsPerRow: 4 }] });
  const layoutId: string | undefined = layout.body?.id;
  await c.put(`/api/tenants/${tenant.id}/events/${event.id}/seating`, { layoutId, categories: [{ category: 'Hall', ticketTypeId: event.ticketTypeIds[0] }] });
  const seatHold = await server.client(tenant.url).post(`/api/p/tenants/${tenant.id}/events/${event.id}/seat-holds`, { seats: [0] });
  const holdId: string | undefined = seatHold.body?.holdId;
  // Issue 28: an event series with two dates, so that the series' routes are tried with a real id.
  const series = await c.post(`/api/tenants/${tenant.id}/series`, {
    details: { name: `${label} walk`, timeZone: 'UTC', ticketTypes: [{ name: 'Walk', price: 1000, quantity: 5 }], schedule: { dates: ['2031-05-01', '2031-05-02'], startTime: '10:00', endTime: '11:00' }, publish: true },
  });
  const seriesId: string | undefined = series.body?.id;
  const seriesTicketTypeId: string | undefined = series.body?.details?.ticketTypes?.[0]?.id;
  if (!ruleId || !exportId || !scanId || !messageId || !endpointId || !drawerId || !keyId || !layoutId || !holdId || !seriesId || !seriesTicketTypeId)
    throw new Error(`fixture for ${label}: rules ${JSON.stringify(rules.body).slice(0, 300)}, export ${JSON.stringify(exp.body).slice(0, 300)}, scan ${JSON.stringify(scan.body).slice(0, 300)}`);
  const ids: Ids = {
    tenantId: tenant.id,
    groupId: tenant.id,
    eventId: event.id,
    orderUID: order.orderUid,
    ticketTypeId: event.ticketTypeIds[0]!,
    discountCodeId: event.discountCodeIds[0]!,
    staffId,
    ruleId,
    exportId,
    userId: admin.id,
    id: admin.id,
    charityId: '00000000-0000-4000-8000-00000000c0de',
    eventName: event.urlName,
    payoutId,
    scanId,
    messageId,
    keyId,
    endpointId: endpointId!,
    deliveryId,
    entryId,
    drawerId,
    questionId,
    refundId,
    layoutId,
    holdId,
    ticketId: doorTicket!.id,
    // Issue 28: Apple's pass web service names a pass by the ticket's uid (with the operator's pass type).
    serialNumber: doorTicket!.ticketUid,
    passTypeId: server.config.wallet.apple!.passTypeId,
    deviceLibraryId: `device-${label.toLowerCase()}`,
    token,
    seriesId,
    seriesTicketTypeId,
  };
  const secrets = [...new Set([...Object.values(ids), tenant.name, event.name, `${label} walk`, order.email, admin.email, staff.email, `${label.toLowerCase()}-fan@example.test`, `hello@${tenant.url}.test`])];
  return { tenant, ids, secrets };
}

beforeAll(async () => {
  // Issue 28: with both wallets set up, so that their routes answer past "not configured".
  const wallet = givenWalletCredentials();
  server = await startServer({ wallet: loadConfig(wallet.env, { dataDir: wallet.dir, secret: 'x'.repeat(40) }).wallet });
  ops = await loadOperations(server);
  victim = await givenTenantWithData('Victim');
  attacker = await givenTenantWithData('Raider');
  const otherEvent = attacker.ids.eventId;
  const raiders = {
    tenant_admin: await givenUser(server, { tenant: { id: attacker.tenant.id, roles: ['tenant_admin'] } }),
    tenant_staff: await givenUser(server, { tenant: { id: attacker.tenant.id, roles: ['tenant_staff'] } }),
    event_manager: await givenUser(server, { event: { tenantId: attacker.tenant.id, eventId: otherEvent, roles: ['event_manager'] } }),
    attendee: await givenUser(server),
    super_user: await givenUser(server, { platformRoles: ['super_user'] }),
  };
  callers = [];
  for (const [name, user] of Object.entries(raiders)) {
    const hosts: Array<['own' | 'victim' | 'platform', string | undefined]> = [['victim', victim.tenant.url], ['own', attacker.tenant.url]];
    // A platform operator on the platform host may see every tenant by design (the role matrix tests
    // those rules); here they are callers only on tenant hosts.
    if (name !== 'super_user') hosts.push(['platform', undefined]);
    for (const [host, url] of hosts) callers.push({ name, host, client: await signedIn(server, user, url) });
  }
  for (const [host, url] of [['victim', victim.tenant.url], ['own', attacker.tenant.url], ['platform', undefined]] as const) callers.push({ name: 'anonymous', host, client: server.client(url) });
  // Issue 25: the attacker tenant's API key with every scope, from every host.
  const raiderAdmin = await signedIn(server, raiders.tenant_admin, attacker.tenant.url);
  const key = await raiderAdmin.post(`/api/tenants/${attacker.tenant.id}/api-keys`, { details: { name: 'Raider app', scopes: [...API_KEY_SCOPES] } });
  if (key.status !== 201) throw new Error(`raider key: ${JSON.stringify(key.body)}`);
  for (const [host, url] of [['victim', victim.tenant.url], ['own', attacker.tenant.url], ['platform', undefined]] as const) {
    callers.push({ name: 'api_key', host, client: new KeyClient(server.port, server.client(url).host, key.body.secret) });
  }
}, 180_000);
afterAll(async () => {
  await server?.close();
});

/** A client that sends an API key on every request (issue 25). */
class KeyClient extends Client {
  constructor(port: number, host: string, readonly key: string) {
    super(port, host);
  }
  override request<T = any>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
    return super.request<T>(method, url, body, { authorization: `Bearer ${this.key}`, ...headers });
  }
}

type Classified = { op: Operation; scoped: string[] } | { op: Operation; unclassified: string[] } | { op: Operation; global: true };

function classify(op: Operation): Classified {
  const names = [...pathParamsOf(op), ...op.params.filter((p) => p.in === 'query').map((p) => p.name)];
  const bodyTenant = !!op.body?.schema.properties?.tenantId;
  const scoped = names.filter((n) => (TENANT_SCOPED_PARAMS as readonly string[]).includes(n) || (n === 'id' && op.path.startsWith('/api/platform/users/')));
  const unknown = names.filter((n) => !scoped.includes(n) && !GLOBAL_PARAMS.has(n) && !PLAIN_QUERY_PARAMS.has(n));
  if (unknown.length) return { op, unclassified: unknown };
  if (bodyTenant) scoped.push('body.tenantId');
  if (scoped.length) return { op, scoped };
  return { op, global: true };
}

/** Uploads take multipart/form-data, which the document does not describe as a body schema. */
const isUpload = (op: Operation) => op.method === 'POST' && /\/(logo|seatmap|cover|picture)$/.test(op.path);
const PNG_UPLOAD = (() => {
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  const boundary = '----marqueematrix';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
})();

/** The attendee site's routes: a tenant's own public data is public on its own host. */
const isSite = (op: Operation) => op.path.startsWith('/api/p/') || op.path.startsWith('/api/site/');

describe('cross-tenant matrix (issue 14)', () => {
  it('classifies every operation in the OpenAPI document', () => {
    const unclassified = ops.map(classify).filter((c): c is Extract<Classified, { unclassified: string[] }> => 'unclassified' in c);
    expect(unclassified.map((c) => `${c.op.method} ${c.op.path}: ${c.unclassified.join(', ')}`)).toEqual([]);
    expect(ops.map(classify).filter((c) => 'scoped' in c).length).toBeGreaterThan(60);
  });

  it("answers 401, 403 or 404 to every caller but the tenant's own, with no foreign data, and changes nothing", async () => {
    const before = await rowCounts(server);
    const problems: string[] = [];
    let calls = 0;
    for (const c of ops.map(classify)) {
      if (!('scoped' in c)) continue;
      const { op } = c;
      // The victim's ids throughout; and the caller's own tenant with the victim's other ids.
      const variants: Array<Record<string, string>> = [{ ...victim.ids }];
      if (pathParamsOf(op).includes('tenantId') && pathParamsOf(op).length > 1) variants.push({ ...victim.ids, tenantId: attacker.ids.tenantId });
      for (const values of variants) {
        const query = op.params.filter((p) => p.in === 'query').map((p): [string, string] => [p.name, values[p.name] ?? String(exampleOf(p.schema, p.name))]);
        const url = urlOf(op, values, query);
        // A body the route accepts, so that only the access rule (or the resource's absence) can refuse it.
        const body = op.body ? Buffer.from(JSON.stringify(exampleOf(op.body.schema, '', values, { requiredOnly: true }))) : isUpload(op) ? PNG_UPLOAD.body : undefined;
        const headers = op.body ? { 'content-type': op.body.contentType } : isUpload(op) ? PNG_UPLOAD.headers : {};
        for (const caller of callers) {
          // On the victim's own host its attendee site is public by design.
          if (isSite(op) && caller.host === 'victim' && values.tenantId === victim.ids.tenantId) continue;
          const res = await caller.client.request(op.method, url, body, headers);
          calls++;
          const text = res.raw.toString('utf8');
          const leaked = victim.secrets.filter((s) => text.includes(s));
          if (![401, 403, 404].includes(res.status) || leaked.length)
            problems.push(`${op.method} ${url} as ${caller.name}@${caller.host}: ${res.status}${leaked.length ? ` leaks ${leaked.join(', ')}` : ''} ${text.slice(0, 160)}`);
        }
      }
    }
    console.log(`cross-tenant matrix: ${calls} calls`);
    expect(problems).toEqual([]);
    expect(await rowCounts(server)).toEqual(before);
  }, 900_000); // every tenant route of the app, one by one: minutes on a loaded machine
});
