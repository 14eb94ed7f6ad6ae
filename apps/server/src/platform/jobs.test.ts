import { and, eq, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { jobs as jobsTable, outbox } from '../db/schema/index.js';
import { createJobs } from './jobs.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.deps.db;
const jobs = () => server.app.deps.jobs;
let n = 0;
const jobName = (what: string) => `test.${what}.${++n}`;
const rowsOf = (name: string) => db().select().from(jobsTable).where(eq(jobsTable.name, name)).orderBy(jobsTable.id);
/** Moves a job's next run into the past, as if its backoff had elapsed. */
const makeDue = (name: string) => db().update(jobsTable).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobsTable.name, name));

describe('enqueue is transactional', () => {
  it('leaves no job when the transaction rolls back, and one when it commits', async () => {
    const name = jobName('tx');
    const calls: unknown[] = [];
    jobs().register(name, async (payload) => {
      calls.push(payload);
    });
    await expect(
      db().transaction(async (tx) => {
        await jobs().enqueue(tx, name, { which: 'rolled back' });
        throw new Error('the use case failed');
      }),
    ).rejects.toThrow('the use case failed');
    expect(await rowsOf(name)).toHaveLength(0);

    await db().transaction(async (tx) => {
      await jobs().enqueue(tx, name, { which: 'committed' });
    });
    expect(await rowsOf(name)).toHaveLength(1);
    await jobs().drain();
    expect(calls).toEqual([{ which: 'committed' }]);
    const [row] = await rowsOf(name);
    expect(row!.doneAt).toBeInstanceOf(Date);
    expect(row!.attempts).toBe(1);
    expect(row!.lockedUntil).toBeNull();
  });

  it('a mail exists exactly when its transaction committed', async () => {
    await expect(
      db().transaction(async (tx) => {
        await server.app.deps.mailer.send(tx, { to: 'ghost@example.test', subject: 'never', text: 'never' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await db().select().from(outbox).where(eq(outbox.to, 'ghost@example.test'))).toHaveLength(0);
  });
});

describe('retries', () => {
  it('retries a failing handler with exponential backoff and marks it failed after max attempts', async () => {
    const name = jobName('always-fails');
    const attempts: number[] = [];
    jobs().register(name, async (_payload, info) => {
      attempts.push(info.attempt);
      throw new Error(`boom ${info.attempt}`);
    });
    await db().transaction((tx) => jobs().enqueue(tx, name, {}, { maxAttempts: 3 }));

    /** The database's clock, exact to the microsecond (as text, so that nothing is rounded on the way). */
    const dbClock = async () =>
      (await db().execute(sql`select clock_timestamp()::text as t`).then((res) => (res as unknown as { rows: Array<{ t: string }> }).rows))[0]!.t;
    /**
     * Runs the due jobs, then checks that the failure scheduled the next run exactly `seconds` after
     * the moment it was recorded: that moment (run_at - seconds) lies between database clock readings
     * taken just before and just after the run, however long the run took.
     */
    const runAndExpectBackoff = async (seconds: number) => {
      const before = await dbClock();
      await jobs().runDue();
      const after = await dbClock();
      const [r] = await db()
        .execute(
          sql`select run_at - make_interval(secs => ${seconds}) >= ${before}::timestamptz as "notEarly",
                     run_at - make_interval(secs => ${seconds}) <= ${after}::timestamptz as "notLate",
                     run_at::text as "runAt"
              from jobs where name = ${name}`,
        )
        .then((res) => (res as unknown as { rows: Array<{ notEarly: boolean; notLate: boolean; runAt: string }> }).rows);
      expect({ ...r, before, after }).toEqual({ notEarly: true, notLate: true, runAt: expect.any(String), before, after });
    };

    await runAndExpectBackoff(2);
    let [row] = await rowsOf(name);
    expect(row).toMatchObject({ attempts: 1, lastError: 'boom 1', failedAt: null, doneAt: null, lockedUntil: null });
    // Not due yet: nothing runs.
    await jobs().drain();
    expect(attempts).toEqual([1]);

    await makeDue(name);
    await runAndExpectBackoff(4);
    [row] = await rowsOf(name);
    expect(row).toMatchObject({ attempts: 2, lastError: 'boom 2', failedAt: null });

    await makeDue(name);
    await jobs().runDue();
    [row] = await rowsOf(name);
    expect(row!.attempts).toBe(3);
    expect(row!.lastError).toBe('boom 3');
    expect(row!.failedAt).toBeInstanceOf(Date);
    expect(row!.doneAt).toBeNull();

    // Failed for good: never claimed again.
    await makeDue(name);
    await jobs().drain();
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('a handler that fails once succeeds on the retry', async () => {
    const name = jobName('flaky');
    const seen: number[] = [];
    jobs().register(name, async (_p, info) => {
      seen.push(info.attempt);
      if (info.attempt === 1) throw new Error('transient');
    });
    await db().transaction((tx) => jobs().enqueue(tx, name, {}));
    await jobs().drain();
    await makeDue(name);
    await jobs().drain();
    expect(seen).toEqual([1, 2]);
    const [row] = await rowsOf(name);
    expect(row!.doneAt).toBeInstanceOf(Date);
    expect(row!.failedAt).toBeNull();
  });

  it('records a job with no handler as failing, not as done', async () => {
    const name = jobName('unhandled');
    await db().transaction((tx) => jobs().enqueue(tx, name, {}, { maxAttempts: 1 }));
    await jobs().drain();
    const [row] = await rowsOf(name);
    expect(row!.lastError).toBe(`No handler for job ${name}`);
    expect(row!.failedAt).toBeInstanceOf(Date);
    expect(row!.doneAt).toBeNull();
  });

  it('runs again a job whose worker died after claiming it (lock expired)', async () => {
    const name = jobName('orphan');
    let runs = 0;
    jobs().register(name, async () => {
      runs++;
    });
    await db().transaction((tx) => jobs().enqueue(tx, name, {}));
    // A worker claimed it, then vanished: attempts counted, lock in the past, never finished.
    await db().update(jobsTable).set({ attempts: 1, lockedUntil: new Date(Date.now() - 1000) }).where(eq(jobsTable.name, name));
    await jobs().drain();
    expect(runs).toBe(1);
    // A live lock is respected.
    const other = jobName('locked');
    jobs().register(other, async () => {
      runs++;
    });
    await db().transaction((tx) => jobs().enqueue(tx, other, {}));
    await db().update(jobsTable).set({ attempts: 1, lockedUntil: new Date(Date.now() + 60_000) }).where(eq(jobsTable.name, other));
    await jobs().drain();
    expect(runs).toBe(1);
  });
});

describe('scheduling and dedupe', () => {
  it('does not run a job before its runAt', async () => {
    const name = jobName('later');
    let ran = false;
    jobs().register(name, async () => {
      ran = true;
    });
    await db().transaction((tx) => jobs().enqueue(tx, name, {}, { runAt: new Date(Date.now() + 3600_000) }));
    await jobs().drain();
    expect(ran).toBe(false);
    await makeDue(name);
    await jobs().drain();
    expect(ran).toBe(true);
  });

  it('keeps one job per dedupe key, also across transactions, and any number without a key', async () => {
    const name = jobName('dedupe');
    const payloads: unknown[] = [];
    jobs().register(name, async (p) => {
      payloads.push(p);
    });
    const key = `${name}:order-1`;
    await db().transaction(async (tx) => {
      await jobs().enqueue(tx, name, { n: 1 }, { dedupeKey: key });
      await jobs().enqueue(tx, name, { n: 2 }, { dedupeKey: key });
    });
    await db().transaction((tx) => jobs().enqueue(tx, name, { n: 3 }, { dedupeKey: key }));
    await db().transaction((tx) => jobs().enqueue(tx, name, { n: 4 }, { dedupeKey: `${name}:order-2` }));
    await db().transaction(async (tx) => {
      await jobs().enqueue(tx, name, { n: 5 });
      await jobs().enqueue(tx, name, { n: 6 });
    });
    expect(await db().select().from(jobsTable).where(and(eq(jobsTable.name, name), eq(jobsTable.dedupeKey, key)))).toHaveLength(1);
    await jobs().drain();
    expect(payloads.map((p) => (p as { n: number }).n).sort()).toEqual([1, 4, 5, 6]);
  });

  it('runs each job once even when three workers poll at the same time', async () => {
    const name = jobName('parallel');
    const runs = new Map<number, number>();
    // A barrier: each worker runs its jobs one after another, so the first job of every worker
    // waits until three jobs are running at once, that is until all three workers have claimed
    // their share. The workers certainly overlap, whatever the machine's speed.
    let running = 0;
    let releaseAll!: () => void;
    const allThreeRunning = new Promise<void>((r) => (releaseAll = r));
    jobs().register(name, async (_p, info) => {
      runs.set(info.jobId, (runs.get(info.jobId) ?? 0) + 1);
      if (++running === 3) releaseAll();
      await allThreeRunning;
    });
    await db().transaction(async (tx) => {
      for (let i = 0; i < 12; i++) await jobs().enqueue(tx, name, { i });
    });
    const claimed = await Promise.all([jobs().runDue(5), jobs().runDue(5), jobs().runDue(5)]);
    // Three disjoint claims of at most 5 that together took all 12 jobs.
    expect(claimed.every((n) => n > 0 && n <= 5)).toBe(true);
    expect(claimed.reduce((a, b) => a + b, 0)).toBe(12);
    const rows = await rowsOf(name);
    expect(rows.map((r) => ({ attempts: r.attempts, done: r.doneAt instanceof Date }))).toEqual(rows.map(() => ({ attempts: 1, done: true })));
    expect(runs.size).toBe(12);
    expect([...runs.values()].every((v) => v === 1)).toBe(true);
  });

  it('the worker loop picks up due jobs by itself and stops cleanly', async () => {
    const name = jobName('loop');
    const worker = createJobs(db(), server.app.log, 20, { kinds: [name] });
    let resolveWorker!: () => void;
    const ranInWorker = new Promise<void>((r) => (resolveWorker = r));
    worker.register(name, async () => resolveWorker());
    await db().transaction((tx) => jobs().enqueue(tx, name, {}));
    worker.start();
    await ranInWorker;
    await worker.stop();
    const [row] = await rowsOf(name);
    expect(row!.doneAt).toBeInstanceOf(Date);
  });
});

// issue 14 §6: a worker that dies must not sit on jobs it was not running, nor for minutes.
describe('claims and leases', () => {
  const silent = { warn() {}, error() {}, info() {}, debug() {} } as unknown as Parameters<typeof createJobs>[1];
  const lockedOf = async (name: string) => (await rowsOf(name)).filter((r) => r.lockedUntil && r.lockedUntil > new Date());

  it('claims only the job it is about to run, for a short lease that the running job renews', async () => {
    await jobs().drain();
    const name = jobName('lease');
    let release!: () => void;
    const started: number[] = [];
    const worker = createJobs(db(), silent, 0, { leaseSeconds: 1, kinds: [name] });
    worker.register(name, async (payload: { i: number }) => {
      started.push(payload.i);
      if (payload.i === 0) await new Promise<void>((resolve) => (release = resolve));
    });
    await db().transaction(async (tx) => {
      for (let i = 0; i < 3; i++) await worker.enqueue(tx, name, { i });
    });
    const run = worker.runDue();
    while (started.length === 0) await new Promise((r) => setTimeout(r, 10));
    // One running job, one claimed row; the others are free for any other worker.
    expect(await lockedOf(name)).toHaveLength(1);
    const [held] = await lockedOf(name);
    expect(held!.lockedUntil!.getTime() - Date.now()).toBeLessThanOrEqual(1_000);
    // Past the first lease, the running job still holds its row: the lease was renewed.
    await new Promise((r) => setTimeout(r, 1_500));
    const other = createJobs(db(), silent, 0, { leaseSeconds: 1, kinds: [name] });
    const otherRan: number[] = [];
    other.register(name, async (payload: { i: number }) => {
      otherRan.push(payload.i);
    });
    // The other worker runs the two free rows of this test (its kinds keep other tests' jobs out).
    expect(await other.runDue()).toBe(2);
    expect(otherRan.sort()).toEqual([1, 2]);
    release();
    await run;
    expect(started).toEqual([0]);
    expect((await rowsOf(name)).every((r) => r.doneAt && r.attempts === 1)).toBe(true);
  });

  // issue 26: a node shutting down (SIGTERM) claims nothing more and gives back what it still runs.
  it('stop() with a hand-back bound claims nothing more and hands the running job back, its attempt not counted', async () => {
    await jobs().drain();
    const name = jobName('handback');
    const leaving = createJobs(db(), silent, 10, { nodeId: 'node-leaving', kinds: [name] });
    const started: number[] = [];
    leaving.register(name, (payload: { i: number }) => {
      started.push(payload.i);
      return new Promise<void>(() => {}); // still running at shutdown (a slow receiver, a long export)
    });
    await db().transaction(async (tx) => {
      for (let i = 0; i < 2; i++) await leaving.enqueue(tx, name, { i });
    });
    leaving.start();
    while ((await lockedOf(name)).length === 0) await new Promise((r) => setTimeout(r, 10));
    const at = Date.now();
    expect(await leaving.stop({ handBackAfterMs: 200 })).toBe(1);
    expect(Date.now() - at).toBeLessThan(2_000);
    expect(started).toEqual([0]);
    // Back in the queue at once, unclaimed, the interrupted attempt not counted; the other never claimed.
    const rows = await rowsOf(name);
    expect(rows.map((r) => ({ lockedBy: r.lockedBy, lockedUntil: r.lockedUntil, attempts: r.attempts, doneAt: r.doneAt }))).toEqual([
      { lockedBy: null, lockedUntil: null, attempts: 0, doneAt: null },
      { lockedBy: null, lockedUntil: null, attempts: 0, doneAt: null },
    ]);
    // Another node (a different id, so no recover()) runs both now, not after a lease.
    const other = createJobs(db(), silent, 0, { nodeId: 'node-other', kinds: [name] });
    const ran: number[] = [];
    other.register(name, async (payload: { i: number }) => {
      ran.push(payload.i);
    });
    expect(await other.runDue()).toBe(2);
    expect(ran).toEqual([0, 1]);
    expect((await rowsOf(name)).every((r) => r.doneAt && r.attempts === 1)).toBe(true);
  });

  it('stop() with a hand-back bound waits for a job that finishes within it', async () => {
    await jobs().drain();
    const name = jobName('finishes');
    const leaving = createJobs(db(), silent, 10, { kinds: [name] });
    leaving.register(name, () => new Promise<void>((resolve) => setTimeout(resolve, 150)));
    await db().transaction((tx) => leaving.enqueue(tx, name, {}));
    leaving.start();
    while ((await lockedOf(name)).length === 0) await new Promise((r) => setTimeout(r, 10));
    expect(await leaving.stop({ handBackAfterMs: 5_000 })).toBe(0);
    const [row] = await rowsOf(name);
    expect(row!.doneAt).toBeInstanceOf(Date);
  });

  it('a worker given kinds claims only jobs of those kinds', async () => {
    await jobs().drain();
    const mine = jobName('mine');
    const theirs = jobName('theirs');
    const worker = createJobs(db(), silent, 0, { kinds: [mine] });
    const ran: string[] = [];
    worker.register(mine, async () => void ran.push(mine));
    worker.register(theirs, async () => void ran.push(theirs));
    await db().transaction(async (tx) => {
      await worker.enqueue(tx, theirs, {});
      await worker.enqueue(tx, mine, {});
    });
    expect(await worker.runDue()).toBe(1);
    expect(ran).toEqual([mine]);
    const [left] = await rowsOf(theirs);
    expect(left).toMatchObject({ attempts: 0, doneAt: null, lockedBy: null });
  });

  it('a lane of kinds the worker does not take claims nothing, and fails no query', async () => {
    await jobs().drain();
    const mine = jobName('lane-mine');
    const theirs = jobName('lane-theirs');
    const errors: unknown[] = [];
    const log = { ...silent, error: (e: unknown) => void errors.push(e) } as unknown as Parameters<typeof createJobs>[1];
    const worker = createJobs(db(), log, 20, { kinds: [mine] });
    worker.register(theirs, async () => {});
    worker.lane([theirs], 1);
    await db().transaction((tx) => worker.enqueue(tx, theirs, {}));
    worker.start();
    await new Promise((r) => setTimeout(r, 300));
    await worker.stop();
    expect(errors).toEqual([]);
    const [left] = await rowsOf(theirs);
    expect(left).toMatchObject({ attempts: 0, doneAt: null });
  });

  // issue 26 (mail): a lane claims as many jobs as it has free places in one statement, and jobs
  // that finish together are marked done in one statement (a statement's now() is its own: the
  // rows of one statement carry the same timestamp, those of separate statements do not).
  it('a lane claims its free places in one statement and marks the jobs that finish together done in one', async () => {
    await jobs().drain();
    const name = jobName('lane-batch');
    let started = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await db().transaction(async (tx) => {
      for (let i = 0; i < 3; i++) await jobs().enqueue(tx, name, { i });
    });
    /** The timestamps to the microsecond, as text (a Date keeps milliseconds only). */
    const stamps = async (column: 'locked_until' | 'done_at') =>
      (await db().execute(sql`select ${sql.raw(column)}::text as t from jobs where name = ${name} order by id`).then((res) => (res as unknown as { rows: Array<{ t: string | null }> }).rows)).map((r) => r.t);
    // The main loop polls only every hour here: the lane alone claims.
    const laneOnly = createJobs(db(), silent, 3_600_000, { kinds: [name] });
    laneOnly.register(name, async () => {
      started++;
      await gate;
    });
    laneOnly.lane([name], 3);
    laneOnly.start();
    while (started < 3) await new Promise((r) => setTimeout(r, 10));
    const held = await stamps('locked_until');
    expect(held.every((t) => t !== null)).toBe(true);
    expect(new Set(held).size).toBe(1);
    release();
    while ((await rowsOf(name)).some((r) => !r.doneAt)) await new Promise((r) => setTimeout(r, 10));
    await laneOnly.stop();
    const done = await rowsOf(name);
    expect(done.map((r) => ({ attempts: r.attempts, lockedBy: r.lockedBy }))).toEqual(done.map(() => ({ attempts: 1, lockedBy: null })));
    expect(new Set(await stamps('done_at')).size).toBe(1);
    expect(started).toBe(3);
  });

  it('a lane marks a finished job done in its next claim, one statement a job (issue 26 "mail3")', async () => {
    await jobs().drain();
    const name = jobName('lane-done-in-claim');
    await db().transaction(async (tx) => {
      for (let i = 0; i < 6; i++) await jobs().enqueue(tx, name, { i });
    });
    // Every statement the lane's worker sends, as text.
    const dialect = new PgDialect();
    const sent: string[] = [];
    const counting = new Proxy(db(), {
      get(target, key, receiver) {
        if (key === 'execute')
          return (q: SQL) => {
            sent.push(dialect.sqlToQuery(q).sql.replace(/\s+/g, ' ').trim());
            return target.execute(q);
          };
        return Reflect.get(target, key, receiver);
      },
    });
    const ran: number[] = [];
    const laneOnly = createJobs(counting, silent, 3_600_000, { kinds: [name] });
    laneOnly.register(name, async ({ i }: { i: number }) => {
      ran.push(i);
    });
    // One place: each job's end is followed by the claim of the next, which also writes its completion.
    laneOnly.lane([name], 1);
    laneOnly.start();
    while ((await rowsOf(name)).some((r) => !r.doneAt)) await new Promise((r) => setTimeout(r, 10));
    await laneOnly.stop();
    const rows = await rowsOf(name);
    expect(rows.map((r) => ({ attempts: r.attempts, lockedBy: r.lockedBy, failed: r.failedAt }))).toEqual(rows.map(() => ({ attempts: 1, lockedBy: null, failed: null })));
    expect(ran.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    // No completion statement of its own: each was written by the claim after it (it was one each).
    expect(sent.filter((t) => t.startsWith('update jobs set done_at'))).toEqual([]);
    expect(sent.filter((t) => t.startsWith('with finished as (update jobs set done_at')).length).toBeGreaterThanOrEqual(6 - 1);
  });

  it('a lane whose claim fails retries the jobs it was completing, and runs them again', async () => {
    await jobs().drain();
    const name = jobName('lane-claim-fails');
    await jobs().enqueue(db(), name, { i: 0 });
    let failNext = false;
    const failing = new Proxy(db(), {
      get(target, key, receiver) {
        if (key === 'execute')
          return (q: SQL) => {
            if (failNext && new PgDialect().sqlToQuery(q).sql.includes('finished as')) {
              failNext = false;
              return Promise.reject(new Error('connection lost'));
            }
            return target.execute(q);
          };
        return Reflect.get(target, key, receiver);
      },
    });
    let runs = 0;
    const laneOnly = createJobs(failing, silent, 3_600_000, { kinds: [name] });
    laneOnly.register(name, async () => {
      runs++;
      if (runs === 1) failNext = true;
    });
    laneOnly.lane([name], 2);
    laneOnly.start();
    // The first run's completion was lost with the claim: recorded as a failure to retry, not as done.
    while ((await rowsOf(name))[0]!.lastError === null) await new Promise((r) => setTimeout(r, 10));
    const [retrying] = await rowsOf(name);
    expect(retrying).toMatchObject({ doneAt: null, failedAt: null, lockedBy: null, lastError: 'connection lost', attempts: 1 });
    await makeDue(name);
    while ((await rowsOf(name))[0]!.doneAt === null) await new Promise((r) => setTimeout(r, 10));
    await laneOnly.stop();
    expect(runs).toBe(2);
    expect((await rowsOf(name))[0]).toMatchObject({ attempts: 2, lockedBy: null });
  });

  it('a restarted node takes over the jobs its previous run held, at once', async () => {
    await jobs().drain();
    const name = jobName('restart');
    const dead = createJobs(db(), silent, 0, { nodeId: 'node-a', kinds: [name] });
    dead.register(name, () => new Promise<void>(() => {})); // killed mid-job: never finishes
    await db().transaction((tx) => dead.enqueue(tx, name, { x: 1 }));
    void dead.runDue();
    while ((await lockedOf(name)).length === 0) await new Promise((r) => setTimeout(r, 10));

    // Another node leaves it alone while the lease lasts...
    const stranger = createJobs(db(), silent, 0, { nodeId: 'node-b', kinds: [name] });
    stranger.register(name, async () => {});
    await stranger.recover();
    expect(await stranger.runDue()).toBe(0);
    // ...but the same node, restarted, knows its old claims died with it.
    const restarted = createJobs(db(), silent, 0, { nodeId: 'node-a', kinds: [name] });
    const ran: unknown[] = [];
    restarted.register(name, async (payload) => {
      ran.push(payload);
    });
    await restarted.recover();
    expect(await restarted.runDue()).toBe(1);
    expect(ran).toEqual([{ x: 1 }]);
  });
});
