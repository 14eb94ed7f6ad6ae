import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PLATFORM_GROUP_ID, PLATFORM_ROLES, type PlatformRole } from '@marquee/core';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { buildApp, type App } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { events, memberships, outbox, tenants, users } from '../src/db/schema/index.js';
import { hashPassword } from '../src/platform/auth/passwords.js';

// Tests run the real server over real HTTP against a real database: PGlite in memory by default,
// or a fresh database on the PostgreSQL server named by TEST_DATABASE_URL (CI does both).

export type TestServer = {
  app: App;
  port: number;
  config: Config;
  close(): Promise<void>;
  /** A client on the platform host, or on a tenant's host when a tenant url label is given. */
  client(tenantUrl?: string): Client;
};

async function freshPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `mq_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export async function startServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'marquee-test-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  const pgDb = adminUrl ? await freshPostgresDatabase(adminUrl) : null;
  const config = loadConfig(
    { LOG_LEVEL: 'silent', JOBS_POLL_MS: '0', RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
    { dataDir, secret: 'test-secret-test-secret-test-secret-0123', port: 0, databaseUrl: pgDb?.url, webDist: path.join(dataDir, 'no-web'), ...overrides },
  );
  const database = await openDatabase({ databaseUrl: pgDb?.url, dataDir: 'memory://' });
  await database.migrate();
  const app = await buildApp(config, database);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  config.publicPort = String(port);
  return {
    app,
    port,
    config,
    client: (tenantUrl) => new Client(port, tenantUrl ? `${tenantUrl}.${config.baseDomain}:${port}` : `${config.baseDomain}:${port}`),
    async close() {
      await app.deps.jobs.stop();
      await app.close();
      await database.close();
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Res<T = any> = { status: number; body: T; headers: http.IncomingHttpHeaders; raw: Buffer };

/** A tiny HTTP client with a cookie jar and the CSRF header, like a browser tab on one host. */
export class Client {
  cookies = new Map<string, string>();
  csrf: string | null = null;
  constructor(
    readonly port: number,
    readonly host: string,
  ) {}

  request<T = any>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res<T>> {
    let payload: Buffer | undefined;
    const h: Record<string, string> = { host: this.host, ...headers };
    if (body instanceof Buffer) payload = body;
    else if (body !== undefined) {
      payload = Buffer.from(JSON.stringify(body));
      h['content-type'] ??= 'application/json';
    }
    if (payload) h['content-length'] = String(payload.length);
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.csrf && !['GET', 'HEAD'].includes(method)) h['x-csrf-token'] ??= this.csrf;
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: this.port, method, path: url, headers: h }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          for (const line of res.headers['set-cookie'] ?? []) {
            const [pair] = line.split(';');
            const [k, ...v] = pair!.split('=');
            const value = v.join('=');
            if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(k!.trim());
            else this.cookies.set(k!.trim(), value);
          }
          const raw = Buffer.concat(chunks);
          let parsed: unknown = raw;
          if ((res.headers['content-type'] ?? '').includes('json')) parsed = JSON.parse(raw.toString('utf8') || 'null');
          else if ((res.headers['content-type'] ?? '').startsWith('text/')) parsed = raw.toString('utf8');
          const out = { status: res.statusCode ?? 0, body: parsed as T, headers: res.headers, raw };
          const csrf = (parsed as { csrfToken?: unknown } | null)?.csrfToken;
          if (typeof csrf === 'string') this.csrf = csrf;
          resolve(out);
        });
      });
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }
  get<T = any>(url: string, headers?: Record<string, string>) {
    return this.request<T>('GET', url, undefined, headers);
  }
  post<T = any>(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', url, body ?? {}, headers);
  }
  put<T = any>(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', url, body ?? {}, headers);
  }
  patch<T = any>(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', url, body ?? {}, headers);
  }
  delete<T = any>(url: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', url, undefined, headers);
  }
  /** multipart/form-data with one file field. */
  upload<T = any>(url: string, field: string, filename: string, bytes: Buffer, contentType: string) {
    const boundary = `----marquee${randomUUID()}`;
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return this.request<T>('POST', url, body, { 'content-type': `multipart/form-data; boundary=${boundary}` });
  }
  async login(username: string, password: string = DEFAULT_PASSWORD) {
    const res = await this.post('/api/auth/login', { username, password });
    if (res.status !== 200) throw new Error(`login failed for ${username}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  }
}

