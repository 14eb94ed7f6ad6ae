import { M } from '@marquee/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/**
 * A limit on how many requests of one kind are past their cheap start at once (issue 26, reads4).
 *
 * PLACE ORDER and the checkout's hold are the expensive requests of an on-sale: each parses and
 * checks its body, reads the event, takes its tickets and opens a payment session, across several
 * turns of the event loop. In a rush of hundreds of buyers at once every one of them is somewhere in
 * that work, and the batchers (platform/batcher.ts) answer a whole batch of them in one callback, so
 * one turn of the loop runs the next step of every waiting order; a read of the event page (answered
 * from memory in a fraction of a millisecond, public-site/fast-path.ts) waits for that turn to end.
 *
 * With the limit, at most `limit` of them are past this hook: the others wait here, before their body
 * is parsed, in a plain first-in first-out list that costs nothing per turn, and each slot given back
 * (the answer sent, or the client gone) admits the next in a turn of its own (`setImmediate`). The
 * database still gets whole batches (the limit is set above one batch: checkout/repository.ts
 * batches 64 holds a statement), so a sale's holds a second stay what they were; its buyers' wait
 * moves from the event loop's queue into this one. Nothing is refused here: a client that sends too
 * many is refused by the route's per-address rate limit, which runs before this hook (onRequest).
 *
 * A request whose client goes away while it waits (or before it got here) leaves the list and is never run.
 */
export type InFlightLimit = {
  /** The route's preParsing hook: waits for a slot (after the onRequest hooks: guard, rate limit). */
  preParsing: (req: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>;
  /** Running now, waiting now, and the most that ever ran at once (the metrics and the tests' view). */
  stats(): { running: number; waiting: number; mostRunning: number };
};

type Waiter = { admit: () => void };

export function createInFlightLimit(limit: number): InFlightLimit {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`an in-flight limit is a whole number >= 1 (got ${limit})`);
  let running = 0;
  let mostRunning = 0;
  // A Set keeps the order they came in and lets one that is gone leave from the middle.
  const waiting = new Set<Waiter>();
  let scheduled = false;

  const admitWaiting = () => {
    scheduled = false;
    for (const w of waiting) {
      if (running >= limit) break;
      waiting.delete(w);
      w.admit();
    }
  };
  const release = () => {
    running -= 1;
    if (waiting.size > 0 && !scheduled) {
      scheduled = true;
      setImmediate(admitWaiting);
    }
  };
  const start = (reply: FastifyReply) => {
    running += 1;
    if (running > mostRunning) mostRunning = running;
    // 'close' comes once the answer is sent or the connection ended, whichever is first.
    reply.raw.once('close', release);
  };

  return {
    async preParsing(_req, reply, payload) {
      // Gone before its first checks ended: its 'close' has been emitted, so it would never give a slot back.
      if (reply.raw.closed) throw new AppError('UNAVAILABLE', M.serverBusy);
      if (running < limit && waiting.size === 0) {
        start(reply);
        return payload;
      }
      await new Promise<void>((resolve, reject) => {
        const gone = () => {
          waiting.delete(w);
          // Nothing was done; the answer goes nowhere (the connection is closed).
          reject(new AppError('UNAVAILABLE', M.serverBusy));
        };
        const w: Waiter = {
          admit: () => {
            reply.raw.off('close', gone);
            start(reply);
            resolve();
          },
        };
        reply.raw.once('close', gone);
        waiting.add(w);
      });
      return payload;
    },
    stats: () => ({ running, waiting: waiting.size, mostRunning }),
  };
}
