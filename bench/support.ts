// What the benchmarks share: a scratch PostgreSQL database, the whole server started in this process
// on loopback (a scratch data directory, PGlite or that database), a tenant to seed, and percentiles.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServerApi } from './server.js';

/** The nearest-rank percentile `p` (0 to 100) of ascending `sorted`; 0 when there is none. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The PostgreSQL server the benchmark needs, from DATABASE_URL; exits (2) with a hint when none is given. */
export function requirePostgres(script: string): string {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl?.startsWith('postgres')) {
    console.error(`bench/${script} needs DATABASE_URL=postgres://… (a real PostgreSQL server).`);
    process.exit(2);
  }
  return adminUrl;
}

export type ScratchDatabase = {
  name: string;
  url: string;
  /** A connection to the server as given (to look at pg_stat_activity, say). */
  admin: import('pg').Client;
  /** Drops it (unless BENCH_KEEP_DB=1) and closes `admin`. */
  drop(): Promise<void>;
};

/** A new database on the PostgreSQL server at `adminUrl`, to be dropped afterwards. */
export async function scratchDatabase(adminUrl: string): Promise<ScratchDatabase> {
  const { default: pg } = await import('pg');
  const name = `mq_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    admin,
    async drop() {
      if (process.env.BENCH_KEEP_DB !== '1') {
        // pool.end() resolves before its sockets close: let them go before forcing the drop (a forced
        // drop under them would surface as an unhandled pool error).
        for (let i = 0; i < 100; i++) {
          const open = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
          if (open.rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await admin.query(`drop database if exists ${name} with (force)`);
      }
      await admin.end();
    },
  };
}

type App = Awaited<ReturnType<ServerApi['buildApp']>>;

export type BenchServer = {
  app: App;
  deps: App['deps'];
  config: ReturnType<ServerApi['loadConfig']>;
  database: Awaited<ReturnType<ServerApi['openDatabase']>>;
  port: number;
  /** The scratch database, when the server runs on PostgreSQL. */
  scratch: ScratchDatabase | null;
  /** Closes the server and the database, drops the scratch database and removes the data directory. */
  close(): Promise<void>;
};

/**
 * Starts the whole server in this process on loopback: on a scratch database of the PostgreSQL server
 * at `adminUrl` when one is given, else on PGlite in a scratch data directory. `env` is the server's
 * environment (LOG_LEVEL, JOBS_POLL_MS, PAYMENT_DRIVER, rate limits…); `webDist` the built web app it
 * serves (none by default).
 */
export async function startServer({
  api,
  adminUrl,
  env,
  poolSize,
  webDist,
  logStream,
}: {
  api: ServerApi;
  adminUrl: string | undefined;
  env: NodeJS.ProcessEnv;
  poolSize?: number;
  webDist?: string;
  /** Where the server's log lines go when env.LOG_LEVEL is not silent (else the process's stdout, as in production). */
  logStream?: { write(line: string): void };
}): Promise<BenchServer> {
  const scratch = adminUrl ? await scratchDatabase(adminUrl) : null;
  const databaseUrl = scratch?.url;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'marquee-bench-'));
  const database = await api.openDatabase({ databaseUrl, dataDir: path.join(dataDir, 'pglite'), poolSize });
  let app: App | null = null;
  const close = async () => {
    try {
      await app?.close();
      app = null;
    } finally {
      await database.close();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
  try {
    await database.migrate();
    const config = api.loadConfig(env, {
      dataDir,
      secret: 'bench-secret-bench-secret-bench-secret-01',
      port: 0,
      databaseUrl,
      webDist: webDist ?? path.join(dataDir, 'no-web'),
    });
    app = await api.buildApp(config, database, logStream ? { logStream } : {});
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    config.publicPort = String(port);
    return { app, deps: app.deps, config, database, port, scratch, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** A tenant made through the real use case (with the global fee defaults it reads), and its host on the running server. */
export async function seedTenant(api: ServerApi, server: BenchServer, { name, url }: { name: string; url: string }) {
  await api.ensureGlobalFeeDefaults(server.deps);
  const tenant = await api.createTenant({
    deps: server.deps,
    input: { details: { name, url, email: `${url}@example.test`, phone: '+15555550100', inviteTemplateSubject: 'Join', inviteTemplateBody: 'Join us.' } },
  });
  return { tenant, host: `${url}.${server.config.baseDomain}:${server.port}` };
}

/**
 * A published general-admission event a month ahead with one ticket type (General Admission, $45.00)
 * of `tickets`, written straight to the tables (the benches measure selling, not setting up). `extra`
 * adds event columns (a description, a venue) where a bench reads the page.
 */
export async function seedGaEvent(
  api: ServerApi,
  server: BenchServer,
  tenantId: string,
  { name, urlName, tickets, extra = {} }: { name: string; urlName: string; tickets: number; extra?: Record<string, unknown> },
) {
  const eventId = randomUUID();
  const ticketTypeId = randomUUID();
  await server.deps.db.insert(api.events).values({
    tenantId,
    id: eventId,
    name,
    urlName,
    status: 'published',
    startDateTime: new Date(Date.now() + 30 * 86400_000),
    capacity: tickets,
    remainingCapacity: tickets,
    ...extra,
  });
  await server.deps.db.insert(api.ticketTypes).values({ tenantId, id: ticketTypeId, eventId, name: 'General Admission', price: 4500, quantity: tickets, remaining: tickets });
  return { eventId, ticketTypeId, urlName };
}

/** `idle`: a job claim that claimed nothing (its answer only the clock's row: an idle poll). */
export type LoggedStatement = { text: string; ms: number; idle?: boolean };
const idleClaim = (res: unknown) => {
  const rows = (res as { rows?: Array<Record<string, unknown>> } | undefined)?.rows;
  return !!rows && rows.length === 1 && 'now' in rows[0]! && 'max_attempts' in rows[0]! && rows[0]!.id === null;
};

/** Counts (and, while `log` is set, lists with its time) every statement the server's pg clients send, in this process; `stop` puts pg back. */
export async function watchStatements(width = 150) {
  const pg = (await import('pg')).default;
  const state = { count: 0, log: null as LoggedStatement[] | null };
  const original = pg.Client.prototype.query;
  (pg.Client.prototype as any).query = function (this: unknown, ...args: any[]) {
    state.count++;
    const log = state.log;
    if (!log) return (original as any).apply(this, args);
    const started = performance.now();
    const q = args[0];
    const text = String(typeof q === 'string' ? q : (q?.text ?? q?.name ?? '?')).replace(/\s+/g, ' ').slice(0, width);
    const done = (failed: boolean, res?: unknown) => log.push({ text: `${failed ? '(failed) ' : ''}${text}`, ms: performance.now() - started, ...(idleClaim(res) ? { idle: true } : {}) });
    // pg's pool passes a callback (and gets no promise back).
    const cb = args.findIndex((a) => typeof a === 'function');
    if (cb >= 0) {
      const inner = args[cb];
      args[cb] = (err: unknown, res: unknown) => {
        done(!!err, res);
        inner(err, res);
      };
    }
    const out = (original as any).apply(this, args);
    if (out && typeof out.then === 'function') void out.then((res: unknown) => done(false, res), () => done(true));
    return out;
  };
  return { state, stop: () => void ((pg.Client.prototype as any).query = original) };
}
