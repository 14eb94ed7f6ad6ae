import { gunzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import http from 'node:http';
import { inflateSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { M, PLATFORM_GROUP_ID, PLATFORM_ROLES, type PlatformRole } from '@marquee/core';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { buildApp, type App } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { charities, discountCodes, events, memberships, orderLines, orders, outbox, tenantCharities, tenants, ticketTypes, users } from '../src/db/schema/index.js';
import { hashPassword } from '../src/platform/auth/passwords.js';
import type { Tracing } from '../src/platform/tracing.js';

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
      // pg's pool.end() resolves before its sockets close; forcing the drop while they are still
      // open kills them and their 'error' surfaces as an uncaught exception. Let them go first.
      for (let i = 0; i < 50; i++) {
        const open = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (open.rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * `peerOf`: a second app node on the same PostgreSQL database as that server (its own pool, batchers
 * and caches, as another machine would have); it neither migrates nor drops the database.
 */
/**
 * `pgliteDir`: an embedded database in that directory (created and migrated) instead of one in
 * memory, kept after close(), for a test that hands it to a real server process afterwards.
 */
export async function startServer(
  overrides: Partial<Config> = {},
  opts: { peerOf?: TestServer; pgliteDir?: string; tracing?: Tracing; logStream?: { write(line: string): void } } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'marquee-test-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  const peerUrl = opts.peerOf?.config.databaseUrl;
  if (opts.peerOf && !peerUrl) throw new Error('a peer server needs PostgreSQL (TEST_DATABASE_URL)');
  const pgDb = peerUrl ? { url: peerUrl, drop: async () => {} } : adminUrl ? await freshPostgresDatabase(adminUrl) : null;
  // Every test speaks from 127.0.0.1, and some place hundreds of orders or try many codes at
  // once: the per-address limits are out of the way unless a test sets them low. The ticket PDFs are
  // built inline (PDF_WORKERS 0): a worker thread run from the sources compiles them again through tsx
  // in every test file, seconds on a loaded machine; the pool has its own test (pdf.test.ts).
  const config = loadConfig(
    { LOG_LEVEL: 'silent', JOBS_POLL_MS: '0', PDF_WORKERS: '0', RATE_LIMIT_AUTH_PER_MINUTE: '1000', RATE_LIMIT_ORDERS_PER_MINUTE: '100000', RATE_LIMIT_CODES_PER_10_MINUTES: '100000', RATE_LIMIT_INVITES_PER_10_MINUTES: '100000', RATE_LIMIT_WAITLIST_JOINS_PER_10_MINUTES: '100000', RATE_LIMIT_API_KEY_PER_MINUTE: '100000', PUBLIC_SNAPSHOT_MS: '0' },
    { dataDir, secret: 'test-secret-test-secret-test-secret-0123', port: 0, databaseUrl: pgDb?.url, webDist: path.join(dataDir, 'no-web'), ...overrides },
  );
  const template = !pgDb && !opts.pgliteDir && process.env.MARQUEE_PGLITE_TEMPLATE;
  const database = await openDatabase({
    databaseUrl: pgDb?.url,
    dataDir: opts.pgliteDir ?? 'memory://',
    loadDataDir: template ? new Blob([readFileSync(template)]) : undefined,
  });
  if (!opts.peerOf) await database.migrate();
  const app = await buildApp(config, database, { tracing: opts.tracing, logStream: opts.logStream });
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
          // `raw` is the bytes as they came; a gzipped answer's body (the seat map's, issue 27) is read
          // as the browser reads it.
          const raw = Buffer.concat(chunks);
          const decoded = res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
          let parsed: unknown = decoded;
          if ((res.headers['content-type'] ?? '').includes('json')) parsed = JSON.parse(decoded.toString('utf8') || 'null');
          else if ((res.headers['content-type'] ?? '').startsWith('text/')) parsed = decoded.toString('utf8');
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

// ---- expected error answers (the one error handler in app.ts) ---------------------------------

/** 400 VALIDATION: a path, query or body value failed its schema (or held a NUL character). */
export const validationError = (field: string, message: string) => ({ error: { code: 'VALIDATION', message, fields: { [field]: message } } });
/** 400 VALIDATION for a path id that is not a UUID (zod's own message). */
export const invalidUuid = (field: string) => validationError(field, 'Invalid UUID');
/** 400 BAD_REQUEST: a list query (filters, sort, cursor, limit) the resource does not accept. */
export const badRequestError = (message: string) => ({ error: { code: 'BAD_REQUEST', message } });
/** 404: the id does not exist for this caller (another tenant's ids included). */
export const notFoundError = { error: { code: 'NOT_FOUND', message: M.notFound } };

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

/** A client on the tenant's host, signed in as a new tenant admin of it. */
export async function givenTenantAdmin(server: TestServer, tenant: GivenTenant): Promise<Client> {
  const user = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } });
  const admin = server.client(tenant.url);
  await admin.login(user.email, user.password);
  return admin;
}

/** A new tenant and its signed-in admin (another tenant's, to show its ids are 404 elsewhere). */
export async function givenTenantWithAdmin(server: TestServer, opts: Parameters<typeof givenTenant>[1] = {}): Promise<{ tenant: GivenTenant; admin: Client }> {
  const tenant = await givenTenant(server, opts);
  return { tenant, admin: await givenTenantAdmin(server, tenant) };
}

/** What a test file of tenant routes starts from: a server, a tenant and its signed-in admin. */
export async function startTenantServer(overrides: Partial<Config> = {}): Promise<{ server: TestServer; tenant: GivenTenant; admin: Client }> {
  const server = await startServer(overrides);
  try {
    return { server, ...(await givenTenantWithAdmin(server)) };
  } catch (err) {
    await server.close();
    throw err;
  }
}

export async function givenEvent(server: TestServer, tenantId: string, opts: { name?: string; urlName?: string } = {}) {
  const id = randomUUID();
  const name = opts.name ?? `Event ${id.slice(0, 6)}`;
  await server.app.deps.db.insert(events).values({ tenantId, id, name, urlName: opts.urlName ?? `e${id.slice(0, 8)}`, status: 'published', publishedAt: new Date() });
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

// ---- PDF inspection (tickets) ---------------------------------------------------------------------

export type PdfPage = {
  /** The page's text, one line per text-showing operator. */
  text: string;
  /** Every square the page fills with `re` (x, y, side), e.g. the modules of a vector QR code. */
  squares: Array<{ x: number; y: number; size: number }>;
  /** Every rectangle the page draws with `re` (x, y, width, height), squares or not. */
  rects: Array<{ x: number; y: number; w: number; h: number }>;
  /** Each text-showing operator: where it starts (its text matrix's x and y), its font size and its text. */
  runs: Array<{ x: number; y: number; size: number; text: string }>;
};

/** Reads the pages of an uncomplicated PDF (pdfkit's output): page order, text and squares. */
export function inspectPdf(pdf: Buffer): { header: string; pages: PdfPage[] } {
  const src = pdf.toString('latin1');
  const objects = new Map<number, { dict: string; stream: Buffer | null }>();
  // Streams are sliced by their /Length, not searched for 'endobj': compressed bytes may contain it.
  const objRe = /(\d+) 0 obj\s*/g;
  for (let m = objRe.exec(src); m; m = objRe.exec(src)) {
    const start = objRe.lastIndex;
    const end = src.indexOf('endobj', start);
    const streamAt = src.indexOf('stream', start);
    if (streamAt < 0 || streamAt > end) {
      objects.set(Number(m[1]), { dict: src.slice(start, end), stream: null });
      objRe.lastIndex = end;
      continue;
    }
    const dict = src.slice(start, streamAt);
    const length = Number(/\/Length (\d+)\s*(?:\/|>>)/.exec(dict)?.[1]);
    if (!Number.isFinite(length)) throw new Error(`object ${m[1]}: stream without a direct /Length`);
    const dataAt = streamAt + 'stream'.length + (src[streamAt + 6] === '\r' ? 2 : 1);
    const raw = pdf.subarray(dataAt, dataAt + length);
    objects.set(Number(m[1]), { dict, stream: /FlateDecode/.test(dict) ? inflateSync(raw) : raw });
    objRe.lastIndex = src.indexOf('endobj', dataAt + length);
  }
  const pagesRoot = [...objects.values()].find((o) => /\/Type \/Pages\b/.test(o.dict));
  const kids = [...(pagesRoot?.dict.match(/\/Kids \[([^\]]*)\]/)?.[1] ?? '').matchAll(/(\d+) 0 R/g)].map((k) => Number(k[1]));
  const deref = (dictOrRef: string, key: string) => {
    const ref = new RegExp(`/${key} (\\d+) 0 R`).exec(dictOrRef);
    return ref ? (objects.get(Number(ref[1]))?.dict ?? '') : dictOrRef;
  };
  /** An embedded font's ToUnicode CMap (pdfkit writes bfrange arrays): glyph code -> text. */
  const toUnicode = (fontDict: string): Map<number, string> | null => {
    const id = /\/ToUnicode (\d+) 0 R/.exec(fontDict)?.[1];
    const cmap = id ? objects.get(Number(id))?.stream?.toString('latin1') : undefined;
    if (!cmap) return null;
    const map = new Map<number, string>();
    // A destination may hold several UTF-16 units with spaces between them: a ligature's glyph
    // ('ff', 'fi') maps to <0066 0069>. Skipping those would shift every later glyph.
    const utf16 = (hex: string) => Buffer.from(hex.replace(/\s+/g, ''), 'hex').swap16().toString('utf16le');
    for (const [, lo, hi, dst] of cmap.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
      const from = parseInt(lo!, 16);
      const to = parseInt(hi!, 16);
      if (dst!.startsWith('[')) [...dst!.matchAll(/<([0-9a-fA-F\s]+)>/g)].forEach((d, i) => map.set(from + i, utf16(d[1]!)));
      else for (let c = from, u = parseInt(dst!.slice(1, -1), 16); c <= to; c++, u++) map.set(c, String.fromCodePoint(u));
    }
    for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
      for (const [, code, dst] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F\s]+)>/g)) map.set(parseInt(code!, 16), utf16(dst!));
    }
    return map;
  };
  const pages = kids.map((kid) => {
    const page = objects.get(kid)!;
    const contentId = Number(/\/Contents (\d+) 0 R/.exec(page.dict)?.[1]);
    const content = objects.get(contentId)?.stream?.toString('latin1') ?? '';
    const resources = deref(page.dict, 'Resources');
    const fontEntries = /\/Font <<([^>]*)>>/.exec(resources)?.[1] ?? '';
    const fonts = new Map([...fontEntries.matchAll(/\/(\w+) (\d+) 0 R/g)].map((f) => [f[1]!, toUnicode(objects.get(Number(f[2]))?.dict ?? '')]));
    const lines: string[] = [];
    const runs: PdfPage['runs'] = [];
    let font: Map<number, string> | null = null;
    let at = { x: NaN, y: NaN, size: NaN };
    for (const op of content.matchAll(/\/(\w+) ([\d.]+) Tf|\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj|1 0 0 1 (-?[\d.]+) (-?[\d.]+) Tm/g)) {
      if (op[1] !== undefined) {
        font = fonts.get(op[1]) ?? null;
        at = { ...at, size: Number(op[2]) };
        continue;
      }
      if (op[5] !== undefined) {
        at = { ...at, x: Number(op[5]), y: Number(op[6]) };
        continue;
      }
      const parts = op[3] !== undefined ? [...op[3].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]!) : [op[4]!];
      const decode = (hex: string) => {
        if (!font) return Buffer.from(hex, 'hex').toString('latin1');
        let out = '';
        for (let i = 0; i + 4 <= hex.length; i += 4) out += font.get(parseInt(hex.slice(i, i + 4), 16)) ?? '\ufffd';
        return out;
      };
      lines.push(parts.map(decode).join(''));
      runs.push({ ...at, text: lines[lines.length - 1]! });
    }
    const squares = [...content.matchAll(/(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re/g)]
      .filter((r) => r[3] === r[4])
      .map((r) => ({ x: Number(r[1]), y: Number(r[2]), size: Number(r[3]) }));
    const rects = [...content.matchAll(/(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re/g)].map((r) => ({ x: Number(r[1]), y: Number(r[2]), w: Number(r[3]), h: Number(r[4]) }));
    return { text: lines.join('\n'), squares, rects, runs };
  });
  return { header: src.slice(0, 8), pages };
}

