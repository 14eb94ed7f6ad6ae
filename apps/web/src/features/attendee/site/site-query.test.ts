import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../ui/api-client';
import { QueryClient } from './site-query';

// The attendee site's own cache (site-query.tsx): what its pages rely on, on the client itself. The
// hooks on top run in the browser tests of every attendee page (e2e/tests).

const key = ['site', 'event', 'summer-jam'] as const;
const hash = JSON.stringify(key);

describe('the site query cache', () => {
  it('shares one request among everyone who asks while it is in flight, and keeps its answer', async () => {
    const client = new QueryClient();
    let calls = 0;
    let answer!: (v: string) => void;
    const fn = () => {
      calls++;
      return new Promise<string>((r) => (answer = r));
    };
    const a = client.fetch(key, fn);
    const b = client.fetch(key, fn);
    expect(client.stateOf(hash).fetching).toBe(true);
    answer('Summer Jam');
    const [sa, sb] = await Promise.all([a, b]);
    expect(calls).toBe(1);
    expect(sa.data).toBe('Summer Jam');
    expect(sb).toBe(sa);
    expect(client.getQueryData(key)).toBe('Summer Jam');
    expect(client.stateOf(hash)).toMatchObject({ status: 'success', fetching: false, updates: 1 });
  });

  it('a forced refetch starts anew and only the newest answer is kept', async () => {
    const client = new QueryClient();
    const answers: Array<(v: string) => void> = [];
    const fn = () => new Promise<string>((r) => answers.push(r));
    const first = client.fetch(key, fn);
    const second = client.fetch(key, fn, { force: true });
    expect(answers).toHaveLength(2);
    answers[1]!('new');
    answers[0]!('old');
    await Promise.all([first, second]);
    expect(client.getQueryData(key)).toBe('new');
  });

  it('does not retry an answer of 4xx, keeps the data it had and reports the error', async () => {
    const onError = vi.fn();
    const client = new QueryClient({ onError });
    client.setQueryData(key, 'cached');
    const notFound = new ApiError(404, 'NOT_FOUND', 'Event not found.');
    const fn = vi.fn(() => Promise.reject(notFound));
    const state = await client.fetch(key, fn);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(state).toMatchObject({ status: 'error', error: notFound, data: 'cached', fetching: false, updatedAt: 0 });
    expect(onError).toHaveBeenCalledWith(notFound);
  });

  it('retries a network error twice, a second apart and then two, before giving up', async () => {
    vi.useFakeTimers();
    try {
      const client = new QueryClient();
      const fn = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
      const done = client.fetch(key, fn);
      await vi.advanceTimersByTimeAsync(999);
      expect(fn).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(fn).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(2000);
      expect(fn).toHaveBeenCalledTimes(3);
      expect((await done).status).toBe('error');
    } finally {
      vi.useRealTimers();
    }
  });

  it('obeys a retry rule of the caller (retry: false, or a function)', async () => {
    const client = new QueryClient();
    const fn = vi.fn(() => Promise.reject(new TypeError('offline')));
    await client.fetch(key, fn, { retry: false });
    expect(fn).toHaveBeenCalledTimes(1);
    const rule = vi.fn((failures: number) => failures < 1);
    vi.useFakeTimers();
    try {
      const done = client.fetch(['other'], fn, { retry: rule });
      await vi.advanceTimersByTimeAsync(1000);
      await done;
      expect(fn).toHaveBeenCalledTimes(3);
      expect(rule.mock.calls.map((c) => c[0])).toEqual([0, 1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('tells subscribers of a key, and only them, when it changes', async () => {
    const client = new QueryClient();
    const mine = vi.fn();
    const other = vi.fn();
    const stop = client.subscribe(hash, mine);
    client.subscribe(JSON.stringify(['site', 'settings']), other);
    client.setQueryData(key, 'x');
    await client.fetch(key, () => Promise.resolve('y'));
    expect(mine).toHaveBeenCalledTimes(3); // set, fetching, answered
    expect(other).not.toHaveBeenCalled();
    stop();
    client.setQueryData(key, 'z');
    expect(mine).toHaveBeenCalledTimes(3);
  });
});
