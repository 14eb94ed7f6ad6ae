import { randomUUID } from 'node:crypto';
import { COMPLIMENTARY_NEW_TENANT, encodeFilters, M, tenantUrlFromName } from '@marquee/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  globalSurchargeRules,
  globalTicketSettings,
  jobs,
  orders,
  paymentSettings,
  sessions,
  surchargeRules,
  tenantSites,
  tenants,
  ticketSettings,
} from '../../db/schema/index.js';
import {
  givenEvent,
  givenPlatformAdmin,
  givenTenant,
  givenTenantWithSettings,
  notFoundError,
  startServer,
  validationError,
  type Client,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { ensureGlobalFeeDefaults } from '../fees/service.js';
import { givenActors, statusesOf, type Actors } from '../../../test/actors.js';

let server: TestServer;
let admin: Client;
let tenant: GivenTenant;
let other: GivenTenant;
let actors: Actors;

beforeAll(async () => {
  server = await startServer();
  await ensureGlobalFeeDefaults(server.app.deps);
  const user = await givenPlatformAdmin(server);
  admin = server.client();
  await admin.login(user.email);
  tenant = await givenTenantWithSettings(server);
  other = await givenTenantWithSettings(server);
  actors = await givenActors(server, tenant, other);
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.deps.db;
const uniqueUrl = () => `blue-${randomUUID().slice(0, 8)}`;
const newTenant = (url: string, details: Record<string, unknown> = {}) => ({
  details: {
    name: 'Blue Sky Events',
    email: 'Hello@BlueSky.test',
    phone: '+1 (555) 123 4567',
    inviteTemplateSubject: 'Join Blue Sky Events',
    inviteTemplateBody: 'You have been invited to help run Blue Sky Events.',
    url,
    ...details,
  },
});
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);

describe('creating a tenant', () => {
  it('creates the tenant, its payment settings, rule copies and ticket settings in one go, then provisions its site', async () => {
    const url = uniqueUrl();
    const res = await admin.post('/api/tenants', newTenant(url));
    expect(res.status).toBe(201);
    const id: string = res.body.id;
    expect(res.body.details).toMatchObject({ id, name: 'Blue Sky Events', email: 'hello@bluesky.test', phone: '+15551234567', url, status: 'pending', logo: null });
    expect(res.body.details.siteUrl).toBe(`http://${url}.localhost:${server.port}`);

    // spec §9 new tenant payment defaults
    const payment = await admin.get(`/api/tenants/${id}/payment-settings`);
    expect(payment.status).toBe(200);
    expect(payment.body.payout).toMatchObject({ automatic: false, type: 'end_of_event' });
    expect(payment.body.payment).toMatchObject({ type: 'platform', processorType: 'stripe' });
    expect(payment.body.gateway).toMatchObject({ provider: 'stripe', test: true });

    // every global rule copied, the default tracked to the copy of the global default
    const globalRules = await db().select().from(globalSurchargeRules);
    const copies = await db().select().from(surchargeRules).where(eq(surchargeRules.tenantId, id));
    expect(copies.map((c) => c.copiedFrom).sort()).toEqual(globalRules.map((g) => g.id).sort());
    const [globalSettings] = await db().select().from(globalTicketSettings);
    const [settings] = await db().select().from(ticketSettings).where(eq(ticketSettings.tenantId, id));
    expect(settings!.isTenantSettingsControlEnabled).toBe(false);
    expect(settings!.maximumComplimentaryTickets).toBe(COMPLIMENTARY_NEW_TENANT);
    expect(settings!.donationServiceFeeBp).toBe(globalSettings!.donationServiceFeeBp);
    expect(copies.find((c) => c.id === settings!.defaultSurchargeRule)?.copiedFrom).toBe(globalSettings!.defaultSurchargeRule);

    // the site: in progress until the job ran, then create_complete and the tenant active
    expect((await admin.get(`/api/tenants/${id}/bucket-status`)).body).toEqual({ CFStatus: { status: 'CREATE_IN_PROGRESS' } });
    await server.app.deps.jobs.drain();
    expect((await admin.get(`/api/tenants/${id}/bucket-status`)).body).toEqual({ CFStatus: { status: 'create_complete' } });
    expect((await admin.get(`/api/tenants/${id}`)).body.details.status).toBe('active');
    // its host serves
    const site = await server.client(url).get('/api/site/context');
    expect(site.status).toBe(200);
    expect(site.body.tenant.id).toBe(id);
  });

  it('is one transaction: a failure while copying the settings leaves nothing behind', async () => {
    await db().delete(globalTicketSettings);
    try {
      const url = uniqueUrl();
      const before = await db().select({ n: tenants.id }).from(tenants);
      const res = await admin.post('/api/tenants', newTenant(url));
      expect(res.status).toBe(503);
      expect(res.body.error.message).toBe(M.tenantSettingsFailed);
      expect(await db().select().from(tenants).where(eq(tenants.url, url))).toEqual([]);
      const after = await db().select({ n: tenants.id }).from(tenants);
      expect(after.length).toBe(before.length);
      const known = after.map((t) => t.n);
      // no orphans of a half-made tenant anywhere
      for (const table of [paymentSettings, surchargeRules, ticketSettings, tenantSites]) {
        const rows = await db().select({ tenantId: table.tenantId }).from(table);
        expect(rows.filter((r) => !known.includes(r.tenantId))).toEqual([]);
      }
      const siteJobs = await db().select().from(jobs).where(eq(jobs.name, 'tenant.provision-site'));
      expect(siteJobs.filter((j) => !known.includes((j.payload as { tenantId: string }).tenantId))).toEqual([]);
    } finally {
      await ensureGlobalFeeDefaults(server.app.deps);
    }
    expect((await admin.post('/api/tenants', newTenant(uniqueUrl()))).status).toBe(201);
  });

  it('refuses a URL another tenant holds with a clear 409, deleted tenants included', async () => {
    const url = uniqueUrl();
    expect((await admin.post('/api/tenants', newTenant(url))).status).toBe(201);
    const again = await admin.post('/api/tenants', newTenant(url, { name: 'Another One' }));
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(M.tenantUrlTaken);

    const gone = await givenTenantWithSettings(server);
    expect((await admin.delete(`/api/tenants/${gone.id}`)).status).toBe(200);
    const reuse = await admin.post('/api/tenants', newTenant(gone.url));
    expect(reuse.status).toBe(409);
    expect(reuse.body.error.message).toBe(M.tenantUrlTaken);
  });

  it.each([
    [{ name: undefined }, 'details.name', M.tenantNameRequired],
    [{ name: '' }, 'details.name', M.tenantNameRequired],
    [{ name: 'Blue Sky ' }, 'details.name', M.tenantNameFormat],
    [{ name: 'Blue & Sky' }, 'details.name', M.tenantNameFormat],
    [{ email: undefined }, 'details.email', M.emailRequired],
    [{ email: '' }, 'details.email', M.emailRequired],
    [{ email: 'not-an-email' }, 'details.email', M.emailFormat],
    [{ phone: undefined }, 'details.phone', M.phoneRequired],
    [{ phone: '' }, 'details.phone', M.phoneRequired],
    [{ phone: '+1 (555) 123' }, 'details.phone', M.phoneCorrect],
    [{ url: undefined }, 'details.url', M.urlRequired],
    [{ url: '' }, 'details.url', M.urlRequired],
    [{ url: 'blue sky' }, 'details.url', M.urlNoSpaces],
    [{ url: 'Blue_Sky' }, 'details.url', M.tenantUrlFormat],
    [{ url: '-blue' }, 'details.url', M.tenantUrlFormat],
    // A DNS label is at most 63 characters: a longer URL of valid characters gets a length message.
    [{ url: 'a'.repeat(64) }, 'details.url', M.tenantUrlLength],
    [{ url: 'a'.repeat(70) }, 'details.url', M.tenantUrlLength],
    [{ url: 'www' }, 'details.url', M.tenantUrlReserved],
    [{ url: 'api' }, 'details.url', M.tenantUrlReserved],
    [{ inviteTemplateSubject: undefined }, 'details.inviteTemplateSubject', M.subjectRequired],
    [{ inviteTemplateSubject: '' }, 'details.inviteTemplateSubject', M.subjectRequired],
    [{ inviteTemplateSubject: 'Join us ' }, 'details.inviteTemplateSubject', M.noTrailingSpaces],
    [{ inviteTemplateBody: undefined }, 'details.inviteTemplateBody', M.messageRequired],
    [{ inviteTemplateBody: '' }, 'details.inviteTemplateBody', M.messageRequired],
    [{ inviteTemplateBody: 'Welcome.\n' }, 'details.inviteTemplateBody', M.noTrailingSpaces],
  ])('refuses %o with the spec message', async (patch, field, message) => {
    const url = uniqueUrl();
    const res = await admin.post('/api/tenants', newTenant(url, patch));
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
    expect(await db().select().from(tenants).where(eq(tenants.url, url))).toEqual([]);
  });

  it('derives the URL from the name the way the form does', () => {
    expect(tenantUrlFromName('Acme Events')).toBe('acme-events');
    expect(tenantUrlFromName("  Joe's  Big   Show! 2025 ")).toBe('joes-big-show-2025');
    expect(tenantUrlFromName('Rock-N-Roll')).toBe('rock-n-roll');
  });
});

describe('the tenants list', () => {
  it('searches names (contains), filters on status, url and email, sorts by date created and pages with a cursor', async () => {
    const tag = randomUUID().slice(0, 6);
    const made: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await admin.post('/api/tenants', newTenant(`list-${tag}-${n}`, { name: `Zeta ${tag} Show ${n}`, email: `z${n}-${tag}@example.test` }));
      made.push(res.body.id);
    }
    const search = await admin.get(`/api/tenants?filters=${encodeURIComponent(`details.name=${tag.toUpperCase()} show`)}`);
    expect(search.status).toBe(200);
    expect(search.body.count).toBe(3);
    expect(search.body.result.map((t: { id: string }) => t.id).sort()).toEqual([...made].sort());
    expect(Object.keys(search.body.result[0].details).sort()).toEqual(
      ['brandColor', 'dateCreated', 'email', 'id', 'inviteTemplateBody', 'inviteTemplateSubject', 'logo', 'name', 'phone', 'siteUrl', 'status', 'url'].sort(),
    );

    const byUrl = await admin.get(`/api/tenants?filters=details.url=list-${tag}-2`);
    expect(byUrl.body.result.map((t: { id: string }) => t.id)).toEqual([made[1]]);
    const byEmail = await admin.get(`/api/tenants?filters=details.email=z3-${tag}@example.test`);
    expect(byEmail.body.result.map((t: { id: string }) => t.id)).toEqual([made[2]]);

    const page1 = await admin.get(`/api/tenants?limit=2&sort=-details.dateCreated&filters=${encodeURIComponent(`details.name=${tag}`)}`);
    expect(page1.body.result.map((t: { id: string }) => t.id)).toEqual([made[2], made[1]]);
    expect(page1.body.count).toBe(3);
    const page2 = await admin.get(`/api/tenants?limit=2&sort=-details.dateCreated&cursor=${page1.body.cursor}&filters=${encodeURIComponent(`details.name=${tag}`)}`);
    expect(page2.body.result.map((t: { id: string }) => t.id)).toEqual([made[0]]);
    expect(page2.body.cursor).toBeNull();

    await server.app.deps.jobs.drain();
    const active = await admin.get(`/api/tenants?filters=details.status=active&filters=${encodeURIComponent(`details.name=${tag}`)}`);
    expect(active.body.count).toBe(3);
    const pending = await admin.get(`/api/tenants?filters=details.status=pending&filters=${encodeURIComponent(`details.name=${tag}`)}`);
    expect(pending.body.count).toBe(0);
  });

  it('searches for the literal text typed, separators included (a=b;c finds nothing, not a 400)', async () => {
    const tag = randomUUID().slice(0, 6);
    const made = await admin.post('/api/tenants', newTenant(`semi-${tag}`, { name: `Semi ${tag} Colon` }));
    for (const [value, expected] of [
      ['a=b;c', []],
      [`${tag};details.status=active`, []],
      [';', []],
      ['\\', []],
      [`semi ${tag}`, [made.body.id]],
    ] as const) {
      const q = new URLSearchParams();
      for (const f of encodeFilters([{ field: 'details.name', op: '=', value }])) q.append('filters', f);
      const res = await admin.get(`/api/tenants?${q}`);
      expect({ value, status: res.status, ids: res.body.result?.map((t: { id: string }) => t.id) }).toEqual({ value, status: 200, ids: expected });
    }
  });

  it('refuses filters and sorts it does not know', async () => {
    expect((await admin.get('/api/tenants?filters=details.secret=1')).status).toBe(400);
    expect((await admin.get('/api/tenants?sort=details.secret')).status).toBe(400);
  });
});

describe('tenant basic information', () => {
  it('a rename ends the sessions on the old host, and the old url stays reserved (issue 14 §7)', async () => {
    const t = await givenTenantWithSettings(server);
    const a = await givenActors(server, t, other);
    const oldCookie = new Map(a.tenant_admin.tenant.cookies);
    expect((await a.tenant_admin.tenant.get('/api/auth/session')).status).toBe(200);
    const oldHost = `${t.url}.${server.config.baseDomain}:${server.port}`;
    const onOldHost = () => db().select().from(sessions).where(eq(sessions.host, oldHost));
    expect((await onOldHost()).length).toBeGreaterThan(0);
    const newUrl = uniqueUrl();
    const moved = await admin.patch(`/api/tenants/${t.id}`, { details: { url: newUrl } });
    expect(moved.status).toBe(200);
    // The sessions bound to the old host are gone: they cannot come back on that host later.
    expect(await onOldHost()).toEqual([]);
    // No new tenant may take the old url (as with a deleted tenant's).
    const taken = await admin.post('/api/tenants', newTenant(t.url));
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe(M.tenantUrlTaken);
    const renamedOnto = await admin.patch(`/api/tenants/${other.id}`, { details: { url: t.url } });
    expect(renamedOnto.status).toBe(409);
    // The old cookie on a client for the old host finds nothing either.
    const stale = server.client(t.url);
    stale.cookies = oldCookie;
    expect((await stale.get('/api/auth/session')).status).toBe(404);
    // The tenant itself may move back to its own former url.
    expect((await admin.patch(`/api/tenants/${t.id}`, { details: { url: t.url } })).status).toBe(200);
    expect((await admin.post('/api/tenants', newTenant(newUrl))).status).toBe(409);
  });

  it('lets the tenant admin edit phone, invite subject and body on its own host', async () => {
    const t = await givenTenantWithSettings(server);
    const a = await givenActors(server, t, other);
    const res = await a.tenant_admin.tenant.patch(`/api/tenants/${t.id}`, {
      details: { phone: '+1 (555) 987 6543', inviteTemplateSubject: 'Come help', inviteTemplateBody: 'We need you.', url: t.url },
    });
    expect(res.status).toBe(200);
    expect(res.body.details).toMatchObject({ phone: '+15559876543', inviteTemplateSubject: 'Come help', inviteTemplateBody: 'We need you.', url: t.url });
    // the URL moves the host: platform only
    const move = await a.tenant_admin.tenant.patch(`/api/tenants/${t.id}`, { details: { url: `${t.url}-x` } });
    expect(move.status).toBe(403);
    expect(move.body.error.message).toBe(M.tenantUrlPlatformOnly);
  });

  it.each([
    [{ phone: '' }, 'details.phone', M.fieldRequired],
    [{ phone: '+1 (555) 98' }, 'details.phone', M.phoneIncomplete],
    [{ inviteTemplateSubject: '' }, 'details.inviteTemplateSubject', M.fieldRequired],
    [{ inviteTemplateSubject: ' Join' }, 'details.inviteTemplateSubject', M.noTrailingSpaces],
    [{ inviteTemplateBody: '' }, 'details.inviteTemplateBody', M.fieldRequired],
    [{ inviteTemplateBody: 'Hi ' }, 'details.inviteTemplateBody', M.noTrailingSpaces],
    [{ url: 'has space' }, 'details.url', M.urlNoSpaces],
    [{ url: 'a'.repeat(70) }, 'details.url', M.tenantUrlLength],
    [{ url: `${'a'.repeat(70)}_` }, 'details.url', M.tenantUrlLength],
    [{ url: 'under_score' }, 'details.url', M.tenantUrlFormat],
  ])('refuses %o with the spec message', async (details, field, message) => {
    const res = await admin.patch(`/api/tenants/${tenant.id}`, { details });
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
  });

  it('lets the platform change the URL, refusing one already taken', async () => {
    const t = await givenTenantWithSettings(server);
    const taken = await admin.patch(`/api/tenants/${t.id}`, { details: { url: other.url } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe(M.tenantUrlTaken);
    const moved = await admin.patch(`/api/tenants/${t.id}`, { details: { url: `${t.url}-new` } });
    expect(moved.status).toBe(200);
    expect((await server.client(`${t.url}-new`).get('/api/site/context')).body.tenant.id).toBe(t.id);
    expect((await server.client(t.url).get('/api/site/context')).status).toBe(404);
  });

  it('refuses to edit a disabled tenant', async () => {
    const t = await givenTenantWithSettings(server, { status: 'disabled' });
    const res = await admin.patch(`/api/tenants/${t.id}`, { details: { phone: '+1 (555) 000 1111' } });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(M.tenantDisabled);
    const logo = await admin.upload(`/api/tenants/${t.id}/logo`, 'file', 'logo.png', PNG, 'image/png');
    expect(logo.status).toBe(409);
  });

  it('uploads a logo judged by its bytes and size, and serves it through a signed URL', async () => {
    const t = await givenTenantWithSettings(server);
    const res = await admin.upload(`/api/tenants/${t.id}/logo`, 'file', 'logo.png', PNG, 'image/png');
    expect(res.status).toBe(200);
    const logoUrl: string = res.body.details.logo;
    expect(logoUrl).toMatch(/^\/api\/files\/tenants\//);
    const fetched = await server.client().get(logoUrl);
    expect(fetched.status).toBe(200);
    expect(fetched.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(fetched.raw, PNG)).toBe(0);

    const fake = await admin.upload(`/api/tenants/${t.id}/logo`, 'file', 'logo.png', Buffer.from('<svg onload="alert(1)"></svg>'), 'image/png');
    expect(fake.status).toBe(415);
    expect(fake.body.error.message).toBe(M.logoType);
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024, 1)]);
    const tooBig = await admin.upload(`/api/tenants/${t.id}/logo`, 'file', 'logo.png', big, 'image/png');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.message).toBe(M.logoSize);
    // The refused uploads left the stored logo as it was (the same file; its signed URL's expiry is
    // minted at each read, so only the path is compared).
    const fileOf = (url: string) => url.split('?')[0];
    expect(fileOf((await admin.get(`/api/tenants/${t.id}`)).body.details.logo)).toBe(fileOf(logoUrl));
  });
});

