import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';

const ZSiteContext = z.object({
  mode: z.enum(['platform', 'tenant']),
  tenant: z.object({ id: z.string(), name: z.string(), url: z.string(), status: z.string(), brandColor: z.string().nullable() }).nullable(),
  mailOutbox: z.boolean(),
});

/** Which face of Marquee this host serves; the web app picks its mode from it. */
export function registerSiteRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/site/context',
    { config: { access: { kind: 'public' } }, schema: { tags: ['site'], response: { 200: ZSiteContext } } },
    async (req) => ({
      mode: req.ctx.hostTenant ? ('tenant' as const) : ('platform' as const),
      tenant: req.ctx.hostTenant ? { ...req.ctx.hostTenant, brandColor: req.ctx.hostTenant.brandColor ?? null } : null,
      mailOutbox: !deps.config.smtpUrl,
    }),
  );
}
