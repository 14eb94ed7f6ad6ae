import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { cachedHostTenant, tenantLabel } from '../../platform/auth/guard.js';
import { requestIdOf } from '../../platform/request-context.js';
import { acceptedEncoding, compressedNow, matchesEtag } from './snapshots.js';

// The public reads' fast path (issue 13 "Public reads"): during an on-sale rush nearly every request
// is the same GET of an event (its JSON, its home, its ticket menu). Each one the full server answers
// is remembered here, headers and body as sent (security headers included), until its snapshot's
// age runs out (PUBLIC_SNAPSHOT_MS) or a change through this node expires its tenant; the same GET
// on the same host meanwhile is answered from here before Fastify's routing, hooks and handler run.
// Only plain GETs without a query or cookie-dependent answer qualify (see `remember`); anything
// else, and anything not remembered, goes the full way. Such answers are not in the request log.
//
// Past its snapshot's age an answer is not dropped at once (issue 26 reads): one request at a time
// goes the full way, whose read of the snapshot re-reads the database, and the others meanwhile get
// the answer remembered, as the snapshot cache itself gives them its previous snapshot while it
// re-reads. During an on-sale that re-read waits its turn in the pool behind the orders, and every
// read used to go the full way meanwhile (most of them, on a loaded machine). A change through this
// node still forgets the tenant's answers at once; an answer is never repeated STALE_MS past its age.

type Remembered = {
  tenantId: string;
  until: number;
  /** When a request past `until` was last let through to the full server (performance.now()). */
  passedAt: number;
  status: number;
  headers: OutgoingHttpHeaders;
  body: string;
  /** What the body's compressed forms are kept with (the snapshot, the rendered page): compressed once for every answer made from it. */
  owner: { body?: string; html?: string };
  etag: string;
  route: string;
  /** The answer this one replaced, repeated in its place until this one's compressed form is made (never after a change: that forgets both). */
  previous?: Remembered;
};

/** How long past its age an answer may still be repeated while its snapshot is re-read (the `stale-while-revalidate` CDNs are told). */
export const STALE_MS = 10_000;
/** Past its age, one request per this long goes the full way (it re-reads the snapshot, or finds the new one). */
const PASS_EVERY_MS = 50;

/** How many reads this node answered from memory and how many went the full way while an answer was remembered (bench/rush-reads.ts, tests). */
export type FastPathCounts = {
  hits: number;
  /** Past the age, let through to re-read. */
  passed: number;
  /** Nothing remembered for it (or dropped: past STALE_MS, or a change). */
  absent: number;
  /** The host's tenant not cached (the guard must look it up). */
  host: number;
  /** Its compressed form not made yet. */
  compressing: number;
};
const counts = new WeakMap<Deps['db'], FastPathCounts>();
export function fastPathCounts(deps: Deps): FastPathCounts {
  let c = counts.get(deps.db);
  if (!c) counts.set(deps.db, (c = { hits: 0, passed: 0, absent: 0, host: 0, compressing: 0 }));
  return c;
}

const stores = new WeakMap<Deps['db'], Map<string, Remembered>>();
const MAX = 5_000;

function storeOf(deps: Deps): Map<string, Remembered> {
  let store = stores.get(deps.db);
  if (!store) stores.set(deps.db, (store = new Map()));
  return store;
}

const keyOf = (host: string, url: string) => `${host.toLowerCase()} ${url}`;

/**
 * Remembers what the full server is sending for this request (call it just before sending, after the status is set):
 * `owner` the snapshot or rendered page whose body is sent (uncompressed; its compressed forms are kept with it), `until` the snapshot's expiry (performance.now() clock).
 */
export function remember(
  deps: Deps,
  req: FastifyRequest,
  reply: FastifyReply,
  opts: { tenantId: string; owner: { body?: string; html?: string }; etag: string; until: number },
) {
  if (deps.config.publicSnapshotMs <= 0 || req.method !== 'GET' || req.url.includes('?')) return;
  // An answer that sets a cookie belongs to one visitor: never repeated to another.
  if (reply.hasHeader('set-cookie')) return;
  // A snapshot read before a change that went through since (its `until` is its read time plus the age).
  if (readBeforeForgotten(deps, opts.tenantId, opts.until - deps.config.publicSnapshotMs)) return;
  const store = storeOf(deps);
  const key = keyOf(req.headers.host ?? '', req.url);
  const known = store.get(key);
  // The same answer again (its snapshot is still being re-read): the one remembered stays, as it is.
  if (known && known.etag === opts.etag && known.tenantId === opts.tenantId && known.until >= opts.until) return;
  if (store.size >= MAX) store.clear();
  const headers = { ...reply.getHeaders() } as OutgoingHttpHeaders;
  for (const h of ['content-length', 'content-encoding', 'date', 'connection', 'keep-alive', 'transfer-encoding']) delete headers[h];
  if (known) known.previous = undefined;
  store.set(key, {
    previous: known?.tenantId === opts.tenantId ? known : undefined,
    tenantId: opts.tenantId,
    until: opts.until,
    passedAt: -Infinity,
    status: reply.statusCode,
    headers,
    body: opts.owner.body ?? opts.owner.html ?? '',
    owner: opts.owner,
    etag: opts.etag,
    // Its answers are timed under the route that made it (issue 26 metrics).
    route: req.routeOptions.url ?? '',
  });
}

