import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client.js';

// PGlite's pool figures (issue 26 metrics) come from wrapping its one lock; the wrapper is put on by
// the first poolStats() (a metrics scrape), so that a server nobody scrapes pays nothing per query.

let database: Database;
const raw = () => (database.db as unknown as { $client: object }).$client;
const wrapped = () => Object.prototype.hasOwnProperty.call(raw(), '_runExclusiveTransaction');

beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
});
afterAll(async () => {
  await database.close();
});

describe('PGlite pool figures', () => {
  it('cost nothing until asked for; asked, they count the query running and the one waiting', async () => {
    await database.db.execute(sql`select 1`);
    expect(wrapped()).toBe(false);

    expect(database.poolStats()).toEqual({ max: 1, inUse: 0, idle: 1, waiting: 0 });
    expect(wrapped()).toBe(true);

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const holding = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      entered();
      await gate;
    });
    let queued: Promise<unknown> = Promise.resolve();
    try {
      await inside;
      // Started (drizzle's query runs when awaited or then-ed); it reaches PGlite's lock a few microtasks later.
      queued = database.db.execute(sql`select 2`).then(() => undefined);
      await expect.poll(() => database.poolStats().waiting).toBe(1);
      expect(database.poolStats()).toEqual({ max: 1, inUse: 1, idle: 0, waiting: 1 });
    } finally {
      release();
      await Promise.all([holding, queued]);
    }
    expect(database.poolStats()).toEqual({ max: 1, inUse: 0, idle: 1, waiting: 0 });
  });
});

describe('PGlite and the event loop (issue 26: reads during a sale on the embedded default)', () => {
  it('lets the event loop turn between two statements: a callback waiting for a turn runs while 200 queued statements run', async () => {
    let done = 0;
    let doneWhenTurned = -1;
    // 200 statements queued at once, as a rush of orders queues them behind PGlite's one lock.
    const all = Array.from({ length: 200 }, () => database.db.execute(sql`select 1`).then(() => void done++));
    // A callback waiting for the event loop's next turn (as a read's socket callback waits).
    setImmediate(() => (doneWhenTurned = done));
    await Promise.all(all);
    expect(done).toBe(200);
    // Without the yield, the 200 ran back to back in one turn and the callback saw all of them done.
    expect(doneWhenTurned).toBeGreaterThanOrEqual(0);
    expect(doneWhenTurned).toBeLessThan(5);
  });

  it('keeps the statements in the order they were sent', async () => {
    await database.db.execute(sql`create temporary table yield_order (n int)`);
    await Promise.all(Array.from({ length: 50 }, (_, i) => database.db.execute(sql`insert into yield_order values (${i})`)));
    const rows = (await database.db.execute(sql`select n from yield_order`)) as unknown as { rows: Array<{ n: number }> };
    expect(rows.rows.map((r) => r.n)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });
});
