import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { orders, tickets } from '../db/schema/index.js';
import { Client, givenEventOnSale, givenTenant, givenUser, type GivenTenant, type GivenUser, type TestServer } from '../../test/harness.js';
import { givenPaidOrder, type PaidOrder } from '../../test/fixtures/paid-orders.js';
import { BackupError, backupDataDir, MANIFEST, restoreDataDir } from './backup.js';

// Issue 26: the embedded database's backup and restore. A server on a real PGlite directory with
// paid orders, their tickets (and PDFs) and an uploaded cover image; `npm run backup` refused while
// it runs; a backup once it stopped, restored into a fresh directory, and a server started on that
// finds the same orders, tickets, files and secret. Then hostile and damaged archives.

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const root = mkdtempSync(path.join(os.tmpdir(), 'marquee-backup-'));
const webDist = path.join(root, 'web');
mkdirSync(webDist);
writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><html lang="en"><head><title>Marquee</title></head><body><div id="root"></div></body></html>');

type Running = TestServer & { stop(): Promise<void> };

/** The real server on a PGlite directory under dataDir, as `npm start` runs it (its secret generated into DATA_DIR). */
async function serveOn(dataDir: string): Promise<Running> {
  const config = loadConfig({ LOG_LEVEL: 'silent', JOBS_POLL_MS: '0', PUBLIC_SNAPSHOT_MS: '0', RATE_LIMIT_AUTH_PER_MINUTE: '1000' }, { dataDir, port: 0, webDist });
  const pgliteDir = path.join(dataDir, 'pglite');
  const template = process.env.MARQUEE_PGLITE_TEMPLATE;
  const fresh = !existsSync(path.join(pgliteDir, 'PG_VERSION'));
  const database = await openDatabase({ dataDir: pgliteDir, loadDataDir: fresh && template ? new Blob([readFileSync(template)]) : undefined });
  await database.migrate();
  const app = await buildApp(config, database);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  config.publicPort = String(port);
  const stop = async () => {
    await app.deps.jobs.stop();
    await app.close();
    await database.close();
  };
  return {
    app,
    port,
    config,
    client: (tenantUrl) => new Client(port, tenantUrl ? `${tenantUrl}.${config.baseDomain}:${port}` : `${config.baseDomain}:${port}`),
    close: stop,
    stop,
  };
}

async function rowsOf(server: TestServer, tenantId: string) {
  const db = server.app.deps.db;
  return {
    orders: await db
      .select({ id: orders.id, orderUid: orders.orderUid, status: orders.status, totalAmount: orders.totalAmount, email: orders.email, paidAt: orders.paidAt })
      .from(orders)
      .where(eq(orders.tenantId, tenantId))
      .orderBy(asc(orders.id)),
    tickets: await db.select({ ticketUid: tickets.ticketUid, orderId: tickets.orderId, price: tickets.price }).from(tickets).where(eq(tickets.tenantId, tenantId)).orderBy(asc(tickets.ticketUid)),
  };
}

const dataDir = path.join(root, 'data');
let server: Running;
let tenant: GivenTenant;
let admin: Client;
let adminUser: GivenUser;
let eventId: string;
let paid: PaidOrder[];
let coverUrl: string;
let coverBytes: Buffer;
let before: Awaited<ReturnType<typeof rowsOf>>;
let orderPages: unknown[];
let pdfs: Buffer[];
let secret: string;
const orderPage = (c: Client, o: PaidOrder) => c.get(`/api/tenants/${tenant.id}/events/${eventId}/orders/${o.orderUid}`);

beforeAll(async () => {
  server = await serveOn(dataDir);
  tenant = await givenTenant(server, { name: 'Backup Hall' });
  adminUser = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } });
  admin = server.client(tenant.url);
  await admin.login(adminUser.email, adminUser.password);
  const event = await givenEventOnSale(server, tenant.id, { name: 'Harbour Lights' });
  eventId = event.id;
  // Paid through the test gateway and fulfilled by the real fulfilment: tickets, their PDF in storage.
  paid = [await givenPaidOrder(server, tenant.id, { eventId }), await givenPaidOrder(server, tenant.id, { eventId, email: 'second@example.test' })];
  const png = await sharp({ create: { width: 1000, height: 500, channels: 3, background: { r: 200, g: 60, b: 120 } } }).png().toBuffer();
  const up = await admin.upload(`/api/tenants/${tenant.id}/events/${eventId}/cover`, 'file', 'cover.png', png, 'image/png');
  expect(up.status).toBe(200);
  coverUrl = up.body.details.coverImageUrl;
  const cover = await server.client(tenant.url).get(coverUrl);
  expect(cover.status).toBe(200);
  coverBytes = cover.raw;
  before = await rowsOf(server, tenant.id);
  expect([before.orders.length, before.tickets.length]).toEqual([2, 6]);
  orderPages = await Promise.all(paid.map(async (o) => (await orderPage(admin, o)).body));
  pdfs = await Promise.all(paid.map(async (o) => (await server.app.deps.storage.get(`tickets/${tenant.id}/${o.orderId}/tickets.pdf`))!.bytes));
  expect(pdfs.every((b) => b.subarray(0, 5).toString() === '%PDF-')).toBe(true);
  secret = server.config.secret;
  expect(readFileSync(path.join(dataDir, 'secret'), 'utf8').trim()).toBe(secret);
  // A database on disk, two fulfilments with their PDFs and an image: minutes on a loaded machine.
}, 180_000);
afterAll(async () => {
  await server?.stop().catch(() => {});
  rmSync(root, { recursive: true, force: true });
});

