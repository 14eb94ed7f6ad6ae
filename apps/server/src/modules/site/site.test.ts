import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenTenant, givenUser, startServer, type TestServer } from '../../../test/harness.js';
import { memberships } from '../../db/schema/index.js';
import { deleteTenant } from '../tenants/service.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('GET /api/site/context', () => {
  it('names the platform on the platform host', async () => {
    const res = await server.client().get('/api/site/context');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ mode: 'platform', tenant: null, mailOutbox: true });
  });

  it('names the tenant on its host, whatever the case of the host name', async () => {
    const tenant = await givenTenant(server, { name: 'Harbour Lights' });
    const expected = { mode: 'tenant', tenant: { id: tenant.id, name: 'Harbour Lights', url: tenant.url, status: 'active', brandColor: null }, mailOutbox: true };
    expect((await server.client(tenant.url).get('/api/site/context')).body).toEqual(expected);
    expect((await server.client(tenant.url.toUpperCase()).get('/api/site/context')).body).toEqual(expected);
  });

  it('answers 404 on the host of an unknown or deleted tenant', async () => {
    const unknown = await server.client('no-such-tenant').get('/api/site/context');
    expect(unknown.status).toBe(404);
    const gone = await givenTenant(server);
    expect((await server.client(gone.url).get('/api/site/context')).status).toBe(200);
    // Through the use case: the guard keeps a host's tenant for a few seconds, and deleting drops it.
    await deleteTenant({ deps: server.app.deps, tenantId: gone.id });
    expect((await server.client(gone.url).get('/api/site/context')).status).toBe(404);
  });

  it('on a tenant host, another tenant’s ids are 404 even to someone who belongs to both', async () => {
    const a = await givenTenant(server);
    const b = await givenTenant(server);
    const user = await givenUser(server, { tenant: { id: a.id, roles: ['tenant_admin'] } });
    await server.app.deps.db.insert(memberships).values({ id: randomUUID(), userId: user.id, groupId: b.id, tenantId: b.id, roles: ['tenant_admin'] });
    const onA = server.client(a.url);
    await onA.login(user.email);
    expect((await onA.get('/api/site/context')).body.tenant.id).toBe(a.id);
    const res = await onA.post(`/api/tenants/${b.id}/staff/invites`, { email: 'x@example.test', roles: ['tenant_staff'] });
    expect(res.status).toBe(404);
    expect((await onA.post(`/api/tenants/${a.id}/staff/invites`, { email: 'x@example.test', roles: ['tenant_staff'] })).status).toBe(201);
  });
});