/**
 * The dark modules of a page's vector QR code as "row,col" strings: the rectangles one module high
 * (a module, or a row's run of modules), read from the symbol's top-left dark module.
 */
export function pdfQrModules(page: PdfPage, modulePt: number): Set<string> {
  const runs = page.rects.filter((r) => r.h === modulePt && r.w % modulePt === 0);
  const x0 = Math.min(...runs.map((r) => r.x));
  const y0 = Math.min(...runs.map((r) => r.y));
  const out = new Set<string>();
  for (const r of runs) for (let i = 0; i < r.w / modulePt; i++) out.add(`${(r.y - y0) / modulePt},${(r.x - x0) / modulePt + i}`);
  return out;
}

let zxingReady: Promise<typeof import('zxing-wasm/reader')> | undefined;
/**
 * Reads a page's QR code with a real decoder (ZXing, zxing-wasm: the check-in page's fallback decoder):
 * the page's module-high rectangles painted black, one pixel a point, on white with a 4-module quiet
 * zone, and decoded. Returns every symbol's text found.
 */
export async function decodePdfQr(page: PdfPage, modulePt: number): Promise<string[]> {
  zxingReady ??= import('zxing-wasm/reader').then((zx) => {
    const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
    zx.prepareZXingModule({ overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer } });
    return zx;
  });
  const zx = await zxingReady;
  const runs = page.rects.filter((r) => r.h === modulePt && r.w % modulePt === 0);
  const quiet = 4 * modulePt;
  const x0 = Math.min(...runs.map((r) => r.x)) - quiet;
  const y0 = Math.min(...runs.map((r) => r.y)) - quiet;
  const width = Math.max(...runs.map((r) => r.x + r.w)) + quiet - x0;
  const height = Math.max(...runs.map((r) => r.y + r.h)) + quiet - y0;
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  for (const r of runs) {
    for (let y = r.y - y0; y < r.y - y0 + r.h; y++) for (let x = r.x - x0; x < r.x - x0 + r.w; x++) data.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
  }
  const found = await zx.readBarcodes({ data, width, height, colorSpace: 'srgb' } as unknown as Parameters<typeof zx.readBarcodes>[0], { formats: ['QRCode'], tryHarder: true });
  return found.filter((b) => b.isValid).map((b) => b.text);
}

