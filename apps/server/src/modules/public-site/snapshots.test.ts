import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressedBody, compressedNow, createSnapshotCache } from './snapshots.js';

// The snapshot cache's two ways of serving while it re-reads (issue 26 reads, docs/decisions.md).
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('snapshot cache while it re-reads', () => {
  it('serves the previous snapshot while one that only aged is re-read', async () => {
    const cache = createSnapshotCache<{ n: number }>(20);
    expect((await cache.get('k', async () => ({ n: 1 })))?.value.n).toBe(1);
    await new Promise((r) => setTimeout(r, 30));
    const slow = deferred<{ n: number }>();
    const first = cache.get('k', () => slow.promise);
    // A reader arriving meanwhile gets the previous one at once.
    expect((await cache.get('k', () => slow.promise))?.value.n).toBe(1);
    slow.resolve({ n: 2 });
    expect((await first)?.value.n).toBe(2);
  });

  it('makes readers wait for the re-read after a change expired it (a cancelled or sold-out event shows at once)', async () => {
    const cache = createSnapshotCache<{ n: number }>(60_000);
    expect((await cache.get('k', async () => ({ n: 1 })))?.value.n).toBe(1);
    cache.expire();
    const slow = deferred<{ n: number }>();
    const first = cache.get('k', () => slow.promise);
    const meanwhile = cache.get('k', () => slow.promise);
    slow.resolve({ n: 2 });
    expect((await first)?.value.n).toBe(2);
    // Before issue 26 (reads) this reader was given the snapshot from before the change.
    expect((await meanwhile)?.value.n).toBe(2);
  });

  it('compresses a body once per owner and encoding, off the event loop, and says when it has it', async () => {
    const owner = { body: JSON.stringify({ text: 'x'.repeat(5000) }) };
    expect(compressedNow(owner, 'br')).toBeUndefined();
    const [a, b] = await Promise.all([compressedBody(owner, 'br'), compressedBody(owner, 'br')]);
    expect(a).toBe(b);
    expect(compressedNow(owner, 'br')).toBe(a);
    expect(brotliDecompressSync(a).toString()).toBe(owner.body);
    expect(gunzipSync(await compressedBody(owner, 'gzip')).toString()).toBe(owner.body);
  });
});
