import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { jobs } from '../db/schema/index.js';

// Everything slow is a job (architecture rule 8). Jobs are rows enqueued in the caller's own
// transaction, so a job exists exactly when the change that asked for it committed. Workers claim
// due rows with FOR UPDATE SKIP LOCKED, so any number of app nodes can run them; handlers must be
// safe to run twice (a node can die after the work and before marking it done).

export type JobHandler = (payload: any, info: { attempt: number; jobId: number }) => Promise<void>;

export type EnqueueOptions = { runAt?: Date; dedupeKey?: string; maxAttempts?: number };

export type Jobs = {
  register(name: string, handler: JobHandler): void;
  enqueue(db: DbOrTx, name: string, payload: unknown, opts?: EnqueueOptions): Promise<void>;
  /** Runs every due job once, now; returns how many ran. Tests and the worker loop use it. */
  runDue(limit?: number): Promise<number>;
  /** Runs due jobs until none is left (bounded). */
  drain(maxRounds?: number): Promise<void>;
  /** Frees the jobs an earlier run of this node (same nodeId) held when it died; start() calls it. */
  recover(): Promise<number>;
  /**
   * A lane: `concurrency` workers of their own that run only the jobs named `names` (from start()
   * to stop()), so that they wait neither behind slow jobs of other kinds (PDFs, mails) nor behind
   * each other (webhooks, docs/webhooks.md). The main loop still runs them too.
   */
  lane(names: readonly string[], concurrency: number): void;
  start(): void;
  /**
   * Stops the worker loop and the lanes: no job is claimed after this call. Without options it
   * waits for the jobs already running. With `handBackAfterMs` (graceful shutdown, issue 26) it
   * waits that long at most, then hands the jobs still running back to the queue (their claim
   * released and the attempt not counted), so that another node runs them at once instead of
   * after a lease; the handlers left running are abandoned (handlers are safe to run twice).
   * Answers how many jobs it handed back.
   */
  stop(opts?: { handBackAfterMs?: number }): Promise<number>;
  /** The job kinds with a handler on this node (the metrics list each, waiting or not). */
  kinds(): string[];
};

// A worker claims only the jobs it runs at once (one at a time for the main loop; as many as it has
// free places for a lane, in one statement), for a short lease that it renews while the job runs
// (issue 14 §6). A node that dies holds nothing for long: its job is free again after one lease, and
// at once when the same node (same JOBS_NODE_ID) starts again.
export const LEASE_SECONDS = 30;

export type JobsOptions = {
  leaseSeconds?: number;
  /**
   * A name that stays the same across restarts of this node (JOBS_NODE_ID). Without one, each run
   * gets a fresh id and its claims are freed only when their lease runs out.
   */
  nodeId?: string;
  /** Told of every job this node runs (issue 26 metrics): its kind, how it ended, how long it took. */
  onRun?: (kind: string, outcome: 'done' | 'retry' | 'failed', seconds: number) => void;
  /**
   * Claim only these kinds (a node kept for some kinds; a test's worker on a database other tests
   * share, which must not take and fail their jobs). Without it, every due job is claimed.
   */
  kinds?: readonly string[];
};

type Claimed = { id: number | string; name: string; payload: unknown; attempts: number; max_attempts: number };

