import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenTenant, startServer, type TestServer } from '../../../test/harness.js';
import { MIGRATIONS_DIR } from '../../db/client.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const shipped = () => (JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;

describe('GET /api/health', () => {
  it('reports the database reachable and the schema at head', async () => {
    const res = await server.client().get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      database: { kind: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite', reachable: true },
      migrations: { applied: shipped(), shipped: shipped(), atHead: true },
    });
    expect(shipped()).toBeGreaterThan(0);
  });

  it('carries the security headers on every answer', async () => {
    const res = await server.client().get('/api/health');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toBeUndefined(); // http in tests: HSTS only behind https
    const missing = await server.client().get('/api/no-such-route');
    expect(missing.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers 503 degraded when a shipped migration is not applied', async () => {
    const db = server.app.deps.db;
    const rows = (await db.execute(sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`)) as unknown as {
      rows: Array<{ id: number; hash: string; created_at: string }>;
    };
    const last = rows.rows[0]!;
    await db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${last.id}`);
    try {
      const res = await server.client().get('/api/health');
      expect(res.status).toBe(503);
      expect(res.body.status).toBe('degraded');
      expect(res.body.migrations).toEqual({ applied: shipped() - 1, shipped: shipped(), atHead: false });
    } finally {
      await db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${last.id}, ${last.hash}, ${last.created_at})`);
    }
    expect((await server.client().get('/api/health')).status).toBe(200);
  });

  // issue 26: during a rolling upgrade the first new node migrates while the old ones still serve.
  it('answers 200 on a schema with migrations newer than this build (a rolling upgrade)', async () => {
    const db = server.app.deps.db;
    await db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-release', ${String(Date.now() + 86_400_000)})`);
    try {
      const res = await server.client().get('/api/health');
      expect(res.status).toBe(200);
      expect(res.body.migrations).toEqual({ applied: shipped() + 1, shipped: shipped(), atHead: true });
    } finally {
      await db.execute(sql`delete from drizzle.__drizzle_migrations where hash = 'from-a-newer-release'`);
    }
  });

  it('is public, on every live host, and 404 on an unknown tenant host', async () => {
    const tenant = await givenTenant(server);
    expect((await server.client(tenant.url).get('/api/health')).status).toBe(200);
    expect((await server.client('no-such-tenant').get('/api/health')).status).toBe(404);
  });
});

// issue 26: from the first SIGTERM on, the load balancer's health check sees the node leave.
describe('GET /api/health while draining', () => {
  it('answers 503 draining once the node starts draining, and the node still serves other requests', async () => {
    server.app.deps.lifecycle.startDraining();
    const res = await server.client().get('/api/health');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      status: 'draining',
      database: { kind: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite', reachable: true },
      migrations: { applied: shipped(), shipped: shipped(), atHead: true },
    });
    expect((await server.client().get('/api/docs/openapi.json')).status).toBe(200);
  });
});

describe('GET /api/docs/openapi.json', () => {
  it('documents every account route from the same schemas that validate them', async () => {
    const res = await server.client().get('/api/docs/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    const paths = res.body.paths as Record<string, Record<string, { requestBody?: any; parameters?: any[] }>>;
    const expected: Array<[string, string]> = [
      ['/api/auth/session', 'get'],
      ['/api/auth/login', 'post'],
      ['/api/auth/logout', 'post'],
      ['/api/auth/register', 'post'],
      ['/api/auth/verify', 'post'],
      ['/api/auth/forgot-password', 'post'],
      ['/api/auth/reset-password', 'post'],
      ['/api/auth/change-password', 'post'],
      ['/api/auth/link-account', 'post'],
      ['/api/invites/verify', 'get'],
      ['/api/users/{userId}/profile', 'get'],
      ['/api/users/{userId}/profile', 'patch'],
      ['/api/users/{userId}/picture', 'post'],
      ['/api/platform/users', 'post'],
      ['/api/tenants/{tenantId}/staff/invites', 'post'],
      ['/api/tenants/{tenantId}/events/{eventId}/staff/invites', 'post'],
      ['/api/health', 'get'],
      ['/api/site/context', 'get'],
      ['/api/platform/outbox', 'get'],
    ];
    for (const [p, method] of expected) expect(paths[p]?.[method], `${method.toUpperCase()} ${p}`).toBeDefined();

    const login = paths['/api/auth/login']!.post!.requestBody.content['application/json'].schema;
    expect(Object.keys(login.properties).sort()).toEqual(['password', 'username']);
    expect(login.required).toEqual(expect.arrayContaining(['username', 'password']));
    const register = paths['/api/auth/register']!.post!.requestBody.content['application/json'].schema;
    expect(register.properties.appType.enum).toEqual(['PLATFORM', 'TENANT', 'ATTENDEE']);
    expect(paths['/api/users/{userId}/profile']!.get!.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'userId', in: 'path' })]));

    // Internal plumbing stays out of the document.
    expect(Object.keys(paths).some((p) => p.startsWith('/api/files') || p.startsWith('/api/uploads') || p.startsWith('/api/docs'))).toBe(false);
  });

  it('GET /api/docs lists the paths for people', async () => {
    const res = await server.client().get('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<code>/api/auth/login</code>');
    expect(res.body).toContain('href="/api/docs/openapi.json"');
  });
});
