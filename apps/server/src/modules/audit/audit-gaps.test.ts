import { PAYMENT_ACCOUNT_PATHS, PAYOUT_PATHS } from '@marquee/core';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema/index.js';
import { givenActors, type Actors } from '../../../test/actors.js';
import { givenTenantWithSettings, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';

// Issue 25 "exports downloaded, fee and settings changes" are in the audit log: the payout CSV
// exports (tenant and platform) and the payment and payout settings (the operators' payout-update,
// a connected payout account and the payout destination it becomes), each with its actor, written
// in the action's own transaction; a refused request writes no entry.

let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let actors: Actors;
let operator: Client;
let tenantAdmin: Client;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenantWithSettings(server, { name: 'Audited Hall' });
  other = await givenTenantWithSettings(server);
  actors = await givenActors(server, tenant, other);
  operator = actors.super_user.platform;
  tenantAdmin = actors.tenant_admin.tenant;
});
afterAll(async () => {
  await server.close();
});

const entries = (action: string, tenantId: string | null = tenant.id) =>
  server.app.deps.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), tenantId === null ? undefined : eq(auditLog.tenantId, tenantId)))
    .orderBy(desc(auditLog.createdAt));

describe('payout CSV exports are audited', () => {
  it("the tenant's payout transactions export names its tenant admin; the tenant's log shows it", async () => {
    const res = await tenantAdmin.get(PAYOUT_PATHS.tenantTransactionsDownload(tenant.id));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [entry, ...more] = (await entries('export.downloaded')).filter((e) => e.targetId === res.body.exportId);
    expect(more).toHaveLength(0);
    expect(entry).toMatchObject({ tenantId: tenant.id, actorType: 'user', actor: actors.tenant_admin.email, targetType: 'export', address: '127.0.0.1' });
    expect(entry!.after).toMatchObject({ kind: 'tenant-payout-transactions', scope: { tenantId: tenant.id } });
    // The tenant admin reads it in the tenant's own audit log.
    const log = await tenantAdmin.get(`/api/tenants/${tenant.id}/audit-log?filters=details.action=export.downloaded`);
    expect(log.body.result.map((e: { details: { targetId: string } }) => e.details.targetId)).toContain(res.body.exportId);
  });

  it('the platform payout exports name the operator, with no tenant', async () => {
    const paths = [PAYOUT_PATHS.transactionsDownload(), PAYOUT_PATHS.collectionDownload()];
    for (const path of paths) {
      const res = await operator.get(path);
      expect(res.status, path).toBe(200);
      const [entry] = (await entries('export.downloaded', null)).filter((e) => e.targetId === res.body.exportId);
      expect(entry, path).toMatchObject({ tenantId: null, actorType: 'user', actor: actors.super_user.email, targetType: 'export' });
    }
    const kinds = (await entries('export.downloaded', null)).map((e) => (e.after as { kind: string }).kind);
    expect(kinds).toEqual(expect.arrayContaining(['payout-transactions', 'payouts-collection']));
  });

  it('a refused export (a bad filter, another tenant) writes no entry', async () => {
    const before = (await entries('export.downloaded', null)).length;
    expect((await tenantAdmin.get(`${PAYOUT_PATHS.tenantTransactionsDownload(tenant.id)}?filters=${encodeURIComponent('details.nope=1')}`)).status).toBe(400);
    expect((await tenantAdmin.get(PAYOUT_PATHS.tenantTransactionsDownload(other.id))).status).toBe(404);
    expect((await operator.get(PAYOUT_PATHS.payoutDownload('NOSUCH'))).status).toBe(404);
    expect((await entries('export.downloaded', null)).length).toBe(before);
  });
});

