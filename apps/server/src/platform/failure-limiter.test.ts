import { describe, expect, it } from 'vitest';
import { createFailureLimiter, type FailureLimiter } from './failure-limiter.js';

function clocked(opts: { max: number; windowMs: number; maxKeys?: number }) {
  let t = 1_000_000;
  const limiter = createFailureLimiter({ ...opts, now: () => t });
  return { limiter, advance: (ms: number) => (t += ms) };
}

const fail = (limiter: FailureLimiter, key: string) => {
  const answer = limiter.begin(key);
  if (!answer.allowed) throw new Error(`refused ${key}`);
  answer.attempt.settle(true);
};

describe('failure limiter', () => {
  it('refuses a key after max failures until the oldest leaves the window', () => {
    const { limiter, advance } = clocked({ max: 3, windowMs: 10_000 });
    fail(limiter, 'a');
    advance(4_000);
    fail(limiter, 'a');
    fail(limiter, 'a');
    expect(limiter.begin('a')).toEqual({ allowed: false, retryAfterMs: 6_000 });
    advance(5_999);
    expect(limiter.begin('a')).toEqual({ allowed: false, retryAfterMs: 1 });
    advance(1);
    // Sliding: only the first failure has left; one more is allowed, then refused again.
    fail(limiter, 'a');
    expect(limiter.begin('a')).toEqual({ allowed: false, retryAfterMs: 4_000 });
  });

  it('forgets attempts that were not failures, once', () => {
    const { limiter } = clocked({ max: 2, windowMs: 10_000 });
    for (let i = 0; i < 10; i++) {
      const answer = limiter.begin('a');
      expect(answer.allowed).toBe(true);
      if (answer.allowed) {
        answer.attempt.settle(false);
        answer.attempt.settle(true); // a second settle changes nothing
      }
    }
    expect(limiter.size).toBe(0);
    fail(limiter, 'a');
    fail(limiter, 'a');
    expect(limiter.begin('a').allowed).toBe(false);
  });

  it('counts attempts still in flight, so a burst cannot pass the check before the answers', () => {
    const { limiter, advance } = clocked({ max: 3, windowMs: 10_000 });
    const burst = Array.from({ length: 5 }, () => limiter.begin('a'));
    expect(burst.map((b) => b.allowed)).toEqual([true, true, true, false, false]);
    // One turns out right: its place is free again.
    if (burst[0]!.allowed) burst[0]!.attempt.settle(false);
    expect(limiter.begin('a').allowed).toBe(true);
    // An attempt never settled (the client hung up) stays counted only for the window.
    advance(10_000);
    expect(limiter.begin('a').allowed).toBe(true);
  });

  it('keeps keys apart', () => {
    const { limiter } = clocked({ max: 1, windowMs: 10_000 });
    fail(limiter, 'a');
    expect(limiter.begin('a').allowed).toBe(false);
    expect(limiter.begin('b').allowed).toBe(true);
  });

  it('holds at most maxKeys keys, dropping the least recently seen', () => {
    const { limiter } = clocked({ max: 1, windowMs: 10_000, maxKeys: 3 });
    for (const key of ['a', 'b', 'c']) fail(limiter, key);
    expect(limiter.begin('a').allowed).toBe(false); // seen again: now the most recent
    fail(limiter, 'd'); // drops 'b'
    expect(limiter.size).toBe(3);
    expect(limiter.begin('a').allowed).toBe(false);
    expect(limiter.begin('c').allowed).toBe(false);
    expect(limiter.begin('d').allowed).toBe(false);
    expect(limiter.begin('b').allowed).toBe(true);
    expect(limiter.size).toBe(3);
  });
});