// ---- orders held for checkout (payments, fulfilment) ---------------------------------------------

export type GivenHeldOrder = {
  orderId: string;
  orderUid: string;
  eventId: string;
  urlName: string;
  email: string;
  totalAmount: number;
  ticketTypeIds: string[];
  seats: number;
};

/**
 * A draft order holding its tickets, as PLACE ORDER leaves it: the ticket types' remaining counts
 * already taken, the hold expiring in `holdMinutes`. Each line creates its own ticket type with
 * `quantity + left` tickets, so `left` are still on sale after the hold.
 */
export async function givenHeldOrder(
  server: TestServer,
  tenantId: string,
  opts: {
    eventId?: string;
    lines?: Array<{ name: string; price: number; quantity: number; left?: number }>;
    email?: string;
    firstName?: string;
    lastName?: string;
    optInEmail?: boolean;
    holdMinutes?: number;
    status?: string;
  } = {},
): Promise<GivenHeldOrder> {
  const db = server.app.deps.db;
  const eventId = opts.eventId ?? randomUUID();
  const urlName = `e${eventId.slice(0, 8)}`;
  if (!opts.eventId) {
    await db.insert(events).values({
      tenantId,
      id: eventId,
      name: `Concert ${eventId.slice(0, 6)}`,
      urlName,
      status: 'published',
      publishedAt: new Date(),
      startDateTime: new Date('2030-06-01T00:30:00Z'),
      timeZone: 'America/New_York',
      venueName: 'The Hall',
      address1: '10 Main St',
      city: 'Springfield',
      state: 'NY',
      zip: '10001',
      emailDeliveryVerbiage: 'Doors open at 7 PM. Bring a photo ID.',
    });
  }
  const lines = opts.lines ?? [
    { name: 'VIP', price: 5000, quantity: 1 },
    { name: 'General Admission', price: 2500, quantity: 2 },
  ];
  const orderId = randomUUID();
  const orderUid = `T${orderId.replace(/-/g, '').slice(0, 9).toUpperCase()}`;
  const email = opts.email ?? `buyer-${orderId.slice(0, 8)}@example.test`;
  const ticketTypeIds: string[] = [];
  for (const line of lines) {
    const id = randomUUID();
    ticketTypeIds.push(id);
    const left = line.left ?? 10;
    await db.insert(ticketTypes).values({ tenantId, id, eventId, name: line.name, price: line.price, quantity: line.quantity + left, remaining: left });
  }
  const subtotal = lines.reduce((sum, l) => sum + l.price * l.quantity, 0);
  const seats = lines.reduce((sum, l) => sum + l.quantity, 0);
  await db.insert(orders).values({
    tenantId,
    id: orderId,
    orderUid,
    eventId,
    status: opts.status ?? 'draft',
    email,
    firstName: opts.firstName ?? 'Ada',
    lastName: opts.lastName ?? 'Lovelace',
    phone: '+15555550123',
    optInEmail: opts.optInEmail ?? false,
    ticketCount: seats,
    subtotal,
    totalAmount: subtotal,
    tenantTotal: subtotal,
    holdExpiresAt: new Date(Date.now() + (opts.holdMinutes ?? 15) * 60_000),
  });
  await db.insert(orderLines).values(
    lines.map((l, i) => ({ tenantId, orderId, ticketTypeId: ticketTypeIds[i]!, ticketName: l.name, unitPrice: l.price, quantity: l.quantity })),
  );
  return { orderId, orderUid, eventId, urlName, email, totalAmount: subtotal, ticketTypeIds, seats };
}