describe('deleting a tenant', () => {
  it('soft-deletes an active tenant: its ids and host stop answering, its orders stay', async () => {
    const t = await givenTenantWithSettings(server);
    const a = await givenActors(server, t, other);
    const event = await givenEvent(server, t.id);
    const orderId = randomUUID();
    await db().insert(orders).values({ tenantId: t.id, id: orderId, orderUid: `D${orderId.slice(0, 9)}`, eventId: event.id, status: 'completed', totalAmount: 1234 });

    const res = await admin.delete(`/api/tenants/${t.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });

    expect((await admin.get(`/api/tenants/${t.id}`)).status).toBe(404);
    expect((await admin.get(`/api/tenants?filters=details.url=${t.url}`)).body.count).toBe(0);
    expect((await server.client(t.url).get('/api/site/context')).status).toBe(404);
    expect((await a.tenant_admin.tenant.get(`/api/tenants/${t.id}`)).status).toBe(404);
    expect((await admin.delete(`/api/tenants/${t.id}`)).status).toBe(404);

    const [kept] = await db().select().from(orders).where(and(eq(orders.tenantId, t.id), eq(orders.id, orderId)));
    expect(kept?.totalAmount).toBe(1234);
    const [row] = await db().select().from(tenants).where(eq(tenants.id, t.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
  });

  // The console's set-up timer reads a 404 here as "the tenant is gone" and stops polling.
  it("answers 404 to a deleted tenant's site status and retry, whether its site was still being set up or ready", async () => {
    const early = await admin.post('/api/tenants', newTenant(uniqueUrl()));
    expect((await admin.get(`/api/tenants/${early.body.id}/bucket-status`)).body).toEqual({ CFStatus: { status: 'CREATE_IN_PROGRESS' } });
    expect((await admin.delete(`/api/tenants/${early.body.id}`)).status).toBe(200);
    const ready = await admin.post('/api/tenants', newTenant(uniqueUrl()));
    await server.app.deps.jobs.drain();
    expect((await admin.get(`/api/tenants/${ready.body.id}/bucket-status`)).body).toEqual({ CFStatus: { status: 'create_complete' } });
    expect((await admin.delete(`/api/tenants/${ready.body.id}`)).status).toBe(200);

    for (const id of [early.body.id, ready.body.id]) {
      const status = await admin.get(`/api/tenants/${id}/bucket-status`);
      expect(status.status).toBe(404);
      expect(status.body).toEqual(notFoundError);
      const retry = await admin.post(`/api/tenants/${id}/bucket`);
      expect(retry.status).toBe(404);
      expect(retry.body).toEqual(notFoundError);
    }
  });

  it('deletes a pending tenant but not a disabled one', async () => {
    const pending = await admin.post('/api/tenants', newTenant(uniqueUrl()));
    expect(pending.body.details.status).toBe('pending');
    expect((await admin.delete(`/api/tenants/${pending.body.id}`)).status).toBe(200);

    const disabled = await givenTenant(server, { status: 'disabled' });
    const res = await admin.delete(`/api/tenants/${disabled.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(M.tenantDeleteNotAllowed);
  });
});

describe('site provisioning', () => {
  it('is idempotent: running the job twice leaves one ready site', async () => {
    const res = await admin.post('/api/tenants', newTenant(uniqueUrl()));
    const { provisionTenantSite } = await import('./service.js');
    await provisionTenantSite(server.app.deps, res.body.id);
    await provisionTenantSite(server.app.deps, res.body.id);
    await server.app.deps.jobs.drain();
    expect((await admin.get(`/api/tenants/${res.body.id}/bucket-status`)).body.CFStatus.status).toBe('create_complete');
    expect(await db().select().from(tenantSites).where(eq(tenantSites.tenantId, res.body.id))).toHaveLength(1);
  });

  it('stays NOT_FOUND while the storage fails, and a retry recreates the site', async () => {
    const storage = server.app.deps.storage;
    const put = storage.put;
    storage.put = async () => {
      throw new Error('storage is down');
    };
    let id: string;
    try {
      const res = await admin.post('/api/tenants', newTenant(uniqueUrl()));
      id = res.body.id;
      await server.app.deps.jobs.drain();
      expect((await admin.get(`/api/tenants/${id}/bucket-status`)).body.CFStatus.status).toBe('NOT_FOUND');
      const [site] = await db().select().from(tenantSites).where(eq(tenantSites.tenantId, id));
      expect(site?.lastError).toBe('storage is down');
    } finally {
      storage.put = put;
    }
    const retry = await admin.post(`/api/tenants/${id}/bucket`);
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual({ CFStatus: { status: 'CREATE_IN_PROGRESS' } });
    expect((await admin.get(`/api/tenants/${id}/bucket-status`)).body.CFStatus.status).toBe('CREATE_IN_PROGRESS');
    await server.app.deps.jobs.drain();
    expect((await admin.get(`/api/tenants/${id}/bucket-status`)).body.CFStatus.status).toBe('create_complete');
    expect((await admin.get(`/api/tenants/${id}`)).body.details.status).toBe('active');
  });

  it('recreates the site of a tenant that never had one', async () => {
    const t = await givenTenant(server);
    expect((await admin.get(`/api/tenants/${t.id}/bucket-status`)).body.CFStatus.status).toBe('NOT_FOUND');
    await admin.post(`/api/tenants/${t.id}/bucket`);
    await admin.post(`/api/tenants/${t.id}/bucket`);
    await server.app.deps.jobs.drain();
    expect((await admin.get(`/api/tenants/${t.id}/bucket-status`)).body.CFStatus.status).toBe('create_complete');
  });
});

// On tenant resources the guard answers 404 to anyone who is neither allowed nor a member of the
// tenant (platform roles without the needed role included): only members lacking a role get 403.
describe('tenant routes: who may call them', () => {
  it('GET /api/tenants', async () => {
    expect(await statusesOf(actors, 'platform', (c) => c.get('/api/tenants'))).toEqual({
      super_user: 200, platform_manager: 200, platform_report: 200, platform_user: 200,
      tenant_admin: 403, tenant_staff: 403, other_tenant_admin: 403, attendee: 403, anonymous: 401,
    });
    // platform routes do not exist on a tenant's host
    expect((await actors.tenant_admin.tenant.get('/api/tenants')).status).toBe(404);
  });

  it('POST /api/tenants', async () => {
    expect(await statusesOf(actors, 'platform', (c) => c.post('/api/tenants', newTenant(uniqueUrl())))).toEqual({
      super_user: 201, platform_manager: 201, platform_report: 403, platform_user: 403,
      tenant_admin: 403, tenant_staff: 403, other_tenant_admin: 403, attendee: 403, anonymous: 401,
    });
  });

  it('GET /api/tenants/:tenantId', async () => {
    expect(await statusesOf(actors, 'tenant', (c) => c.get(`/api/tenants/${tenant.id}`))).toEqual({
      super_user: 200, platform_manager: 200, platform_report: 200, platform_user: 200,
      tenant_admin: 200, tenant_staff: 200, other_tenant_admin: 404, attendee: 404, anonymous: 401,
    });
    // another tenant's id from this tenant's console, and ids that do not exist
    expect((await actors.tenant_admin.tenant.get(`/api/tenants/${other.id}`)).status).toBe(404);
    expect((await admin.get(`/api/tenants/${randomUUID()}`)).status).toBe(404);
    expect((await admin.get('/api/tenants/not-a-uuid')).status).toBe(404);
  });

  it('PATCH /api/tenants/:tenantId', async () => {
    const body = { details: { inviteTemplateSubject: 'Join us' } };
    expect(await statusesOf(actors, 'tenant', (c) => c.patch(`/api/tenants/${tenant.id}`, body))).toEqual({
      super_user: 200, platform_manager: 200, platform_report: 404, platform_user: 404,
      tenant_admin: 200, tenant_staff: 403, other_tenant_admin: 404, attendee: 404, anonymous: 401,
    });
    expect((await actors.tenant_admin.tenant.patch(`/api/tenants/${other.id}`, body)).status).toBe(404);
  });

  it('POST /api/tenants/:tenantId/logo', async () => {
    expect(
      await statusesOf(actors, 'tenant', (c) => c.upload(`/api/tenants/${tenant.id}/logo`, 'file', 'logo.png', PNG, 'image/png')),
    ).toEqual({
      super_user: 200, platform_manager: 200, platform_report: 404, platform_user: 404,
      tenant_admin: 200, tenant_staff: 403, other_tenant_admin: 404, attendee: 404, anonymous: 401,
    });
  });

  it('GET /api/tenants/:tenantId/bucket-status and POST .../bucket', async () => {
    expect(await statusesOf(actors, 'tenant', (c) => c.get(`/api/tenants/${tenant.id}/bucket-status`))).toEqual({
      super_user: 200, platform_manager: 200, platform_report: 200, platform_user: 200,
      tenant_admin: 200, tenant_staff: 403, other_tenant_admin: 404, attendee: 404, anonymous: 401,
    });
    expect(await statusesOf(actors, 'tenant', (c) => c.post(`/api/tenants/${tenant.id}/bucket`))).toEqual({
      super_user: 202, platform_manager: 202, platform_report: 404, platform_user: 404,
      tenant_admin: 403, tenant_staff: 403, other_tenant_admin: 404, attendee: 404, anonymous: 401,
    });
    await server.app.deps.jobs.drain();
  });

  it('DELETE /api/tenants/:tenantId', async () => {
    // Refused callers first, against the one tenant; then each allowed caller deletes its own.
    expect(
      await statusesOf(actors, 'tenant', (c) => c.delete(`/api/tenants/${tenant.id}`), [
        'platform_report', 'platform_user', 'tenant_admin', 'tenant_staff', 'other_tenant_admin', 'attendee', 'anonymous',
      ]),
    ).toEqual({ platform_report: 404, platform_user: 404, tenant_admin: 403, tenant_staff: 403, other_tenant_admin: 404, attendee: 404, anonymous: 401 });
    expect((await admin.get(`/api/tenants/${tenant.id}`)).status).toBe(200);
    for (const name of ['super_user', 'platform_manager'] as const) {
      const victim = await givenTenantWithSettings(server);
      expect((await actors[name].platform.delete(`/api/tenants/${victim.id}`)).status).toBe(200);
    }
  });

  it('DELETE /api/tenants/:tenantId, GET .../bucket-status and POST .../bucket with a malformed id: 404 (no such tenant), or 400 for a NUL, and nothing written', async () => {
    const snapshot = async () => ({
      tenants: (await db().select({ id: tenants.id, status: tenants.status, deletedAt: tenants.deletedAt }).from(tenants)).sort((a, b) => a.id.localeCompare(b.id)),
      jobs: (await db().select({ id: jobs.id }).from(jobs)).length,
      sites: (await db().select().from(tenantSites)).length,
    });
    const before = await snapshot();
    const calls = {
      'DELETE tenant': (c: Client, id: string) => c.delete(`/api/tenants/${id}`),
      'GET bucket-status': (c: Client, id: string) => c.get(`/api/tenants/${id}/bucket-status`),
      'POST bucket': (c: Client, id: string) => c.post(`/api/tenants/${id}/bucket`),
    };
    for (const [route, call] of Object.entries(calls)) {
      for (const id of ['not-a-uuid', `${tenant.id}0`, tenant.id.replace(/-/g, ''), '42', "x'%3B--"]) {
        const res = await call(admin, id);
        expect({ route, id, status: res.status, body: res.body }).toEqual({ route, id, status: 404, body: notFoundError });
      }
      const nul = await call(admin, `${tenant.id}%00`);
      expect({ route, status: nul.status, body: nul.body }).toEqual({ route, status: 400, body: validationError('tenantId', M.invalidValue) });
      // The tenant admin on its own host, naming the other tenant.
      const foreign = await call(actors.tenant_admin.tenant, other.id);
      expect({ route, status: foreign.status, body: foreign.body }).toEqual({ route, status: 404, body: notFoundError });
    }
    expect(await snapshot()).toEqual(before);
  });
});
