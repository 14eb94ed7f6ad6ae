import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { M } from '@marquee/core';
import { migrationStatus, shippedMigrations } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { notFound, unauthenticated } from '../../platform/errors.js';
import { escapeHtml } from '../../platform/mail.js';

/** How long readiness waits for the database before it answers 503 (a hung database must not hang the probe). */
export const READY_TIMEOUT_MS = 2_000;

const ZLive = z.object({ status: z.literal('ok') });
const ZReady = z.object({
  status: z.enum(['ready', 'not ready']),
  /** Why not, for people: the database does not answer, or which migrations are missing. */
  reason: z.string().optional(),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), reachable: z.boolean() }),
  migrations: z.object({ applied: z.number(), shipped: z.number() }),
});

const ZHealth = z.object({
  /** draining: the node got SIGTERM and is finishing its requests (issue 26); a load balancer sends it nothing new. */
  status: z.enum(['ok', 'degraded', 'draining']),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), reachable: z.boolean() }),
  migrations: z.object({ applied: z.number(), shipped: z.number(), atHead: z.boolean() }),
});

export function registerHealthRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The migrations this build ships: read from its journal once, not on every probe (the file is part of the build).
  const shipped = shippedMigrations();

  r.get(
    '/api/health',
    { config: { access: { kind: 'public' } }, schema: { tags: ['health'], response: { 200: ZHealth, 503: ZHealth } } },
    async (_req, reply) => {
      try {
        const m = await migrationStatus(deps.db, shipped);
        // More applied than shipped is a newer release's migrations during a rolling upgrade: they
        // are backward compatible (docs/deploy.md), so this older node still serves (issue 26).
        const atHead = m.applied >= m.shipped;
        const status = deps.lifecycle.draining ? 'draining' : atHead ? 'ok' : 'degraded';
        return reply.status(status === 'ok' ? 200 : 503).send({
          status,
          database: { kind: deps.database.kind, reachable: true },
          migrations: { ...m, atHead },
        });
      } catch {
        return reply.status(503).send({
          status: deps.lifecycle.draining ? 'draining' : 'degraded',
          database: { kind: deps.database.kind, reachable: false },
          migrations: { applied: 0, shipped: 0, atHead: false },
        });
      }
    },
  );

  // Issue 26: liveness and readiness apart (docs/operations.md "Probes"). Outside /api, so the guard
  // leaves them alone: they answer on any host, as a probe calls them by address.
  // Live: the process answers; nothing else is asked (a database outage must not restart every node).
  r.get('/livez', { schema: { hide: true, response: { 200: ZLive } } }, async () => ({ status: 'ok' as const }));

  // Ready: the database answers and every migration this build ships is applied; 503 with the reason otherwise.
  r.get('/readyz', { schema: { hide: true, response: { 200: ZReady, 503: ZReady } } }, async (_req, reply) => {
    const kind = deps.database.kind;
    // A node that got SIGTERM finishes what it has and takes nothing new: a balancer reading this probe stops sending.
    if (deps.lifecycle.draining) {
      return reply.status(503).send({ status: 'not ready', reason: M.readyDraining, database: { kind, reachable: true }, migrations: { applied: 0, shipped } });
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS);
    });
    const status = await Promise.race([migrationStatus(deps.db, shipped).catch(() => 'unreachable' as const), timeout]).finally(() => clearTimeout(timer));
    if (status === 'timeout' || status === 'unreachable') {
      const reason = status === 'timeout' ? M.readyDatabaseSlow(READY_TIMEOUT_MS) : M.readyDatabaseDown;
      return reply.status(503).send({ status: 'not ready', reason, database: { kind, reachable: false }, migrations: { applied: 0, shipped } });
    }
    const body = { database: { kind, reachable: true }, migrations: { applied: status.applied, shipped } };
    if (status.applied < shipped) {
      const reason = M.readyMigrationsPending(status.applied, shipped);
      return reply.status(503).send({ status: 'not ready', reason, ...body });
    }
    return reply.send({ status: 'ready', ...body });
  });

  // Issue 26: Prometheus metrics on the public port, only with METRICS_TOKEN and no METRICS_PORT
  // (docs/decisions.md "Issue 26.1"); otherwise this path does not exist here.
  r.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (deps.metrics.servedOn !== 'public') throw notFound();
    if (!deps.metrics.authorized(req.headers.authorization)) {
      reply.header('www-authenticate', 'Bearer');
      throw unauthenticated(M.metricsTokenRequired);
    }
    const { contentType, body } = await deps.metrics.render();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  });

  // The OpenAPI document, generated from the same zod schemas that validate each route.
  r.get('/api/docs/openapi.json', { config: { access: { kind: 'public' } }, schema: { hide: true } }, async () => app.swagger());

  r.get('/api/docs', { config: { access: { kind: 'public' } }, schema: { hide: true } }, async (_req, reply) => {
    const doc = app.swagger() as { paths?: Record<string, Record<string, { summary?: string; tags?: string[] }>> };
    const rows = Object.entries(doc.paths ?? {})
      .flatMap(([p, ops]) =>
        Object.entries(ops).map(
          ([method, op]) =>
            `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escapeHtml(p)}</code></td><td>${escapeHtml(op.tags?.join(', ') ?? '')}</td></tr>`,
        ),
      )
      .join('');
    return reply
      .type('text/html')
      .send(
        `<!doctype html><meta charset="utf-8"><title>Marquee API</title><style>body{font:14px system-ui;margin:2rem}td{padding:2px 12px}</style><h1>Marquee API</h1><p>The machine-readable document is at <a href="/api/docs/openapi.json">/api/docs/openapi.json</a>.</p><table>${rows}</table>`,
      );
  });
}