/**
 * A tenant created through the real use case (modules/tenant-creation createTenant): payment/payout
 * settings, copies of the global surcharge rules and ticket settings, and its site provisioned.
 * The global fee defaults are seeded first when missing.
 */
export async function givenTenantWithSettings(
  server: TestServer,
  opts: { url?: string; name?: string; status?: string } = {},
): Promise<GivenTenant> {
  const { ensureGlobalFeeDefaults } = await import('../src/modules/fees/service.js');
  const { createTenant } = await import('../src/modules/tenant-creation/create-tenant.js');
  const { provisionTenantSite } = await import('../src/modules/tenants/service.js');
  const deps = server.app.deps;
  await ensureGlobalFeeDefaults(deps);
  const url = opts.url ?? `t${randomUUID().slice(0, 8)}`;
  const name = opts.name ?? `Tenant ${url}`;
  const tenant = await createTenant({
    deps,
    input: {
      details: { name, url, email: `hello@${url}.test`, phone: '+15555550123', inviteTemplateSubject: `Join ${name}`, inviteTemplateBody: `You are invited to ${name}.` },
    },
  });
  await provisionTenantSite(deps, tenant.id);
  if (opts.status) await deps.db.update(tenants).set({ status: opts.status }).where(eq(tenants.id, tenant.id));
  return { id: tenant.id, url, name };
}