export function createJobs(db: Db, log: FastifyBaseLogger, pollMs: number, opts: JobsOptions = {}): Jobs {
  const handlers = new Map<string, JobHandler>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;
  const lease = opts.leaseSeconds ?? LEASE_SECONDS;
  const nodeId = opts.nodeId ?? `${hostname()}:${process.pid}:${randomUUID()}`;
  // A stable node id marks this run too, so that a restart can tell its own dead claims apart.
  const owner = opts.nodeId ? `${opts.nodeId}|${randomUUID()}` : nodeId;

  /**
   * Claims up to `limit` due jobs in one statement, each for a lease, and answers them with the
   * database's clock at the claim. `dueBy`: a round's start (database time), so that a round runs what
   * was due when it began; without it, what is due now (the first claim of a round reads the clock
   * this way instead of a statement of its own).
   */
  async function claim(limit: number, dueBy: string | undefined, lane?: readonly string[], finished: readonly number[] = []): Promise<{ jobs: Claimed[]; now?: string }> {
    const names = lane && opts.kinds ? lane.filter((n) => opts.kinds!.includes(n)) : lane ?? opts.kinds;
    if (names && names.length === 0) return { jobs: [] }; // a lane of kinds this node does not take: nothing to claim
    const only = names ? sql`and name in (${sql.join(names.map((n) => sql`${n}`), sql`, `)})` : sql``;
    const due = dueBy ? sql`${dueBy}::timestamptz` : sql`now()`;
    // Issue 26 "mail3": a lane's finished jobs are marked done by its next claim, in the same statement
    // (a lane in a sale claimed one place and completed one job per job run: two statements, now one).
    const ids = sql.join(finished.map((i) => sql`${i}`), sql`, `);
    const done = finished.length ? sql`finished as (update jobs set done_at = now(), locked_until = null, locked_by = null where id in (${ids})), ` : sql``;
    const notFinished = finished.length ? sql`and id not in (${ids})` : sql``;
    const result = await db.execute(sql`
      with ${done}clock as (select now()::text as now),
      claimed as (
        update jobs set locked_until = now() + make_interval(secs => ${lease}), locked_by = ${owner}, attempts = attempts + 1
        where id in (
          select id from jobs
          where done_at is null and failed_at is null and run_at <= ${due} ${only} ${notFinished}
            and (locked_until is null or locked_until < now())
          order by run_at, id
          limit ${limit}
          for update skip locked)
        returning id, name, payload, attempts, max_attempts, run_at)
      select clock.now, claimed.id, claimed.name, claimed.payload, claimed.attempts, claimed.max_attempts
      from clock left join claimed on true
      order by claimed.run_at, claimed.id`);
    const rows = (result as unknown as { rows: Array<Claimed & { now: string }> }).rows;
    return { jobs: rows.filter((r) => r.id !== null).map(({ now: _now, ...job }) => job), now: rows[0]?.now };
  }

  /** Keeps the lease of a running job, a third of a lease at a time. */
  function renewWhileRunning(id: number) {
    const every = Math.max(50, (lease * 1000) / 3);
    const renew = setInterval(() => {
      db.execute(sql`update jobs set locked_until = now() + make_interval(secs => ${lease}) where id = ${id} and locked_by = ${owner} and done_at is null`).catch((err) =>
        log.warn({ err, id }, 'job lease renewal failed'),
      );
    }, every);
    return () => clearInterval(renew);
  }

  /** Jobs this node is running now (claimed and not yet finished), by id. */
  const inFlight = new Set<number>();

  /**
   * Marks finished jobs done, those that finish together in one statement: the jobs that finish while
   * a completion is being written wait for the next one, which writes all of them (a sale's lanes
   * finish many jobs a second; one statement each was a third of the queue's own statements).
   */
  let doneBatch: { ids: number[]; written: Promise<void> } | undefined;
  let writing: Promise<unknown> = Promise.resolve();
  function markDone(id: number): Promise<void> {
    if (doneBatch) {
      doneBatch.ids.push(id);
      return doneBatch.written;
    }
    const batch = { ids: [id], written: Promise.resolve() };
    doneBatch = batch;
    batch.written = writing.then(async () => {
      doneBatch = undefined; // from here on, finishing jobs join the next batch
      const ids = batch.ids;
      await db.execute(sql`update jobs set done_at = now(), locked_until = null, locked_by = null where id in (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})`);
    });
    writing = batch.written.catch(() => {});
    return batch.written;
  }

  /** `finish`: writes the job's completion (markDone; a lane's next claim writes it). */
  async function runOne(job: Claimed, finish: (id: number) => Promise<void> = markDone) {
    const id = Number(job.id);
    inFlight.add(id);
    const handler = handlers.get(job.name);
    const stopRenewing = renewWhileRunning(id);
    const started = performance.now();
    try {
      if (!handler) throw new Error(`No handler for job ${job.name}`);
      await handler(job.payload, { attempt: job.attempts, jobId: id });
      await finish(id);
      opts.onRun?.(job.name, 'done', (performance.now() - started) / 1000);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const final = job.attempts >= job.max_attempts;
      opts.onRun?.(job.name, final ? 'failed' : 'retry', (performance.now() - started) / 1000);
      log.warn({ job: job.name, id, attempt: job.attempts, err: message, final }, 'job failed');
      // Exponential backoff: 2s, 4s, 8s ... capped at 10 minutes.
      const delay = Math.min(600, 2 ** job.attempts);
      // Only while the claim is still ours: a job handed back at shutdown may already run elsewhere.
      await db.execute(sql`
        update jobs set last_error = ${message}, locked_until = null, locked_by = null,
          run_at = now() + make_interval(secs => ${delay}),
          failed_at = ${final ? sql`now()` : sql`null`}
        where id = ${id} and locked_by = ${owner} and done_at is null`);
    } finally {
      stopRenewing();
      inFlight.delete(id);
    }
  }

  /** `loop`: called by the worker loop, which stops claiming as soon as stop() is called. */
  async function runDue(limit = 20, names?: readonly string[], loop = false): Promise<number> {
    let start: string | undefined;
    let ran = 0;
    for (; ran < limit; ran++) {
      if (loop && stopped) break;
      const claimed = await claim(1, start, names);
      start ??= claimed.now;
      const job = claimed.jobs[0];
      if (!job) break;
      await runOne(job);
    }
    return ran;
  }

  async function recover(): Promise<number> {
    if (!opts.nodeId) return 0;
    const result = await db.execute(sql`
      update jobs set locked_until = null, locked_by = null
      where done_at is null and locked_by like ${`${opts.nodeId.replace(/[\\%_]/g, (c) => `\\${c}`)}|%`} and locked_by <> ${owner}
      returning id`);
    const freed = (result as unknown as { rows: unknown[] }).rows.length;
    if (freed) log.info({ nodeId: opts.nodeId, freed }, 'took back jobs held by this node before it restarted');
    return freed;
  }

  const ROUND = 20;
  function tick() {
    if (stopped) return;
    let full = false;
    running = runDue(ROUND, undefined, true)
      .then((ran) => {
        full = ran === ROUND;
      })
      .catch((err) => log.error({ err }, 'job loop failed'))
      .finally(() => {
        // A full round means more are due: go on at once instead of waiting a poll (a backlog drains
        // at full speed, not ROUND jobs per poll).
        if (!stopped) timer = setTimeout(tick, full ? 0 : pollMs);
      });
  }

  const lanes: Array<{ names: readonly string[]; concurrency: number }> = [];
  const laneRuns: Array<Promise<void>> = [];
  /**
   * A lane runs up to `concurrency` of its jobs at once: whenever some of its places are free it
   * claims that many due jobs in one statement and starts them all at once (so it holds only jobs it
   * is running, as a single worker does), and it polls when nothing was due. A job whose handler has
   * ended frees its place at once (and wakes the lane if it was full); the lane's next claim, or its
   * next poll, also marks it (and any others that ended meanwhile) done, in the same statement; its run ends when that statement has answered
   * (as with markDone), and a claim that fails fails their completion too (each is then retried, as a
   * failed completion was before). At stop, completions still waiting are written by markDone.
   */
  async function laneWorker(names: readonly string[], concurrency: number) {
    const running = new Set<Promise<void>>();
    /** Jobs whose handler ended, waiting for the next claim to write their completion. */
    let ended: Array<{ id: number; resolve: () => void; reject: (err: unknown) => void }> = [];
    let wake: (() => void) | undefined;
    /** A place freed on a full lane: claim at once (set even while a claim is under way, when there is no wake to call). */
    let wanted = false;
    /** Places taken: jobs running whose handler has not ended. */
    const taken = () => running.size - ended.length;
    // A job's end wakes the lane only when it was full (a place is wanted now); otherwise its
    // completion goes with the lane's next poll, which claims anyway (no statement of its own).
    const finish = (id: number) => {
      if (stopped) return markDone(id);
      const wasFull = taken() >= concurrency;
      return new Promise<void>((resolve, reject) => {
        ended.push({ id, resolve, reject });
        if (wasFull) {
          wanted = true;
          wake?.();
        }
      });
    };
    while (!stopped) {
      const free = concurrency - taken();
      const finished = ended;
      ended = [];
      if (free > 0 || finished.length > 0) {
        let claimed: Claimed[] = [];
        try {
          claimed = (await claim(Math.max(0, free), undefined, names, finished.map((f) => f.id))).jobs;
          for (const f of finished) f.resolve();
        } catch (err) {
          log.error({ err, names }, 'job lane failed');
          for (const f of finished) f.reject(err);
        }
        for (const job of claimed) {
          const run: Promise<void> = runOne(job, finish)
            .catch((err) => log.error({ err, names }, 'job lane failed'))
            .finally(() => {
              const wasFull = taken() >= concurrency;
              running.delete(run);
              if (wasFull) wanted = true;
              if (wasFull || stopped) wake?.();
            });
          running.add(run);
        }
      }
      if (stopped) break;
      // Full: claim again as soon as a place frees up (more are probably waiting), with the
      // completions of the jobs that ended. Otherwise nothing more was due: wait a poll, and claim
      // together what became due meanwhile, with the completions of the jobs that ended meanwhile.
      if (wanted) {
        wanted = false;
        continue;
      }
      const full = taken() >= concurrency;
      await new Promise<void>((resolve) => {
        const timer = full ? undefined : setTimeout(resolve, Math.min(pollMs, 200));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
      wanted = false;
    }
    // Stopped: the completions still waiting are written now (markDone batches them).
    for (const f of ended.splice(0)) markDone(f.id).then(f.resolve, f.reject);
    await Promise.all(running);
  }
  function startLanes() {
    for (const l of lanes) laneRuns.push(laneWorker(l.names, l.concurrency));
  }

  return {
    register(name, handler) {
      handlers.set(name, handler);
    },
    kinds: () => [...handlers.keys()],
    async enqueue(tx, name, payload, opts = {}) {
      await tx
        .insert(jobs)
        .values({
          name,
          payload: payload as object,
          runAt: opts.runAt ?? new Date(),
          dedupeKey: opts.dedupeKey ?? null,
          maxAttempts: opts.maxAttempts ?? 8,
        })
        .onConflictDoNothing({ target: jobs.dedupeKey });
    },
    runDue: (limit) => runDue(limit),
    async drain(maxRounds = 50) {
      for (let i = 0; i < maxRounds; i++) if ((await runDue()) === 0) return;
    },
    recover,
    lane(names, concurrency) {
      lanes.push({ names, concurrency });
    },
    start() {
      if (!stopped || pollMs <= 0) return;
      stopped = false;
      running = recover()
        .catch((err) => log.error({ err }, 'job recovery failed'))
        .finally(() => {
          if (!stopped) {
            timer = setTimeout(tick, pollMs);
            startLanes();
          }
        });
    },
    async stop(stopOpts = {}) {
      stopped = true;
      if (timer) clearTimeout(timer);
      const finished = Promise.all([running, ...laneRuns.splice(0)]).then(() => true);
      if (stopOpts.handBackAfterMs === undefined) {
        await finished;
        return 0;
      }
      let waited: NodeJS.Timeout | undefined;
      const done = await Promise.race([finished, new Promise<false>((resolve) => (waited = setTimeout(() => resolve(false), stopOpts.handBackAfterMs)))]);
      clearTimeout(waited);
      if (done || inFlight.size === 0) return 0;
      const ids = [...inFlight];
      const result = await db.execute(sql`
        update jobs set locked_until = null, locked_by = null, attempts = greatest(attempts - 1, 0)
        where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) and locked_by = ${owner} and done_at is null
        returning id, name`);
      const handedBack = (result as unknown as { rows: Array<{ id: number; name: string }> }).rows;
      if (handedBack.length) log.info({ jobs: handedBack.map((j) => ({ id: Number(j.id), name: j.name })) }, 'handed running jobs back to the queue at shutdown');
      return handedBack.length;
    },
  };
}
