import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { orders, tickets } from '../db/schema/index.js';
import { Client, givenEventOnSale, givenTenant, givenUser, startServer, type TestServer } from '../../test/harness.js';
import { givenPaidOrder, type PaidOrder } from '../../test/fixtures/paid-orders.js';

// Issue 26: PostgreSQL is backed up with its own tools, as docs/backups.md tells an operator:
// pg_dump --format=custom while the server runs (one consistent snapshot), the local files' folder
// and the secret copied beside it; pg_restore into a new, empty database, the files unpacked into
// a new DATA_DIR, and a server started on them finds the same orders, tickets and files.

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const adminUrl = process.env.TEST_DATABASE_URL!;
const work = mkdtempSync(path.join(os.tmpdir(), 'marquee-pg-backup-'));
const restoredDb = `mq_restored_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
const urlOf = (name: string) => Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();

let server: TestServer;
let tenantId: string;
let tenantUrl: string;
let user: { email: string; password: string };
let paid: PaidOrder[];
let coverUrl: string;
let coverBytes: Buffer;

async function rowsOf(db: TestServer['app']['deps']['db']) {
  return {
    orders: await db.select({ id: orders.id, status: orders.status, totalAmount: orders.totalAmount, paidAt: orders.paidAt }).from(orders).where(eq(orders.tenantId, tenantId)).orderBy(asc(orders.id)),
    tickets: await db.select({ ticketUid: tickets.ticketUid, orderId: tickets.orderId }).from(tickets).where(eq(tickets.tenantId, tenantId)).orderBy(asc(tickets.ticketUid)),
  };
}

async function adminQuery(text: string) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  server = await startServer();
  const tenant = await givenTenant(server, { name: 'PG Backup Hall' });
  [tenantId, tenantUrl] = [tenant.id, tenant.url];
  user = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } });
  const admin = server.client(tenant.url);
  await admin.login(user.email, user.password);
  const event = await givenEventOnSale(server, tenant.id);
  paid = [await givenPaidOrder(server, tenant.id, { eventId: event.id }), await givenPaidOrder(server, tenant.id, { eventId: event.id })];
  const png = await sharp({ create: { width: 800, height: 400, channels: 3, background: { r: 20, g: 160, b: 90 } } }).png().toBuffer();
  const up = await admin.upload(`/api/tenants/${tenant.id}/events/${event.id}/cover`, 'file', 'cover.png', png, 'image/png');
  expect(up.status).toBe(200);
  coverUrl = up.body.details.coverImageUrl;
  coverBytes = (await server.client(tenant.url).get(coverUrl)).raw;
});
afterAll(async () => {
  await server?.close();
  await adminQuery(`drop database if exists ${restoredDb} with (force)`).catch(() => {});
  rmSync(work, { recursive: true, force: true });
});

describe('PostgreSQL: pg_dump / pg_restore and the files beside them (docs/backups.md)', () => {
  it('restores into a new database and DATA_DIR: the same orders, tickets, files and accounts', { timeout: 180_000 }, async () => {
    expect(existsSync(path.join(PG_BIN, 'pg_dump')), `pg_dump under ${PG_BIN} (PG_BIN)`).toBe(true);
    const before = await rowsOf(server.app.deps.db);
    expect([before.orders.length, before.tickets.length]).toEqual([2, 6]);

    // Backup, while the server runs: the documented commands.
    const dump = path.join(work, 'marquee.dump');
    execFileSync(path.join(PG_BIN, 'pg_dump'), ['--format=custom', '--no-owner', `--file=${dump}`, `--dbname=${server.config.databaseUrl}`]);
    const filesTar = path.join(work, 'marquee-files.tar.gz');
    execFileSync('tar', ['-C', server.config.dataDir, '-czf', filesTar, 'files']);

    // Restore: a new, empty database and a new DATA_DIR.
    await adminQuery(`create database ${restoredDb}`);
    execFileSync(path.join(PG_BIN, 'pg_restore'), ['--no-owner', '--exit-on-error', '--single-transaction', `--dbname=${urlOf(restoredDb)}`, dump]);
    const dataDir = path.join(work, 'restored');
    mkdirSync(dataDir);
    execFileSync('tar', ['-C', dataDir, '-xzf', filesTar]);

    // A server on them, with the same SECRET (set in the environment of a PostgreSQL deployment).
    const config = loadConfig({ LOG_LEVEL: 'silent', JOBS_POLL_MS: '0', PUBLIC_SNAPSHOT_MS: '0', RATE_LIMIT_AUTH_PER_MINUTE: '1000' }, {
      dataDir,
      port: 0,
      secret: server.config.secret,
      databaseUrl: urlOf(restoredDb),
      webDist: path.join(work, 'no-web'),
    });
    const database = await openDatabase({ databaseUrl: config.databaseUrl });
    await database.migrate();
    const app = await buildApp(config, database);
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      expect(await rowsOf(app.deps.db)).toEqual(before);
      const site = new Client(port, `${tenantUrl}.${config.baseDomain}:${port}`);
      await site.login(user.email, user.password);
      for (const o of paid) {
        const page = await site.get(`/api/tenants/${tenantId}/events/${o.eventId}/orders/${o.orderUid}`);
        expect(page.status).toBe(200);
        expect(JSON.stringify(page.body)).toContain(o.orderUid);
        expect((await app.deps.storage.get(`tickets/${tenantId}/${o.orderId}/tickets.pdf`))?.bytes.subarray(0, 5).toString()).toBe('%PDF-');
      }
      const cover = await site.get(coverUrl);
      expect([cover.status, cover.raw.equals(coverBytes)]).toEqual([200, true]);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
