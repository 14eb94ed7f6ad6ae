import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { SQL, sql, StringChunk, Table } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { applySqlFunctions, sqlFunctionSources } from './functions.js';
import { lockPgliteDir } from './pglite-lock.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/**
 * One type for both drivers: every repository takes a Db (or a transaction of one). Without
 * Drizzle's relational query API (`db.query.<table>`, unused here): given the schema, Drizzle built
 * a query builder for each of its 80-odd tables at every transaction, a share of a box-office sale's
 * CPU (docs/decisions.md "Issue 23 (box)"). Tables are imported from ./schema where they are used.
 */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

// From source this file is src/db/client.ts; compiled, everything is one dist/main.js (npm start).
const here = path.dirname(fileURLToPath(import.meta.url));
export const MIGRATIONS_DIR = path.resolve(here, path.basename(here) === 'dist' ? '../drizzle' : '../../drizzle');

/**
 * Whether the database already has every migration of this build and its SQL functions as they
 * are: one read, so that a start on an existing database skips the migrator (which reads every
 * migration file and opens a transaction) and the functions' transaction (bench/README.md "Start").
 * Anything unexpected (a new database, no migrations table) answers false and the full path runs.
 */
async function isCurrent(db: Db): Promise<boolean> {
  try {
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ when: number }> };
    const newest = Math.max(...journal.entries.map((e) => e.when));
    const functions = sqlFunctionSources();
    const result = (await db.execute(sql`
      select (select max(created_at) from drizzle.__drizzle_migrations)::text as newest,
        coalesce((select jsonb_agg(obj_description(p.oid, 'pg_proc')) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                  where n.nspname = current_schema() and p.proname in ${functions.map((f) => f.name)}), '[]'::jsonb) as hashes`)) as unknown as {
      rows: Array<{ newest: string | null; hashes: unknown }>;
    };
    const row = result.rows[0];
    const hashes = (typeof row?.hashes === 'string' ? JSON.parse(row.hashes) : row?.hashes) as unknown[];
    return row?.newest === String(newest) && functions.every((f) => hashes.includes(f.hash));
  } catch {
    return false;
  }
}

/** The pool's use now (issue 26 metrics): PGlite is one connection that queries queue for. */
export type PoolStats = { max: number; inUse: number; idle: number; waiting: number };

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  poolStats(): PoolStats;
  /** Brings the schema to this build's head; answers whether it changed anything (false: already current). */
  migrate(): Promise<boolean>;
  /**
   * Runs `fn` while holding the startup lock, so that of several nodes starting together one
   * migrates (or seeds) and the others wait, then find it done (issue 26). On PostgreSQL a
   * session advisory lock; on PGlite, where one process owns the directory, it just runs `fn`.
   */
  exclusively<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/**
 * The key of the advisory lock held around migrating and seeding ('mq' and issue 26). A session
 * lock on a connection of its own: it is released when that connection ends, also if the node dies.
 */
export const STARTUP_LOCK_KEY = 0x6d71_0026;

/** PGlite under dataDir by default ('memory://' for tests); a pg pool when a DATABASE_URL is given. */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  /** A PGlite data directory dump to start from (tests start from an already migrated one). */
  loadDataDir?: Blob;
}): Promise<Database> {
  if (opts.databaseUrl) {
    // 10, not 20: on a 2-core node the pool only needs to cover the round-trip latency; more
    // connections add PostgreSQL backends competing with Node for the same cores and more waiters
    // on the hot rows (bench/README.md: about 10% more holds a second and a lower p99 than 20).
    const max = opts.poolSize ?? 10;
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max });
    // An idle connection the server drops (a restart, a failover) emits 'error' on the pool; unheard, it
    // would end the process. The pool discards that connection and the next query opens another.
    pool.on('error', (err) => console.error(JSON.stringify({ level: 'error', msg: 'postgres: idle connection lost', err: err.message })));
    const db = drizzlePg(pool) as unknown as Db;
    const exclusively = async <T>(fn: () => Promise<T>): Promise<T> => {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
        try {
          return await fn();
        } finally {
          await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch((err: Error) => (broken = err));
        }
      } finally {
        // A connection whose unlock failed is closed, not pooled: closing it releases the lock.
        client.release(broken);
      }
    };
    return {
      db,
      kind: 'postgres',
      poolStats: () => ({ max, inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      // Checked before the lock (a start on a current database waits for no one) and again under it
      // (another node may have migrated while this one waited).
      migrate: async () => {
        if (await isCurrent(db)) return false;
        return exclusively(async () => {
          if (await isCurrent(db)) return false;
          await migratePg(drizzlePg(pool), { migrationsFolder: MIGRATIONS_DIR });
          await applySqlFunctions(db);
          return true;
        });
      },
      exclusively,
      close: () => pool.end(),
    };
  }
  const dir = opts.dataDir ?? 'memory://';
  let unlock = () => {};
  if (!dir.startsWith('memory://')) {
    mkdirSync(dir, { recursive: true });
    // One process on a PGlite directory at a time (a second server or a backup would corrupt it).
    unlock = lockPgliteDir(dir, 'a Marquee server');
  }
  const client = opts.loadDataDir ? new PGlite(dir, { loadDataDir: opts.loadDataDir }) : new PGlite(dir);
  try {
    await client.waitReady;
  } catch (err) {
    unlock();
    throw err;
  }
  yieldBetweenQueries(client);
  // Counted only once someone asks (the first metrics scrape): until then every query runs unwrapped.
  let use: { active: number; queued: number } | null = null;
  const db = drizzlePglite(client) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    poolStats: () => {
      use ??= countPgliteUse(client);
      return { max: 1, inUse: use.active, idle: use.active ? 0 : 1, waiting: use.queued };
    },
    migrate: async () => {
      if (await isCurrent(db)) return false;
      await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR });
      await applySqlFunctions(db);
      return true;
    },
    exclusively: (fn) => fn(),
    close: async () => {
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
  };
}

