import type { Db } from '../../db/client.js';
import * as repo from './repository.js';

// Issue 27 (seats3): the seat holds that arrive together are taken together. Under an on-sale rush a
// pool connection carried one take per turn of the event loop (its answer waited in the socket for
// the loop to come round, ~15 ms, for a ~1 ms statement), so the pool, not the database, set the
// pace. Takes asked for in the same turn are gathered and sent at the turn's end (setImmediate) as
// ONE statement (repository takeSeatsBatch: each hold all or nothing on its own); while
// MAX_IN_FLIGHT batches are out, new takes wait and go together in the next. Alone (a quiet sale) a
// take goes at the end of its own turn, as before. Two takes asking for the same seat never share a
// statement: the later one waits for the next batch, where it finds the seat taken or free again.
// A batch that fails as a whole (never expected) is retried take by take with the one-hold statement,
// so one bad hold cannot fail the others.

/** Batches out at once per database (each on its own pool connection; the rest of the pool serves other work). */
const MAX_IN_FLIGHT = 3;
/** Holds per statement at most. */
const MAX_BATCH = 64;

type Pending = { req: repo.TakeRequest; keys: string[]; resolve: (o: repo.BatchOutcome) => void; reject: (e: unknown) => void };
type Queue = { pending: Pending[]; inFlight: number; scheduled: boolean };
const queues = new WeakMap<object, Queue>();

/** Takes the hold's seats (SKIP LOCKED) with the other takes of this turn, in one statement. */
export function takeInBatch(db: Db, req: repo.TakeRequest): Promise<repo.BatchOutcome> {
  let q = queues.get(db);
  if (!q) queues.set(db, (q = { pending: [], inFlight: 0, scheduled: false }));
  const queue = q;
  return new Promise((resolve, reject) => {
    queue.pending.push({ req, keys: req.seats.map((n) => repo.seatKey(req, n)), resolve, reject });
    schedule(db, queue);
  });
}

function schedule(db: Db, q: Queue) {
  if (q.scheduled || q.inFlight >= MAX_IN_FLIGHT || q.pending.length === 0) return;
  q.scheduled = true;
  setImmediate(() => {
    q.scheduled = false;
    while (q.inFlight < MAX_IN_FLIGHT && q.pending.length > 0) send(db, q, nextBatch(q));
  });
}

/** The oldest waiting takes that share no seat, up to MAX_BATCH (the others stay, in order). */
function nextBatch(q: Queue): Pending[] {
  const batch: Pending[] = [];
  const seats = new Set<string>();
  const rest: Pending[] = [];
  for (const p of q.pending) {
    if (batch.length < MAX_BATCH && !p.keys.some((k) => seats.has(k))) {
      batch.push(p);
      for (const k of p.keys) seats.add(k);
    } else rest.push(p);
  }
  q.pending = rest;
  return batch;
}

function send(db: Db, q: Queue, batch: Pending[]) {
  q.inFlight++;
  void (async () => {
    try {
      const out = await repo.takeSeatsBatch(db, batch.map((p) => p.req));
      batch.forEach((p, i) => p.resolve(out[i]!));
    } catch {
      // Never expected: each take on its own, so only a take that fails by itself fails.
      await Promise.all(
        batch.map(async (p) => {
          try {
            // A pick waits for another buyer's lock here (as its retry would); best available skips.
            const got = await repo.takeSeatsAtOnce(db, { ...p.req, skipLocked: p.req.bestOf !== null });
            p.resolve({ ...got, free: got.complete ? p.req.seats.length : 0, refusal: null });
          } catch (err) {
            p.reject(err);
          }
        }),
      );
    } finally {
      q.inFlight--;
      schedule(db, q);
    }
  })();
}