// ---- events on sale (events, ticket types, discounts, orders) ------------------------------------

export type GivenEventOnSale = {
  id: string;
  urlName: string;
  name: string;
  ticketTypeIds: string[];
  discountCodeIds: string[];
};

/**
 * A published event with its ticket types (and optional discount codes), as the console would
 * leave it. `capacity` caps the whole event; ticket types default to OPT_1 with 1..10 per order.
 */
export async function givenEventOnSale(
  server: TestServer,
  tenantId: string,
  opts: {
    name?: string;
    urlName?: string;
    status?: string;
    /** Whether it was ever published (console publish sets events.published_at); by default, when it is published now. */
    wasPublished?: boolean;
    capacity?: number | null;
    timeZone?: string;
    ticketTypes?: Array<{
      name: string;
      price: number;
      quantity: number;
      remaining?: number;
      minPerOrder?: number;
      maxPerOrder?: number;
      salesAvailability?: string;
      salesStartAt?: Date | null;
      salesEndAt?: Date | null;
      otherIndex?: number;
      active?: boolean;
      /** Where it is sold (issue 23): BOTH by default, ONLINE or BOX_OFFICE. */
      soldAt?: 'BOTH' | 'ONLINE' | 'BOX_OFFICE';
    }>;
    discounts?: Array<{ code: string; kind: 'percent' | 'amount'; value: number; usageLimit?: number | null; ticketTypeIndexes?: number[] }>;
    /** One of the tenant's enabled charities (givenCharity), receiving the event's donations. */
    charityId?: string | null;
  } = {},
): Promise<GivenEventOnSale> {
  const db = server.app.deps.db;
  const id = randomUUID();
  const name = opts.name ?? `Show ${id.slice(0, 6)}`;
  const urlName = opts.urlName ?? `s${id.slice(0, 8)}`;
  const capacity = opts.capacity ?? null;
  await db.insert(events).values({
    tenantId,
    id,
    name,
    urlName,
    status: opts.status ?? 'published',
    publishedAt: (opts.wasPublished ?? (opts.status ?? 'published') === 'published') ? new Date() : null,
    startDateTime: new Date(Date.now() + 30 * 24 * 3600_000),
    timeZone: opts.timeZone ?? 'America/New_York',
    venueName: 'The Hall',
    address1: '10 Main St',
    city: 'Springfield',
    state: 'NY',
    zip: '10001',
    capacity,
    remainingCapacity: capacity,
    emailDeliveryVerbiage: 'Print your tickets at home.',
    charityId: opts.charityId ?? null,
  });
  const types = opts.ticketTypes ?? [{ name: 'General Admission', price: 4500, quantity: 100 }];
  const ticketTypeIds = types.map(() => randomUUID());
  await db.insert(ticketTypes).values(
    types.map((t, i) => ({
      tenantId,
      id: ticketTypeIds[i]!,
      eventId: id,
      name: t.name,
      price: t.price,
      quantity: t.quantity,
      remaining: t.remaining ?? t.quantity,
      minPerOrder: t.minPerOrder ?? 1,
      maxPerOrder: t.maxPerOrder ?? 10,
      salesAvailability: t.salesAvailability ?? 'SALES_AVAILABILITY_OPT_1',
      salesStartAt: t.salesStartAt ?? null,
      salesEndAt: t.salesEndAt ?? null,
      otherTicketTypeId: t.otherIndex === undefined ? null : ticketTypeIds[t.otherIndex]!,
      sortOrder: i,
      active: t.active ?? true,
      soldAt: t.soldAt ?? 'BOTH',
    })),
  );
  const discountCodeIds: string[] = [];
  for (const d of opts.discounts ?? []) {
    const did = randomUUID();
    discountCodeIds.push(did);
    await db.insert(discountCodes).values({
      tenantId,
      id: did,
      eventId: id,
      code: d.code.toUpperCase(),
      kind: d.kind,
      value: d.kind === 'percent' ? Math.round(d.value * 100) : d.value,
      usageLimit: d.usageLimit ?? null,
      ticketTypeIds: (d.ticketTypeIndexes ?? []).map((i) => ticketTypeIds[i]!),
    });
  }
  return { id, urlName, name, ticketTypeIds, discountCodeIds };
}

