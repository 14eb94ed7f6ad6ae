import {
  PLATFORM_WRITE,
  ZWebhookDeliveryList,
  ZWebhookEndpoint,
  ZWebhookEndpointAnswer,
  ZWebhookEndpointList,
  ZWebhookEndpointRequest,
  ZWebhookEndpointUpdate,
  ZWebhookRedeliverAnswer,
  ZWebhookSecretAnswer,
} from '@marquee/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { AuditActor } from '../../platform/audit.js';
import type { Access } from '../../platform/auth/context.js';
import { platformCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { notFound } from '../../platform/errors.js';
import { listDeliveries, redeliver } from './deliveries.js';
import { registerWebhookJobs } from './deliver.js';
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, rotateSecret, updateEndpoint } from './endpoints.js';
import type { Owner } from './repository.js';

const tags = ['webhooks'];
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An id that is not a UUID names nothing: 404, as another owner's id does. */
const idOf = (raw: string) => {
  if (!UUID_RE.test(raw)) throw notFound();
  return raw.toLowerCase();
};
/** The path's ids (the params schema differs by side, so Fastify types them loosely). */
const P = (req: FastifyRequest) => req.params as { endpointId: string; deliveryId: string };
const ok = z.object({ success: z.literal(true), message: z.string() });

type Side = { base: string; access: Access; params: z.ZodObject; owner: (req: FastifyRequest) => Owner; user: (req: FastifyRequest) => string; actor: (req: FastifyRequest) => AuditActor };

/** Outgoing webhooks (issue 25): a tenant's endpoints, and the platform's (which get every tenant's events). */
export function registerWebhookRoutes(app: FastifyInstance, deps: Deps) {
  registerWebhookJobs(deps);
  const sides: Side[] = [
    {
      base: '/api/tenants/:tenantId/webhooks/endpoints',
      access: { kind: 'tenant', roles: ['tenant_admin'], platformRoles: PLATFORM_WRITE },
      params: z.object({ tenantId: z.string() }),
      owner: (req) => ({ tenantId: tenantCtxOf(req).tenantId }),
      user: (req) => tenantCtxOf(req).user.id,
      actor: (req) => tenantCtxOf(req).actor,
    },
    {
      base: '/api/platform/webhooks/endpoints',
      access: { kind: 'platform', roles: PLATFORM_WRITE },
      params: z.object({}),
      owner: () => ({ tenantId: null }),
      user: (req) => platformCtxOf(req).user.id,
      actor: (req) => platformCtxOf(req).actor,
    },
  ];
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const side of sides) {
    const config = { access: side.access };
    const one = side.params.extend({ endpointId: z.string().max(100) });
    const delivery = one.extend({ deliveryId: z.string().max(100) });
    r.get(side.base, { config, schema: { tags, summary: 'Webhook endpoints', params: side.params, response: { 200: ZWebhookEndpointList } } }, async (req) =>
      listEndpoints({ deps, owner: side.owner(req) }),
    );
    r.post(
      side.base,
      { config, schema: { tags, summary: 'Adds an endpoint; its signing secret is answered this once', params: side.params, body: ZWebhookEndpointRequest, response: { 201: ZWebhookSecretAnswer } } },
      async (req, reply) => reply.status(201).send(await createEndpoint({ deps, owner: side.owner(req), userId: side.user(req), actor: side.actor(req), input: req.body })),
    );
    r.get(`${side.base}/:endpointId`, { config, schema: { tags, summary: 'One webhook endpoint', params: one, response: { 200: ZWebhookEndpoint } } }, async (req) =>
      getEndpoint({ deps, owner: side.owner(req), endpointId: idOf(P(req).endpointId) }),
    );
    r.patch(
      `${side.base}/:endpointId`,
      { config, schema: { tags, summary: 'Changes an endpoint: address, description, events, on or off', params: one, body: ZWebhookEndpointUpdate, response: { 200: ZWebhookEndpointAnswer } } },
      async (req) => updateEndpoint({ deps, owner: side.owner(req), endpointId: idOf(P(req).endpointId), actor: side.actor(req), input: req.body }),
    );
    r.delete(`${side.base}/:endpointId`, { config, schema: { tags, summary: 'Deletes an endpoint and its delivery log', params: one, response: { 200: ok } } }, async (req) =>
      deleteEndpoint({ deps, owner: side.owner(req), endpointId: idOf(P(req).endpointId), actor: side.actor(req) }),
    );
    r.post(
      `${side.base}/:endpointId/rotate-secret`,
      { config, schema: { tags, summary: 'A new signing secret (answered this once); the old one also signs for 24 hours', params: one, response: { 200: ZWebhookSecretAnswer } } },
      async (req) => rotateSecret({ deps, owner: side.owner(req), endpointId: idOf(P(req).endpointId), actor: side.actor(req) }),
    );
    r.get(`${side.base}/:endpointId/deliveries`, { config, schema: { tags, summary: "The endpoint's delivery log", params: one, response: { 200: ZWebhookDeliveryList } } }, async (req) =>
      listDeliveries({ deps, owner: side.owner(req), endpointId: idOf(P(req).endpointId), query: req.query }),
    );
    r.post(
      `${side.base}/:endpointId/deliveries/:deliveryId/redeliver`,
      { config, schema: { tags, summary: 'Sends a delivery again', params: delivery, response: { 200: ZWebhookRedeliverAnswer } } },
      async (req) => redeliver({ deps, owner: side.owner(req), endpointId: idOf(P(req).endpointId), deliveryId: idOf(P(req).deliveryId) }),
    );
  }
}