// When each tenant's answers (key 'all': everyone's) were last forgotten: an answer made from a
// snapshot read before that, by a request still under way then, is not remembered after it.
const forgotten = new WeakMap<Deps['db'], Map<string, number>>();

function readBeforeForgotten(deps: Deps, tenantId: string, readAt: number): boolean {
  const times = forgotten.get(deps.db);
  if (!times) return false;
  return readAt < (times.get(tenantId) ?? -Infinity) || readAt < (times.get('all') ?? -Infinity);
}

/** A change through this node: nothing remembered for the tenant (or anyone, 'all') is answered again. */
export function forget(deps: Deps, tenantId: string | 'all') {
  let times = forgotten.get(deps.db);
  if (!times) forgotten.set(deps.db, (times = new Map()));
  if (times.size > 10_000) times.clear();
  times.set(tenantId, performance.now());
  const store = stores.get(deps.db);
  if (!store) return;
  if (tenantId === 'all') return store.clear();
  for (const [key, r] of store) if (r.tenantId === tenantId) store.delete(key);
}

/** Answers the request from memory if it can; false: the full server must. */
function answer(deps: Deps, req: IncomingMessage, res: ServerResponse): boolean {
  if (!deps.metrics.enabled) return !!answerFromMemory(deps, req, res);
  const started = performance.now();
  const hit = answerFromMemory(deps, req, res);
  if (hit) deps.metrics.observeRequest('GET', hit.route, res.statusCode, (performance.now() - started) / 1000);
  return !!hit;
}

/** The answer this node remembered, sent; undefined when it has none to give. */
function answerFromMemory(deps: Deps, req: IncomingMessage, res: ServerResponse): Remembered | undefined {
  if (req.method !== 'GET') return undefined;
  const url = req.url ?? '';
  const host = req.headers.host ?? '';
  const store = stores.get(deps.db);
  if (!store || store.size === 0) return undefined;
  const key = keyOf(host, url);
  const hit = store.get(key);
  if (!hit) {
    fastPathCounts(deps).absent++;
    return undefined;
  }
  const now = performance.now();
  if (now >= hit.until) {
    if (now >= hit.until + STALE_MS) {
      store.delete(key);
      fastPathCounts(deps).absent++;
      return undefined;
    }
    if (now - hit.passedAt >= PASS_EVERY_MS) {
      // This one re-reads the snapshot (or finds it re-read) and remembers the new answer.
      hit.passedAt = now;
      fastPathCounts(deps).passed++;
      return undefined;
    }
  }
  // The host must still be this tenant's, as the guard would find it (a deleted tenant's is dropped).
  const label = tenantLabel(host, deps.config.baseDomain);
  if (!label || cachedHostTenant(deps.db, label)?.id !== hit.tenantId) {
    fastPathCounts(deps).host++;
    return undefined;
  }
  if (matchesEtag(req.headers['if-none-match'], hit.etag)) {
    const { 'content-type': _t, ...headers } = hit.headers;
    fastPathCounts(deps).hits++;
    res.writeHead(304, { ...headers, 'x-request-id': requestIdOf(req) });
    res.end();
    return hit;
  }
  const encoding = acceptedEncoding(req.headers['accept-encoding']);
  // Not compressed yet (that runs off the event loop): the answer it replaced meanwhile, else the full way waits for it.
  let sent: Remembered = hit;
  let body = encoding ? compressedNow(hit.owner, encoding) : Buffer.from(hit.body);
  if (!body && encoding && hit.previous) {
    body = compressedNow(hit.previous.owner, encoding);
    sent = hit.previous;
  }
  if (!body) {
    fastPathCounts(deps).compressing++;
    return undefined;
  }
  fastPathCounts(deps).hits++;
  res.writeHead(sent.status, { ...sent.headers, ...(encoding ? { 'content-encoding': encoding } : {}), 'content-length': body.length, 'x-request-id': requestIdOf(req) });
  res.end(body);
  return hit;
}

/** Puts the fast path in front of the app's request handler (after the app is ready). */
export function installPublicFastPath(app: FastifyInstance, deps: Deps) {
  if (deps.config.publicSnapshotMs <= 0) return;
  const [handler] = app.server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  if (!handler) return;
  app.server.removeListener('request', handler);
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!answer(deps, req, res)) handler(req, res);
  });
}