export type GivenCharity = { id: string; name: string };

/** A charity of the platform's (active unless said otherwise), enabled for the given tenants. */
export async function givenCharity(
  server: TestServer,
  opts: { name?: string; status?: 'active' | 'inactive'; enabledFor?: string[] } = {},
): Promise<GivenCharity> {
  const db = server.app.deps.db;
  const id = randomUUID();
  const name = opts.name ?? `Charity ${id.slice(0, 6)}`;
  await db.insert(charities).values({ id, name, status: opts.status ?? 'active', street: '1 Hope St', city: 'Springfield', state: 'IL', zipCode: '62701' });
  for (const tenantId of opts.enabledFor ?? []) await db.insert(tenantCharities).values({ tenantId, charityId: id });
  return { id, name };
}

/** A checkout payload for PLACE ORDER that passes every §5 field rule. */
export function checkoutPayload(lines: Array<{ ticketTypeId: string; quantity: number }>, order: Record<string, unknown> = {}) {
  return {
    order: {
      email: 'buyer@example.test',
      firstName: 'Ada',
      lastName: 'Lovelace',
      // spec §5: sent as digits with a plus prefix (the web turns the masked +1 (555) 123 4567 into this).
      phone: '+15551234567',
      address1: '1 Infinite Loop',
      address2: 'Apt 2',
      city: 'Springfield',
      state: 'NY',
      zipCode: '10001',
      country: 'USA',
      optInEmail: false,
      optInText: false,
      ...order,
    },
    lines,
    source: 'online',
  };
}
