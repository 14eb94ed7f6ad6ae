import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher.js';

/** A batch runner whose batches finish only when the test says so. */
function controlled() {
  const batches: Array<{ key: string; items: number[]; finish: (results?: string[]) => void; fail: (e: Error) => void }> = [];
  const batcher = createBatcher<number, string>(
    (key, items) =>
      new Promise((resolve, reject) => {
        batches.push({ key, items: [...items], finish: (results) => resolve(results ?? items.map((i) => `${key}:${i}`)), fail: reject });
      }),
    3,
  );
  return { batcher, batches };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('batcher', () => {
  it('runs the first request at once, alone; those that arrive meanwhile go together in the next batch', async () => {
    const { batcher, batches } = controlled();
    const first = batcher.submit('e1', 1);
    expect(batches.map((b) => b.items)).toEqual([[1]]);
    const later = [2, 3].map((i) => batcher.submit('e1', i));
    await tick();
    expect(batches).toHaveLength(1); // nobody joins a batch that started before they arrived
    batches[0]!.finish();
    expect(await first).toBe('e1:1');
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3]]);
    batches[1]!.finish();
    expect(await Promise.all(later)).toEqual(['e1:2', 'e1:3']);
  });

  it('counts the requests of a key that wait for its batch under way', async () => {
    const { batcher, batches } = controlled();
    expect(batcher.waiting('e1')).toBe(0);
    const all = [1, 2, 3].map((i) => batcher.submit('e1', i));
    expect(batcher.waiting('e1')).toBe(2);
    expect(batcher.waiting('e2')).toBe(0);
    batches[0]!.finish();
    await tick();
    expect(batcher.waiting('e1')).toBe(0);
    batches[1]!.finish();
    await Promise.all(all);
    expect(batcher.waiting('e1')).toBe(0);
  });

  it('keeps arrival order, caps a batch at max, and runs keys independently', async () => {
    const { batcher, batches } = controlled();
    const all = [1, 2, 3, 4, 5, 6].map((i) => batcher.submit('e1', i));
    const other = batcher.submit('e2', 9);
    expect(batches.map((b) => [b.key, b.items])).toEqual([
      ['e1', [1]],
      ['e2', [9]],
    ]);
    batches[0]!.finish();
    await tick();
    batches[2]!.finish();
    await tick();
    batches[3]!.finish();
    batches[1]!.finish();
    expect(batches.map((b) => b.items)).toEqual([[1], [9], [2, 3, 4], [5, 6]]);
    expect(await Promise.all(all)).toEqual(['e1:1', 'e1:2', 'e1:3', 'e1:4', 'e1:5', 'e1:6']);
    expect(await other).toBe('e2:9');
  });

  it('runs each request of a failed batch on its own, so one bad request fails only itself', async () => {
    const batcher = createBatcher<number, number>(async (_key, items) => {
      if (items.includes(13)) throw new Error('unlucky');
      return items.map((i) => i * 2);
    });
    const results = await Promise.allSettled([1, 2, 13, 4].map((i) => batcher.submit('k', i)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([2, 4, 'unlucky', 8]);
  });

  it('fails the batch when the runner answers the wrong number of results', async () => {
    const batcher = createBatcher<number, number>(async () => []);
    await expect(batcher.submit('k', 1)).rejects.toThrow('batch answered 0 results for 1 requests');
  });

  it('starts afresh after a key went idle', async () => {
    const { batcher, batches } = controlled();
    const a = batcher.submit('k', 1);
    batches[0]!.finish();
    await a;
    await tick();
    const b = batcher.submit('k', 2);
    expect(batches.map((x) => x.items)).toEqual([[1], [2]]);
    batches[1]!.finish();
    expect(await b).toBe('k:2');
  });
});