/**
 * PGlite runs one query or transaction at a time and queues the rest behind its own lock, which it
 * does not expose: every query, exec and transaction goes through `_runExclusiveTransaction`, so
 * counting there tells how many wait and whether one runs (two counter updates and a closure per
 * call). It is installed by the first `poolStats()` (a metrics scrape), so that a server nobody
 * scrapes pays nothing for it: the calls already running then are not counted (the gauges start
 * from what runs after), and none is counted twice or goes negative. A PGlite without that method
 * (a future version) reports nothing waiting.
 */
function countPgliteUse(client: PGlite): { active: number; queued: number } {
  const use = { active: 0, queued: 0 };
  const c = client as unknown as { _runExclusiveTransaction?: <T>(fn: () => Promise<T>) => Promise<T> };
  const run = c._runExclusiveTransaction;
  if (typeof run !== 'function') return use;
  c._runExclusiveTransaction = function <T>(fn: () => Promise<T>): Promise<T> {
    use.queued++;
    return run.call(client, () => {
      use.queued--;
      use.active++;
      return fn().finally(() => use.active--);
    }) as Promise<T>;
  };
  return use;
}

/**
 * PGlite runs each statement synchronously in WebAssembly on this thread, and the statements waiting
 * for it follow one another through promise callbacks only: a rush of orders was one turn of the event
 * loop of two seconds and more (every queued statement run back to back), and a read of the event page,
 * answered from memory in a fraction of a millisecond, waited that long (issue 26: reads during a
 * sale on the embedded default, bench/README.md "fifth pass"). So each statement, once it holds
 * PGlite's query lock, first lets the event loop take one turn (`setImmediate`): the waiting network
 * callbacks run between two statements, and the statements keep their order (the lock is FIFO and held
 * across the yield). A PGlite without that method (a future version) runs as before.
 */
function yieldBetweenQueries(client: PGlite): void {
  const c = client as unknown as { _runExclusiveQuery?: <T>(fn: () => Promise<T>) => Promise<T> };
  const run = c._runExclusiveQuery;
  if (typeof run !== 'function') return;
  c._runExclusiveQuery = function <T>(fn: () => Promise<T>): Promise<T> {
    return run.call(client, () => new Promise<void>((resolve) => setImmediate(resolve)).then(fn)) as Promise<T>;
  };
}

type RawClient = {
  query(text: string | { name: string; text: string; values: unknown[] }, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  totalCount?: number;
};

/**
 * Runs a fixed statement outside any transaction: prepared by name on a pg pool (parsed and planned
 * once per connection), as is on PGlite. For the few hot paths where Drizzle's query building and
 * re-planning cost more than the statement itself (bench/README.md); the text must be a constant.
 */
export async function runPrepared(db: Db, name: string, text: string, values: unknown[]): Promise<Array<Record<string, unknown>>> {
  const client = (db as unknown as { $client: RawClient }).$client;
  // A pg Pool counts its clients; PGlite has no named prepared statements to ask for.
  const res = typeof client.totalCount === 'number' ? await client.query({ name, text, values }) : await client.query(text, values);
  return res.rows;
}

/** A boolean column of a raw row: node-postgres answers true/false, a row read as text 't'/'f'. */
export const rowBool = (v: unknown): boolean => v === true || v === 't';

/** How many migrations this build ships (its journal's entries). */
export function shippedMigrations(): number {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

/**
 * Migrations applied vs. migrations shipped, for /api/health and /readyz (`shipped` given: the
 * journal is not read again). A database that answers but was never migrated has 0 applied.
 */
export async function migrationStatus(db: Db, shipped: number = shippedMigrations()): Promise<{ applied: number; shipped: number }> {
  const rows = (await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as migrated`)) as unknown as { rows: Array<{ migrated: boolean }> };
  if (!rows.rows[0]?.migrated) return { applied: 0, shipped };
  const counted = await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  const applied = Number((counted as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0);
  return { applied, shipped };
}

const inlineDialect = new PgDialect();

/**
 * pg.escapeLiteral's literal, the same text (quotes and backslashes doubled, ` E` before it when it
 * has a backslash), by one native replace instead of pg's loop adding a character at a time: a
 * sale's JSON parameters (a few kB) took pg's loop about 45 µs a kilobyte of the server's one
 * thread (issue 23, bo3). db/client.test.ts compares the two.
 */
export function escapeLiteral(v: string): string {
  const quoted = `'${v.replace(/['\\]/g, '$&$&')}'`;
  return v.includes('\\') ? ` E${quoted}` : quoted;
}