/** `npm run backup` / `npm run restore` as an operator runs them (another process). */
function cli(args: string[], env: Record<string, string> = {}) {
  const tsx = path.join(serverDir, '../../node_modules/.bin/tsx');
  const res = spawnSync(tsx, [path.join(serverDir, 'src/ops/backup-cli.ts'), ...args], {
    cwd: root,
    // npm run sets INIT_CWD to where the operator stands; the command resolves relative paths from it.
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', INIT_CWD: root, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: res.status, out: `${res.stdout}${res.stderr}` };
}

const backupFile = path.join(root, 'marquee.tar.gz');

describe('npm run backup / npm run restore (PGlite)', () => {
  it('refuses to back up while the server has the data directory open, and writes nothing', () => {
    const res = cli(['backup', backupFile]);
    expect(res.status).toBe(1);
    expect(res.out).toContain(`${path.join(dataDir, 'pglite')} is in use by a Marquee server (process ${process.pid}`);
    expect(existsSync(backupFile)).toBe(false);
    expect(readdirSync(root).filter((n) => n.includes('partial'))).toEqual([]);
  });

  it('backs up the stopped server: the database, the files and the secret, readable by the owner only', { timeout: 120_000 }, async () => {
    await server.stop();
    const res = cli(['backup', 'marquee.tar.gz']); // relative to where the operator stands
    expect(res.status, res.out).toBe(0);
    expect(res.out).toContain(`Backed up ${dataDir} to ${backupFile}`);
    expect(res.out).toMatch(/: 2 orders, 6 tickets, \d+ files, the secret\./);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    const again = cli(['backup', backupFile]);
    expect([again.status, again.out]).toEqual([1, `${backupFile} already exists: give a new file name.\n`]);
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
  });

  it('restores into a fresh directory; a server started on it finds the same orders, tickets, files, secret and accounts', { timeout: 180_000 }, async () => {
    const restored = path.join(root, 'restored');
    const res = cli(['restore', backupFile, 'restored']);
    expect(res.status, res.out).toBe(0);
    expect(res.out).toContain(`into ${restored}: 2 orders, 6 tickets,`);
    expect(readdirSync(restored).sort()).toEqual(['files', 'pglite', 'secret']);

    const again = await serveOn(restored);
    try {
      expect(again.config.secret).toBe(secret);
      expect(await rowsOf(again, tenant.id)).toEqual(before);
      // The tenant admin's account came along: the same password signs in and reads the same order pages.
      const moved = again.client(tenant.url);
      await moved.login(adminUser.email, adminUser.password);
      for (const [i, o] of paid.entries()) {
        const page = await orderPage(moved, o);
        expect(page.status).toBe(200);
        expect(page.body).toEqual(orderPages[i]);
      }
      const cover = await again.client(tenant.url).get(coverUrl);
      expect([cover.status, cover.raw.equals(coverBytes)]).toEqual([200, true]);
      for (const [i, o] of paid.entries()) {
        expect((await again.app.deps.storage.get(`tickets/${tenant.id}/${o.orderId}/tickets.pdf`))?.bytes.equals(pdfs[i]!)).toBe(true);
      }
    } finally {
      await again.stop();
    }
  });

  it('never restores over a directory that holds something', async () => {
    const res = cli(['restore', backupFile, dataDir]);
    expect([res.status, res.out]).toEqual([1, `${dataDir} is not empty: restore into a new directory (move the old one aside first).\n`]);
    await expect(restoreDataDir({ file: path.join(root, 'nope.tar.gz'), dataDir: path.join(root, 'x') })).rejects.toThrow(`${path.join(root, 'nope.tar.gz')} does not exist.`);
  });

  it('stops past the size limit, and says how to allow more', { timeout: 60_000 }, async () => {
    const target = path.join(root, 'too-small');
    await expect(restoreDataDir({ file: backupFile, dataDir: target, maxBytes: 100_000 })).rejects.toThrow('Refused: the backup unpacks to more than 100000 bytes (set --max-bytes to allow more).');
    expect(existsSync(target)).toBe(false);
    const res = cli(['restore', backupFile, 'x', '--max-bytes', 'lots']);
    expect([res.status, res.out]).toEqual([2, '--max-bytes (or BACKUP_MAX_BYTES) must be a whole number of bytes.\n']);
  });
});

describe('one process on a PGlite directory', () => {
  it('a second server refuses a directory another live process holds, and takes over a lock whose process is gone', async () => {
    const dir = path.join(root, 'locked', 'pglite');
    mkdirSync(path.dirname(dir), { recursive: true });
    const lock = `${dir}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, purpose: 'a backup', since: '2026-11-28T19:00:00.000Z' }));
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(`${dir} is in use by a backup (process ${process.ppid}, since 2026-11-28T19:00:00.000Z). Stop it first; if no such process is running Marquee, remove ${lock}.`);
    expect(existsSync(path.join(dir, 'PG_VERSION'))).toBe(false);
    // A pid no process has (past Linux's pid_max): a crash's leftover.
    writeFileSync(lock, JSON.stringify({ pid: 4_194_305, purpose: 'a Marquee server', since: '2026-11-28T19:00:00.000Z' }));
    const db = await openDatabase({ dataDir: dir });
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(process.pid);
    await db.close();
    expect(existsSync(lock)).toBe(false);
  }, 60_000);
});

// ---- hostile and damaged archives ------------------------------------------------------------

type Entry = { name: string; body?: Buffer; type?: 'file' | 'symlink' | 'link' | 'directory'; linkname?: string };

async function tarOf(entries: Entry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: unknown) => chunks.push(c as Buffer));
  const done = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  for (const e of entries) {
    await new Promise<void>((resolve, reject) =>
      e.type && e.type !== 'file'
        ? pack.entry({ name: e.name, type: e.type, linkname: e.linkname }, (err) => (err ? reject(err) : resolve()))
        : pack.entry({ name: e.name, size: e.body!.length }, e.body!, (err) => (err ? reject(err) : resolve())),
    );
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** The real backup's entries, in order (read once). */
let realEntries: Promise<Entry[]> | undefined;
const entriesOf = (file: string) => (realEntries ??= readEntries(file));
async function readEntries(file: string): Promise<Entry[]> {
  const extract = tar.extract();
  const out: Entry[] = [];
  const reading = new Promise<void>((resolve, reject) => extract.on('finish', () => resolve()).on('error', reject));
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: unknown) => chunks.push(c as Buffer));
    stream.on('end', () => {
      out.push({ name: header.name, body: Buffer.concat(chunks) });
      next();
    });
  });
  extract.end(gunzipSync(readFileSync(file)));
  await reading;
  return out;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** The real backup with some entries added or changed, its manifest rewritten to match (or left alone). */
async function doctored(name: string, change: (entries: Entry[]) => Entry[], opts: { fixManifest?: boolean } = {}): Promise<string> {
  let entries = change(await entriesOf(backupFile));
  if (opts.fixManifest !== false) {
    const m = entries.find((e) => e.name === MANIFEST)!;
    const manifest = JSON.parse(m.body!.toString());
    manifest.entries = Object.fromEntries(entries.filter((e) => e.name !== MANIFEST && e.body).map((e) => [e.name, { size: e.body!.length, sha256: sha(e.body!) }]));
    entries = entries.map((e) => (e === m ? { name: MANIFEST, body: Buffer.from(JSON.stringify(manifest)) } : e));
  }
  const file = path.join(root, `${name}.tar.gz`);
  writeFileSync(file, gzipSync(await tarOf(entries), { level: 1 }));
  return file;
}

describe('restore refuses what a backup never holds, and leaves nothing behind', () => {
  const outside = path.join(root, 'evil');
  const cases: Array<[string, (e: Entry[]) => Entry[], string]> = [
    ['a path climbing out', (e) => [{ name: '../evil', body: Buffer.from('x') }, ...e], 'Refused: the backup holds a file named "../evil"'],
    ['a path climbing out under files/', (e) => [{ name: 'files/../../evil', body: Buffer.from('x') }, ...e], 'Refused: the backup holds a file named "files/../../evil"'],
    ['an absolute path', (e) => [{ name: outside, body: Buffer.from('x') }, ...e], `Refused: the backup holds a file named "${outside}" (outside the backup's own names: no absolute paths, no "..").`],
    ['a symbolic link', (e) => [{ name: 'files/link', type: 'symlink', linkname: '/etc/passwd' }, ...e], 'Refused: the backup holds "files/link", a symlink'],
    ['a hard link', (e) => [{ name: 'files/hard', type: 'link', linkname: 'secret' }, ...e], 'Refused: the backup holds "files/hard", a link'],
    ['a name of its own', (e) => [{ name: 'node_modules/x.js', body: Buffer.from('x') }, ...e], 'Refused: the backup holds a file named "node_modules/x.js"'],
    ['a file twice', (e) => [...e.slice(0, 2), e[1]!, ...e.slice(2)], 'Refused: the backup holds "'],
  ];
  for (const [what, change, message] of cases) {
    it(`refuses ${what}`, { timeout: 60_000 }, async () => {
      const file = await doctored(what.replace(/\W+/g, '-'), change);
      const target = path.join(root, `t-${what.replace(/\W+/g, '-')}`);
      await expect(restoreDataDir({ file, dataDir: target })).rejects.toThrow(message);
      expect(existsSync(target)).toBe(false);
      expect(existsSync(outside)).toBe(false);
      expect(readdirSync(root).filter((n) => n.includes('.restoring-'))).toEqual([]);
    });
  }

  it('refuses a database dump whose own names climb out', async () => {
    const dump = await tarOf([{ name: '/../../evil', body: Buffer.from('x') }]);
    const file = await doctored('dump-climbs', (e) => e.map((x) => (x.name === 'pglite.tar' ? { name: 'pglite.tar', body: dump } : x)));
    await expect(restoreDataDir({ file, dataDir: path.join(root, 't-dump') })).rejects.toThrow('Refused: the database dump holds "/../../evil" (file).');
    expect(existsSync(path.join(root, 't-dump'))).toBe(false);
  });

  it('refuses a file changed after the backup (its checksum), and one the manifest does not list', { timeout: 120_000 }, async () => {
    const changed = await doctored(
      'changed',
      (e) => e.map((x) => (x.name === 'secret' ? { name: 'secret', body: Buffer.from('f'.repeat(x.body!.length)) } : x)),
      { fixManifest: false },
    );
    await expect(restoreDataDir({ file: changed, dataDir: path.join(root, 't-changed') })).rejects.toThrow('The backup is damaged: secret does not match its checksum.');
    const extra = await doctored('extra', (e) => [{ name: 'files/extra.png', body: Buffer.from('x') }, ...e], { fixManifest: false });
    await expect(restoreDataDir({ file: extra, dataDir: path.join(root, 't-extra') })).rejects.toThrow("The backup holds files/extra.png, which its manifest does not list.");
    const missing = await doctored('missing', (e) => e.filter((x) => x.name !== 'secret'), { fixManifest: false });
    await expect(restoreDataDir({ file: missing, dataDir: path.join(root, 't-missing') })).rejects.toThrow('The backup is incomplete: secret is missing.');
    const noManifest = await doctored('no-manifest', (e) => e.filter((x) => x.name !== MANIFEST), { fixManifest: false });
    await expect(restoreDataDir({ file: noManifest, dataDir: path.join(root, 't-nm') })).rejects.toThrow(`has no ${MANIFEST}: it is not a complete Marquee backup.`);
    expect(readdirSync(root).filter((n) => n.startsWith('t-') || n.includes('.restoring-'))).toEqual([]);
  });

  it('refuses what is not a backup at all, and a cut-off one', { timeout: 60_000 }, async () => {
    const junk = path.join(root, 'junk.tar.gz');
    writeFileSync(junk, 'this is not a backup');
    await expect(restoreDataDir({ file: junk, dataDir: path.join(root, 't-junk') })).rejects.toThrow(BackupError);
    await expect(restoreDataDir({ file: junk, dataDir: path.join(root, 't-junk') })).rejects.toThrow(`${junk} is not a readable Marquee backup`);
    const cut = path.join(root, 'cut.tar.gz');
    const whole = readFileSync(backupFile);
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(restoreDataDir({ file: cut, dataDir: path.join(root, 't-cut') })).rejects.toThrow(BackupError);
    expect(readdirSync(root).filter((n) => n.startsWith('t-') || n.includes('.restoring-'))).toEqual([]);
  });

  it('backup refuses a directory without a database, and PostgreSQL (pg_dump is its tool)', async () => {
    await expect(backupDataDir({ dataDir: path.join(root, 'empty'), file: path.join(root, 'e.tar.gz'), storage: 'local' })).rejects.toThrow(
      `There is no embedded database in ${path.join(root, 'empty', 'pglite')} (DATA_DIR).`,
    );
    const res = cli(['backup', 'pg.tar.gz'], { DATABASE_URL: 'postgres://x@127.0.0.1:1/x' });
    expect([res.status, res.out]).toEqual([1, 'DATABASE_URL is set: back up PostgreSQL with pg_dump and the files beside it (docs/backups.md, "PostgreSQL").\n']);
  });
});
