import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { cachedHostTenant, tenantLabel } from '../../platform/auth/guard.js';
import { requestIdOf } from '../../platform/request-context.js';
import { acceptedEncoding, compressedBody, matchesEtag } from './snapshots.js';

// The public reads' fast path (issue 13 "Public reads"): during an on-sale rush nearly every request
// is the same GET of an event (its JSON, its home, its ticket menu). Each one the full server answers
// is remembered here, headers and body as sent (security headers included), until its snapshot's
// age runs out (PUBLIC_SNAPSHOT_MS) or a change through this node expires its tenant; the same GET
// on the same host meanwhile is answered from here before Fastify's routing, hooks and handler run.
// Only plain GETs without a query or cookie-dependent answer qualify (see `remember`); anything
// else, and anything not remembered, goes the full way. Such answers are not in the request log.

type Remembered = { tenantId: string; until: number; status: number; headers: OutgoingHttpHeaders; body: string; etag: string; route: string };

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
 * `body` uncompressed, `until` the snapshot's expiry (performance.now() clock).
 */
export function remember(deps: Deps, req: FastifyRequest, reply: FastifyReply, opts: { tenantId: string; body: string; etag: string; until: number }) {
  if (deps.config.publicSnapshotMs <= 0 || req.method !== 'GET' || req.url.includes('?')) return;
  // An answer that sets a cookie belongs to one visitor: never repeated to another.
  if (reply.hasHeader('set-cookie')) return;
  const store = storeOf(deps);
  if (store.size >= MAX) store.clear();
  const headers = { ...reply.getHeaders() } as OutgoingHttpHeaders;
  for (const h of ['content-length', 'content-encoding', 'date', 'connection', 'keep-alive', 'transfer-encoding']) delete headers[h];
  store.set(keyOf(req.headers.host ?? '', req.url), {
    tenantId: opts.tenantId,
    until: opts.until,
    status: reply.statusCode,
    headers,
    body: opts.body,
    etag: opts.etag,
    // Its answers are timed under the route that made it (issue 26 metrics).
    route: req.routeOptions.url ?? '',
  });
}

/** A change through this node: nothing remembered for the tenant (or anyone, 'all') is answered again. */
export function forget(deps: Deps, tenantId: string | 'all') {
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
  const hit = store.get(keyOf(host, url));
  if (!hit) return undefined;
  if (performance.now() >= hit.until) {
    store.delete(keyOf(host, url));
    return undefined;
  }
  // The host must still be this tenant's, as the guard would find it (a deleted tenant's is dropped).
  const label = tenantLabel(host, deps.config.baseDomain);
  if (!label || cachedHostTenant(deps.db, label)?.id !== hit.tenantId) return undefined;
  if (matchesEtag(req.headers['if-none-match'], hit.etag)) {
    const { 'content-type': _t, ...headers } = hit.headers;
    res.writeHead(304, { ...headers, 'x-request-id': requestIdOf(req) });
    res.end();
    return hit;
  }
  const encoding = acceptedEncoding(req.headers['accept-encoding']);
  const body = encoding ? compressedBody(hit, encoding) : Buffer.from(hit.body);
  res.writeHead(hit.status, { ...hit.headers, ...(encoding ? { 'content-encoding': encoding } : {}), 'content-length': body.length, 'x-request-id': requestIdOf(req) });
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
