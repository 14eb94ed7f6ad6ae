import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/**
 * A CDN may keep a public event one second (the snapshot's own bound) and answer with it for ten
 * more while it asks again; browsers revalidate every time (ETag, 304). docs/operations.md "Public reads".
 */
export const PUBLIC_READ_CACHE = 'public, max-age=0, must-revalidate, s-maxage=1, stale-while-revalidate=10';

/** A public read as it goes on the wire: the value, its JSON and a strong ETag of that JSON. */
export type Published<T> = { value: T; body: string; etag: string; /** performance.now() when it was read (cached snapshots only). */ loadedAt?: number };

type Entry<T> = {
  snap: Published<T> | null;
  /** When `snap` was read (-Infinity: never), and when it counts as read for its age (-Infinity: to be read again). */
  readAt: number;
  loadedAt: number;
  expiredAt: number;
  loading: Promise<Published<T> | null> | null;
};

export type SnapshotCache<T> = {
  /**
   * The snapshot under `key`: from memory while younger than the cache's age; past it, the first
   * reader loads it again (`load`, the database) and readers arriving meanwhile get the previous
   * one at once, so a rush puts at most one read per event on the database at a time.
   * `null`: not found (also remembered, so unknown names do not reach the database either).
   */
  get(key: string, load: () => Promise<T | null>): Promise<Published<T> | null>;
  /** How long this cache keeps a snapshot (ms). */
  readonly maxAgeMs: number;
  /**
   * Something the snapshots show changed on this node: the snapshots `which` picks (by key and
   * current value; all when omitted) are re-read before they are served again.
   */
  expire(which?: (key: string, snap: Published<T> | null) => boolean): void;
  /** The snapshot under `key` as it is now, without loading it (undefined: none). */
  peek(key: string): Published<T> | null | undefined;
};

export function publish<T>(value: T): Published<T> {
  const body = JSON.stringify(value);
  return { value, body, etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"` };
}

/** One cache per process (per database); `maxAgeMs` bounds how stale a snapshot may be on any node (0: no cache). */
export function createSnapshotCache<T>(maxAgeMs: number): SnapshotCache<T> {
  const entries = new Map<string, Entry<T>>();

  function refresh(key: string, entry: Entry<T>, load: () => Promise<T | null>) {
    const startedAt = performance.now();
    entry.loading = load().then(
      (value) => {
        entry.snap = value === null ? null : { ...publish(value), loadedAt: startedAt };
        entry.readAt = startedAt;
        // A change that landed while this read ran may be missing from it: serve it, but read again next time.
        entry.loadedAt = startedAt < entry.expiredAt ? -Infinity : startedAt;
        entry.loading = null;
        return entry.snap;
      },
      (err: unknown) => {
        entry.loading = null;
        throw err;
      },
    );
    return entry.loading;
  }

  return {
    maxAgeMs,
    get(key, load) {
      if (maxAgeMs <= 0) return load().then((v) => (v === null ? null : publish(v)));
      let entry = entries.get(key);
      if (!entry) {
        if (entries.size > 10_000) entries.clear();
        entry = { snap: null, readAt: -Infinity, loadedAt: -Infinity, expiredAt: 0, loading: null };
        entries.set(key, entry);
        return refresh(key, entry, load);
      }
      if (performance.now() - entry.loadedAt < maxAgeMs) return Promise.resolve(entry.snap);
      // While it is re-read: a snapshot that only aged is served meanwhile; one a change expired is
      // not (issue 26 reads: a cancelled or sold-out event shows at once), so readers wait for the re-read.
      if (entry.loading) return entry.expiredAt > entry.readAt ? entry.loading : Promise.resolve(entry.snap);
      return refresh(key, entry, load);
    },
    peek(key) {
      return entries.get(key)?.snap;
    },
    expire(which) {
      const now = performance.now();
      for (const [key, entry] of entries) {
        if (which && !which(key, entry.snap)) continue;
        entry.loadedAt = -Infinity;
        entry.expiredAt = now;
      }
    },
  };
}

/** Does the request's If-None-Match name this ETag (or `*`)? Weak comparison, as RFC 9110 asks for GET. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** The encoding to answer in: br, else gzip, when the request accepts it (q-values are not weighed; no client sends q=0 for these). */
export function acceptedEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null;
  if (/\bbr\b/.test(header)) return 'br';
  return /\bgzip\b/.test(header) ? 'gzip' : null;
}

type Encoding = 'br' | 'gzip';
type Compressible = { body?: string; html?: string };
const compressedBodies = new WeakMap<object, Partial<Record<Encoding, Buffer>>>();
const compressing = new WeakMap<object, Partial<Record<Encoding, Promise<Buffer>>>>();
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** `body` (a snapshot's JSON, a rendered page) compressed, if it already is (fast-path.ts answers only then). */
export function compressedNow(owner: Compressible, encoding: Encoding): Buffer | undefined {
  return compressedBodies.get(owner)?.[encoding];
}

/**
 * `body` (a snapshot's JSON, a rendered page) compressed once per owner object and encoding, in
 * libuv's thread pool (issue 26 reads: a page's brotli at quality 9 took the event loop for
 * milliseconds once a second per page, which every read queued behind); readers arriving meanwhile wait for the same one.
 */
export function compressedBody(owner: Compressible, encoding: Encoding): Promise<Buffer> {
  const done = compressedNow(owner, encoding);
  if (done) return Promise.resolve(done);
  let pending = compressing.get(owner);
  if (!pending) compressing.set(owner, (pending = {}));
  const text = owner.body ?? owner.html ?? '';
  return (pending[encoding] ??= (encoding === 'br' ? brotliAsync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }) : gzipAsync(text, { level: 9 })).then((buf) => {
    let forms = compressedBodies.get(owner);
    if (!forms) compressedBodies.set(owner, (forms = {}));
    forms[encoding] = buf;
    delete pending[encoding];
    return buf;
  }));
}
