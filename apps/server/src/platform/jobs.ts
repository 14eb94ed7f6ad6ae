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
  start(): void;
  stop(): Promise<void>;
};

const LOCK_SECONDS = 300;

export function createJobs(db: Db, log: FastifyBaseLogger, pollMs: number): Jobs {
  const handlers = new Map<string, JobHandler>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;

  async function claim(limit: number) {
    const result = await db.execute(sql`
      update jobs set locked_until = now() + make_interval(secs => ${LOCK_SECONDS}), attempts = attempts + 1
      where id in (
        select id from jobs
        where done_at is null and failed_at is null and run_at <= now()
          and (locked_until is null or locked_until < now())
        order by run_at, id
        limit ${limit}
        for update skip locked)
      returning id, name, payload, attempts, max_attempts`);
    return (result as unknown as { rows: Array<{ id: number | string; name: string; payload: unknown; attempts: number; max_attempts: number }> }).rows;
  }

  async function runOne(job: { id: number | string; name: string; payload: unknown; attempts: number; max_attempts: number }) {
    const id = Number(job.id);
    const handler = handlers.get(job.name);
    try {
      if (!handler) throw new Error(`No handler for job ${job.name}`);
      await handler(job.payload, { attempt: job.attempts, jobId: id });
      await db.execute(sql`update jobs set done_at = now(), locked_until = null where id = ${id}`);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const final = job.attempts >= job.max_attempts;
      log.warn({ job: job.name, id, attempt: job.attempts, err: message, final }, 'job failed');
      // Exponential backoff: 2s, 4s, 8s ... capped at 10 minutes.
      const delay = Math.min(600, 2 ** job.attempts);
      await db.execute(sql`
        update jobs set last_error = ${message}, locked_until = null,
          run_at = now() + make_interval(secs => ${delay}),
          failed_at = ${final ? sql`now()` : sql`null`}
        where id = ${id}`);
    }
  }

  async function runDue(limit = 20): Promise<number> {
    const claimed = await claim(limit);
    for (const job of claimed) await runOne(job);
    return claimed.length;
  }

  function tick() {
    if (stopped) return;
    running = runDue()
      .catch((err) => log.error({ err }, 'job loop failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, pollMs);
      });
  }

  return {
    register(name, handler) {
      handlers.set(name, handler);
    },
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
    runDue,
    async drain(maxRounds = 50) {
      for (let i = 0; i < maxRounds; i++) if ((await runDue()) === 0) return;
    },
    start() {
      if (!stopped || pollMs <= 0) return;
      stopped = false;
      timer = setTimeout(tick, pollMs);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
