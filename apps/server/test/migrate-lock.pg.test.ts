import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../src/db/client.js';
import { freePort, startServerProcess, type ServerProcess } from './server-process.js';

// Issue 26: three app nodes (the compiled server, as `npm start` runs it) start at the same moment
// on one fresh PostgreSQL database. The migrations and the first seed run once, under an advisory
// lock: every node comes up, the migrations table holds each migration once, one platform admin
// and one demo tenant exist, and no node logged an error. PostgreSQL only (*.pg.test.ts).

const adminUrl = process.env.TEST_DATABASE_URL!;
const name = `mq_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'marquee-migrate-lock-'));
const nodes: ServerProcess[] = [];

async function admin<T>(fn: (c: pg.Client) => Promise<T>, connectionString = adminUrl): Promise<T> {
  const c = new pg.Client({ connectionString });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.kill()));
  await admin((c) => c.query(`drop database if exists ${name} with (force)`));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('three nodes starting at once on a fresh PostgreSQL database (issue 26)', () => {
  it('all come up; the migrations and the seed ran once, with no error', async () => {
    await admin((c) => c.query(`create database ${name}`));
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    const started = await Promise.allSettled(
      ports.map((port, i) =>
        startServerProcess({
          name: `node-${i + 1}`,
          port,
          startTimeoutMs: 90_000,
          env: {
            DATABASE_URL: url,
            DATA_DIR: path.join(dataDir, `node-${i + 1}`),
            SECRET: 'migrate-lock-secret-migrate-lock-secret-01',
            SEED_DEMO: 'true',
            JOBS_POLL_MS: '200',
            JOBS_NODE_ID: `node-${i + 1}`,
            LOG_LEVEL: 'info',
          },
        }),
      ),
    );
    for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
    expect(started.map((s) => (s.status === 'rejected' ? String(s.reason).slice(0, 2000) : 'up'))).toEqual(['up', 'up', 'up']);

    const shipped = (JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;
    const counts = await admin(
      async (c) =>
        (
          await c.query(`select (select count(*)::int from drizzle.__drizzle_migrations) as migrations,
                                (select count(distinct hash)::int from drizzle.__drizzle_migrations) as distinct_migrations,
                                (select count(*)::int from users where email = 'admin@marquee.test') as admins,
                                (select count(*)::int from tenants where url = 'acme') as demo_tenants`)
        ).rows[0],
      url,
    );
    expect(counts).toEqual({ migrations: shipped, distinct_migrations: shipped, admins: 1, demo_tenants: 1 });

    // One node migrated and seeded; the others found both done.
    const logs = nodes.map((n) => n.output());
    expect(logs.filter((l) => l.includes('"database migrated"')).length).toBe(1);
    expect(logs.filter((l) => l.includes('(demo data seeded)')).length).toBe(1);
    for (const [i, l] of logs.entries()) expect(l.split('\n').filter((line) => /"level":(50|60)/.test(line)), `node-${i + 1}`).toEqual([]);
    for (const n of nodes) expect((await fetch(`http://127.0.0.1:${n.port}/api/health`)).status).toBe(200);
  }, 150_000);
});
