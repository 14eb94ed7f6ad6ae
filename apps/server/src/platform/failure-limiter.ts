import { M } from '@marquee/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/**
 * Counts failed attempts per key (a client address) in a sliding window, in this process's
 * memory, and refuses a key once it has `max` of them. Unlike @fastify/rate-limit it counts only
 * failures, so many people behind one address doing the right thing are never refused.
 *
 * Each attempt is reserved as a failure when it starts and taken back when it turns out not to
 * be one: a burst of concurrent guesses cannot all slip past the check before the first is
 * answered, and an attempt whose answer never comes (the client hung up) stays counted until the
 * window passes. At most `maxKeys` keys are kept; the least recently seen is dropped first.
 */
export type FailureLimiter = {
  /** Starts an attempt for `key`, or refuses it with the time until the oldest failure expires. */
  begin(key: string): { allowed: true; attempt: Attempt } | { allowed: false; retryAfterMs: number };
  /** Keys held now (for tests and metrics). */
  readonly size: number;
};

export type Attempt = {
  /** Once per attempt: a failure stays counted for the window; anything else is forgotten. */
  settle(failed: boolean): void;
};

export type FailureLimiterOptions = {
  max: number;
  windowMs: number;
  maxKeys?: number;
  now?: () => number;
};

export function createFailureLimiter({ max, windowMs, maxKeys = 10_000, now = Date.now }: FailureLimiterOptions): FailureLimiter {
  // key -> start times of its counted attempts, oldest first; never more than `max` of them.
  const keys = new Map<string, number[]>();

  const live = (key: string, t: number): number[] => {
    const times = keys.get(key) ?? [];
    let expired = 0;
    while (expired < times.length && times[expired]! <= t - windowMs) expired++;
    if (expired) times.splice(0, expired);
    // Re-inserting keeps the map in least-recently-seen order for eviction.
    keys.delete(key);
    keys.set(key, times);
    while (keys.size > maxKeys) keys.delete(keys.keys().next().value!);
    return times;
  };

  return {
    begin(key) {
      const t = now();
      const times = live(key, t);
      if (times.length >= max) return { allowed: false, retryAfterMs: Math.max(1, times[0]! + windowMs - t) };
      times.push(t);
      let settled = false;
      return {
        allowed: true,
        attempt: {
          settle(failed) {
            if (settled) return;
            settled = true;
            if (failed) return;
            const current = keys.get(key);
            const at = current ? current.lastIndexOf(t) : -1;
            if (at < 0) return;
            current!.splice(at, 1);
            if (!current!.length) keys.delete(key);
          },
        },
      };
    },
    get size() {
      return keys.size;
    },
  };
}

/**
 * Route hooks that put a FailureLimiter in front of a route: a request whose key is not null is
 * refused with 429 before the handler (and before validation) once its key is limited; a request
 * answered with an error that `isFailure` recognises is counted against its key.
 */
export function failureLimitHooks(
  limiter: FailureLimiter,
  opts: { keyOf: (req: FastifyRequest) => string | null; isFailure: (err: unknown) => boolean },
) {
  const attempts = new WeakMap<FastifyRequest, Attempt>();
  return {
    preValidation: async (req: FastifyRequest, reply: FastifyReply) => {
      const key = opts.keyOf(req);
      if (key === null) return;
      const answer = limiter.begin(key);
      if (!answer.allowed) {
        reply.header('retry-after', Math.ceil(answer.retryAfterMs / 1000));
        throw new AppError('RATE_LIMITED', M.tooManyRequests);
      }
      attempts.set(req, answer.attempt);
    },
    onError: async (req: FastifyRequest, _reply: FastifyReply, err: unknown) => {
      if (opts.isFailure(err)) attempts.get(req)?.settle(true);
    },
    onResponse: async (req: FastifyRequest) => {
      attempts.get(req)?.settle(false);
    },
  };
}