/** A parameter as a quoted SQL literal of unknown type, as the extended protocol sends it (text, its type inferred from where it stands). */
function literalOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return escapeLiteral(v);
  if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'bigint' || typeof v === 'boolean') return `'${String(v)}'`;
  throw new Error(`runInOneTrip: no literal for a parameter of type ${typeof v}`);
}

const TABLE_NAME = Symbol.for('drizzle:Name');
const TABLE_SCHEMA = Symbol.for('drizzle:Schema');
/** writeInlined met a chunk it does not write (drizzle's sqlToQuery then does). */
const NOT_WRITTEN = Symbol('not written');

/**
 * The statement's text with its parameters written in as literals, for the chunks a one-trip
 * statement is made of (text, nested sql, a table of the public schema, a string, number, boolean
 * or null parameter): the text inlinedSql writes through drizzle's sqlToQuery, in one walk (issue 23
 * bo3: drizzle's build, the placeholders' replace and pg's literals took 0.11-0.17 ms of CPU a
 * box-office sale, the walk 0.04-0.05 ms). Anything else answers NOT_WRITTEN; client.test.ts checks the two agree.
 */
function writeInlined(query: SQL, out: string[]): typeof NOT_WRITTEN | undefined {
  if ((query as unknown as { shouldInlineParams?: boolean }).shouldInlineParams) return NOT_WRITTEN;
  for (const chunk of query.queryChunks as unknown[]) {
    if (chunk instanceof StringChunk) out.push(chunk.value.join(''));
    else if (chunk instanceof SQL) {
      if (writeInlined(chunk, out) === NOT_WRITTEN) return NOT_WRITTEN;
    } else if (chunk === undefined) continue;
    else if (chunk instanceof Table) {
      const t = chunk as unknown as Record<symbol, unknown>;
      if (t[TABLE_SCHEMA] !== undefined || typeof t[TABLE_NAME] !== 'string') return NOT_WRITTEN;
      out.push(`"${(t[TABLE_NAME] as string).replace(/"/g, '""')}"`);
    } else if (chunk === null || typeof chunk === 'string' || typeof chunk === 'boolean' || typeof chunk === 'bigint' || (typeof chunk === 'number' && Number.isFinite(chunk))) {
      out.push(literalOf(chunk));
    } else return NOT_WRITTEN;
  }
  return undefined;
}

/** A statement with its parameters written in as literals (each placeholder, checked to be all and only its parameters). */
export function inlinedSql(query: SQL): string {
  return inlinedInOneWalk(query) ?? inlinedByDrizzle(query);
}

/** inlinedSql's text in one walk of the statement's chunks, or null when it has a chunk the walk does not write. */
export function inlinedInOneWalk(query: SQL): string | null {
  const out: string[] = [];
  return writeInlined(query, out) === NOT_WRITTEN ? null : out.join('');
}

/** inlinedSql through drizzle's sqlToQuery: its text with $n placeholders, each replaced by its parameter's literal. */
export function inlinedByDrizzle(query: SQL): string {
  const { sql: text, params } = inlineDialect.sqlToQuery(query);
  const seen = new Set<number>();
  const out = text.replace(/\$(\d+)/g, (_, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= params.length) throw new Error(`runInOneTrip: placeholder $${n} without a parameter`);
    seen.add(i);
    return literalOf(params[i]);
  });
  if (seen.size !== params.length) throw new Error('runInOneTrip: a parameter without its placeholder');
  return out;
}

/**
 * Issue 23 (perreq): a transaction of a few statements sent to PostgreSQL as ONE message (the simple
 * query protocol: BEGIN, the statements with their parameters written in as literals, COMMIT), on
 * one pooled connection. The locks its statements take are released by the COMMIT as soon as
 * PostgreSQL has run them, not after their answers have waited for the server's busy event loop and
 * a COMMIT has been sent back. A statement that fails aborts the transaction: PostgreSQL runs
 * nothing after it in the message (the COMMIT neither), and the connection is rolled back here.
 * Answers each statement's rows; null on PGlite (no pool: the caller runs its ordinary transaction).
 */
export async function runInOneTrip(db: Db, statements: SQL[]): Promise<Array<Array<Record<string, unknown>>> | null> {
  const pool = (db as unknown as { $client: unknown }).$client;
  if (!(pool instanceof pg.Pool)) return null;
  const text = ['begin', ...statements.map(inlinedSql), 'commit'].join(';\n');
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const results = (await client.query(text)) as unknown as Array<{ rows: Array<Record<string, unknown>> }>;
    return results.slice(1, -1).map((r) => r.rows);
  } catch (err) {
    // The message stopped at the failed statement: its transaction is aborted, rolled back here.
    await client.query('rollback').catch((e: Error) => (broken = e));
    throw err;
  } finally {
    client.release(broken);
  }
}
