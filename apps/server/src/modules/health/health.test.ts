import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, givenTenant, startServer, type TestServer } from '../../../test/harness.js';
import { buildApp, type App } from '../../app.js';
import { loadConfig } from '../../config.js';
import { MIGRATIONS_DIR, openDatabase, type Database } from '../../db/client.js';

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

describe('GET /livez and /readyz (issue 26.3)', () => {
  /**
   * A server on its own embedded database: a fresh one that nothing has migrated yet, or (`migrated`)
   * one from the tests' migrated template when there is one.
   */
  async function startOwn(opts: { migrated?: boolean } = {}): Promise<{ app: App; database: Database; client: (host?: string) => Client; close(): Promise<void> }> {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'marquee-readyz-'));
    const config = loadConfig({ LOG_LEVEL: 'silent', JOBS_POLL_MS: '0' }, { dataDir, secret: 'test-secret-test-secret-test-secret-0123', port: 0, databaseUrl: undefined, webDist: path.join(dataDir, 'no-web') });
    const template = opts.migrated && process.env.MARQUEE_PGLITE_TEMPLATE;
    const database = await openDatabase({ dataDir: 'memory://', loadDataDir: template ? new Blob([readFileSync(template)]) : undefined });
    const app = await buildApp(config, database);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    return {
      app,
      database,
      client: (host = `localhost:${port}`) => new Client(port, host),
      async close() {
        await app.close();
        await database.close().catch(() => {});
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }

  it('live and ready when the database answers at head, on any host a probe uses', async () => {
    const tenant = await givenTenant(server);
    for (const client of [server.client(), server.client(tenant.url), new Client(server.port, `10.0.0.5:${server.port}`)]) {
      const live = await client.get('/livez');
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ status: 'ok' });
      const ready = await client.get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({
        status: 'ready',
        database: { kind: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite', reachable: true },
        migrations: { applied: shipped(), shipped: shipped() },
      });
      // Every answer names its request's id.
      expect(ready.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    // A proxy's request id is kept (a plain token), anything else replaced.
    expect((await server.client().get('/livez', { 'x-request-id': 'haproxy-1f2e3d' })).headers['x-request-id']).toBe('haproxy-1f2e3d');
    expect((await server.client().get('/livez', { 'x-request-id': 'bad id <script>' })).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('not ready (503, with the reason) when a shipped migration is not applied, ready again after', async () => {
    const db = server.app.deps.db;
    const rows = (await db.execute(sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`)) as unknown as {
      rows: Array<{ id: number; hash: string; created_at: string }>;
    };
    const last = rows.rows[0]!;
    await db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${last.id}`);
    try {
      const res = await server.client().get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body.status).toBe('not ready');
      expect(res.body.reason).toBe(`Migrations are not all applied: ${shipped() - 1} of ${shipped()}. Run the server's migrations (a node migrates as it starts).`);
      expect(res.body.migrations).toEqual({ applied: shipped() - 1, shipped: shipped() });
      // Alive all the same: a pending migration is no reason to restart the process.
      expect((await server.client().get('/livez')).status).toBe(200);
    } finally {
      await db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${last.id}, ${last.hash}, ${last.created_at})`);
    }
    expect((await server.client().get('/readyz')).status).toBe(200);
  });

  // A new PGlite database and all the migrations: slow on a busy machine.
  it('not ready on a fresh database before it is migrated, ready once it is', { timeout: 180_000 }, async () => {
    const fresh = await startOwn();
    try {
      const before = await fresh.client().get('/readyz');
      expect(before.status).toBe(503);
      expect(before.body).toEqual({
        status: 'not ready',
        reason: `Migrations are not all applied: 0 of ${shipped()}. Run the server's migrations (a node migrates as it starts).`,
        database: { kind: 'pglite', reachable: true },
        migrations: { applied: 0, shipped: shipped() },
      });
      expect((await fresh.client().get('/livez')).status).toBe(200);
      await fresh.database.migrate();
      const after = await fresh.client().get('/readyz');
      expect(after.status).toBe(200);
      expect(after.body.status).toBe('ready');
    } finally {
      await fresh.close();
    }
  });

  it('not ready when the database does not answer, and still live', { timeout: 120_000 }, async () => {
    const fresh = await startOwn({ migrated: true });
    try {
      await fresh.database.close();
      const res = await fresh.client().get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 'not ready', reason: 'The database does not answer.', database: { reachable: false } });
      expect((await fresh.client().get('/livez')).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});

// issue 26: from the first SIGTERM on, the load balancer's health check sees the node leave.
describe('GET /api/health while draining', () => {
  it('answers 503 draining once the node starts draining, readiness says why, and the node still serves other requests', async () => {
    server.app.deps.lifecycle.startDraining();
    const res = await server.client().get('/api/health');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      status: 'draining',
      database: { kind: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite', reachable: true },
      migrations: { applied: shipped(), shipped: shipped(), atHead: true },
    });
    const ready = await server.client().get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'not ready', reason: 'The node is shutting down: it finishes its requests and takes no new ones.' });
    expect((await server.client().get('/livez')).status).toBe(200);
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