describe('payment and payout settings changes are audited', () => {
  it('payout-update records the settings before and after, with the operator', async () => {
    const res = await operator.post('/api/payment/payout-update', {
      tenantId: tenant.id,
      payment: { type: 'tenant', profileId: 'acct_audit' },
      payout: { chargeSurchargeFeesToPlatform: true, type: 'weekly' },
    });
    expect(res.status).toBe(200);
    const [entry] = await entries('payment_settings.changed');
    expect(entry).toMatchObject({ tenantId: tenant.id, actorType: 'user', actor: actors.super_user.email, targetType: 'payment_settings', targetId: tenant.id });
    expect(entry!.after).toMatchObject({ paymentType: 'tenant', profileId: 'acct_audit', chargeSurchargeFeesToPlatform: true, payoutType: 'weekly' });
    expect(entry!.before).toMatchObject({ profileId: null, chargeSurchargeFeesToPlatform: false });
    // Bad input and an unknown tenant: 4xx, nothing written.
    const count = (await entries('payment_settings.changed', null)).length;
    expect((await operator.post('/api/payment/payout-update', { tenantId: tenant.id, payment: { type: 'nope' } })).status).toBe(400);
    expect((await operator.post('/api/payment/payout-update', { tenantId: crypto.randomUUID(), payment: { type: 'tenant' } })).status).toBe(404);
    expect((await entries('payment_settings.changed', null)).length).toBe(count);
  });

  it('connecting a payout account records the account made and the payout destination it becomes', async () => {
    const link = await operator.post(PAYMENT_ACCOUNT_PATHS.onboarding(tenant.id));
    expect(link.status).toBe(200);
    const made = (await entries('payment_settings.changed')).find((e) => e.targetType === 'payment_account');
    expect(made).toMatchObject({ tenantId: tenant.id, actorType: 'user', actor: actors.super_user.email });
    const accountId = (made!.after as { accountId: string }).accountId;
    expect(accountId).toBeTruthy();
    // A second link for the same account makes no account and records nothing more.
    await operator.post(PAYMENT_ACCOUNT_PATHS.onboarding(tenant.id));
    expect((await entries('payment_settings.changed')).filter((e) => e.targetType === 'payment_account')).toHaveLength(1);
    // Finishing the (test gateway's) onboarding, then asking: the account becomes the payout destination.
    const again = await operator.post(PAYMENT_ACCOUNT_PATHS.onboarding(tenant.id));
    const browser = server.client();
    expect((await browser.request('POST', new URL(again.body.url).pathname, Buffer.from('action=finish'), FORM)).status).toBe(303);
    const refreshed = await tenantAdmin.post(PAYMENT_ACCOUNT_PATHS.refresh(tenant.id));
    expect(refreshed.body).toMatchObject({ state: 'connected', destination: accountId });
    const [destination] = await entries('payment_settings.changed');
    expect(destination).toMatchObject({ targetType: 'payment_settings', actorType: 'user', actor: actors.tenant_admin.email, before: { paymentRef: null }, after: { paymentRef: accountId } });
    // Asking again changes nothing and records nothing.
    const n = (await entries('payment_settings.changed')).length;
    await tenantAdmin.post(PAYMENT_ACCOUNT_PATHS.refresh(tenant.id));
    expect((await entries('payment_settings.changed')).length).toBe(n);
  });
});

// An endpoint decides where the tenant's orders and buyers go: adding, changing, rotating and deleting
// one is in the audit log with its actor, never with its secret; another tenant's id writes nothing.
describe('webhook endpoint changes are audited', () => {
  it('add, change, rotate and delete each write one entry with the actor; a refused change writes none', async () => {
    const base = `/api/tenants/${tenant.id}/webhooks/endpoints`;
    const added = await tenantAdmin.post(base, { url: 'https://hooks.example.com/marquee', description: 'CRM', eventTypes: ['order.paid'] });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const id = added.body.endpoint.id as string;
    expect((await tenantAdmin.patch(`${base}/${id}`, { eventTypes: ['order.paid', 'order.refunded'] })).status).toBe(200);
    expect((await tenantAdmin.post(`${base}/${id}/rotate-secret`)).status).toBe(200);
    // Refused: another tenant's endpoint id, and a private address.
    expect((await tenantAdmin.patch(`/api/tenants/${other.id}/webhooks/endpoints/${id}`, { description: 'x' })).status).toBe(404);
    expect((await tenantAdmin.patch(`${base}/${id}`, { url: 'https://127.0.0.1/x' })).status).toBe(400);
    expect((await tenantAdmin.delete(`${base}/${id}`)).status).toBe(200);

    const mine = (await server.app.deps.db.select().from(auditLog).where(and(eq(auditLog.targetType, 'webhook_endpoint'), eq(auditLog.targetId, id))).orderBy(auditLog.createdAt)).map(
      (e) => ({ action: e.action, tenantId: e.tenantId, actor: e.actor, before: e.before, after: e.after }),
    );
    const view = (eventTypes: string[]) => ({ url: 'https://hooks.example.com/marquee', description: 'CRM', eventTypes, enabled: true });
    expect(mine).toEqual([
      { action: 'webhook.endpoint_added', tenantId: tenant.id, actor: actors.tenant_admin.email, before: null, after: view(['order.paid']) },
      { action: 'webhook.endpoint_changed', tenantId: tenant.id, actor: actors.tenant_admin.email, before: view(['order.paid']), after: view(['order.paid', 'order.refunded']) },
      { action: 'webhook.secret_rotated', tenantId: tenant.id, actor: actors.tenant_admin.email, before: null, after: null },
      { action: 'webhook.endpoint_deleted', tenantId: tenant.id, actor: actors.tenant_admin.email, before: view(['order.paid', 'order.refunded']), after: null },
    ]);
    expect(JSON.stringify(mine)).not.toContain('whsec_');
  });
});
