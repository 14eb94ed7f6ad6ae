import { M } from '@marquee/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenPlatformAdmin, givenTenant, givenUser, startServer, type Client, type TestServer } from '../../../test/harness.js';

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  server = await startServer();
  const a = await givenPlatformAdmin(server);
  admin = server.client();
  await admin.login(a.email);
});
afterAll(async () => {
  await server.close();
});

describe('GET /api/platform/outbox', () => {
  it('lists every message sent, kept in the outbox without SMTP, with signed attachment links', async () => {
    const tenant = await givenTenant(server);
    const pdf = Buffer.from('%PDF-1.4 a ticket');
    await server.app.deps.storage.put('tickets/t-1.pdf', pdf, 'application/pdf');
    await server.app.deps.db.transaction((tx) =>
      server.app.deps.mailer.send(tx, {
        to: 'buyer@example.test',
        subject: 'Your tickets',
        text: 'Here they are: http://localhost/orders/1',
        html: '<p>Here they are</p>',
        tenantId: tenant.id,
        attachments: [{ filename: 'tickets.pdf', contentType: 'application/pdf', key: 'tickets/t-1.pdf' }],
      }),
    );
    await server.app.deps.jobs.drain();

    const res = await admin.get('/api/platform/outbox?filters=details.to=buyer@example.test');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    expect(res.body.cursor).toBeNull();
    const [mail] = res.body.result;
    expect(mail).toEqual({
      id: expect.any(String),
      details: {
        to: 'buyer@example.test',
        subject: 'Your tickets',
        text: 'Here they are: http://localhost/orders/1',
        html: '<p>Here they are</p>',
        status: 'kept',
        tenantId: tenant.id,
        attachments: [{ filename: 'tickets.pdf', url: expect.stringMatching(/^\/api\/files\/tickets\/t-1\.pdf\?exp=\d+&sig=/) }],
        dateCreated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
    });
    const file = await server.client().get(mail.details.attachments[0].url);
    expect(file.status).toBe(200);
    expect(file.raw.equals(pdf)).toBe(true);
  });

  it('is for super users on the platform host: its mails hold sign-in codes', async () => {
    const anonymous = await server.client().get('/api/platform/outbox');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.message).toBe(M.notSignedIn);

    const tenant = await givenTenant(server);
    const tenantAdmin = server.client();
    await tenantAdmin.login((await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } })).email);
    const refused = await tenantAdmin.get('/api/platform/outbox');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(M.forbidden);

    const su = server.client();
    await su.login((await givenUser(server, { platformRoles: ['super_user'] })).email);
    expect((await su.get('/api/platform/outbox')).status).toBe(200);
    for (const role of ['platform_manager', 'platform_user', 'platform_report'] as const) {
      const c = server.client();
      await c.login((await givenUser(server, { platformRoles: [role] })).email);
      const res = await c.get('/api/platform/outbox');
      expect(res.status, role).toBe(403);
      expect(res.body.error.message).toBe(M.forbidden);
    }

    const onTenantHost = server.client(tenant.url);
    await onTenantHost.login((await givenPlatformAdmin(server)).email);
    expect((await onTenantHost.get('/api/platform/outbox')).status).toBe(404);
  });
});