// ---- factories -----------------------------------------------------------------------------

export const DEFAULT_PASSWORD = 'Sup3r-secret!';
let hashed: Promise<string> | undefined;
const defaultHash = () => (hashed ??= hashPassword(DEFAULT_PASSWORD));

export type GivenUser = { id: string; email: string; password: string };

export async function givenUser(
  server: TestServer,
  opts: {
    email?: string;
    status?: 'ACTIVE' | 'PENDING' | 'DISABLED';
    platformRoles?: PlatformRole[];
    tenant?: { id: string; roles: string[] };
    event?: { tenantId: string; eventId: string; roles: string[] };
  } = {},
): Promise<GivenUser> {
  const id = randomUUID();
  const email = opts.email ?? `user-${id.slice(0, 8)}@example.test`;
  const db = server.app.deps.db;
  await db.insert(users).values({ id, email, passwordHash: await defaultHash(), firstName: 'Test', lastName: 'User', status: opts.status ?? 'ACTIVE' });
  if (opts.platformRoles) await db.insert(memberships).values({ id: randomUUID(), userId: id, groupId: PLATFORM_GROUP_ID, roles: opts.platformRoles });
  if (opts.tenant) await db.insert(memberships).values({ id: randomUUID(), userId: id, groupId: opts.tenant.id, tenantId: opts.tenant.id, roles: opts.tenant.roles });
  if (opts.event)
    await db
      .insert(memberships)
      .values({ id: randomUUID(), userId: id, groupId: opts.event.tenantId, tenantId: opts.event.tenantId, eventId: opts.event.eventId, roles: opts.event.roles });
  return { id, email, password: DEFAULT_PASSWORD };
}

export const givenPlatformAdmin = (server: TestServer) => givenUser(server, { platformRoles: [...PLATFORM_ROLES] });

export type GivenTenant = { id: string; url: string; name: string };

export async function givenTenant(server: TestServer, opts: { url?: string; name?: string; status?: string } = {}): Promise<GivenTenant> {
  const id = randomUUID();
  const url = opts.url ?? `t${id.slice(0, 8)}`;
  const name = opts.name ?? `Tenant ${url}`;
  await server.app.deps.db.insert(tenants).values({
    id,
    name,
    url,
    email: `hello@${url}.test`,
    phone: '+15555550123',
    status: opts.status ?? 'active',
    inviteTemplateSubject: `Join ${name}`,
    inviteTemplateBody: `You are invited to ${name}.`,
  });
  return { id, url, name };
}

export async function givenEvent(server: TestServer, tenantId: string, opts: { name?: string; urlName?: string } = {}) {
  const id = randomUUID();
  const name = opts.name ?? `Event ${id.slice(0, 6)}`;
  await server.app.deps.db.insert(events).values({ tenantId, id, name, urlName: opts.urlName ?? `e${id.slice(0, 8)}`, status: 'published' });
  return { id, name };
}

/** The newest message sent to an address, after the mail jobs ran. */
export async function lastMailTo(server: TestServer, to: string) {
  await server.app.deps.jobs.drain();
  const rows = await server.app.deps.db.select().from(outbox).where(eq(outbox.to, to));
  return rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
}

export function codeFrom(text: string): string {
  const m = /\b(\d{6})\b/.exec(text);
  if (!m) throw new Error(`no code in: ${text}`);
  return m[1]!;
}

export function linkFrom(text: string): URL {
  const m = /(https?:\/\/\S+)/.exec(text);
  if (!m) throw new Error(`no link in: ${text}`);
  return new URL(m[1]!);
}
