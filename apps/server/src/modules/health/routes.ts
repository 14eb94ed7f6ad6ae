import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { migrationStatus } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { escapeHtml } from '../../platform/mail.js';

const ZHealth = z.object({
  /** draining: the node got SIGTERM and is finishing its requests (issue 26); a load balancer sends it nothing new. */
  status: z.enum(['ok', 'degraded', 'draining']),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), reachable: z.boolean() }),
  migrations: z.object({ applied: z.number(), shipped: z.number(), atHead: z.boolean() }),
});

export function registerHealthRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/health',
    { config: { access: { kind: 'public' } }, schema: { tags: ['health'], response: { 200: ZHealth, 503: ZHealth } } },
    async (_req, reply) => {
      try {
        const m = await migrationStatus(deps.db);
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
