import { ZCreateTicketTypeRequest, ZSuccess, ZTicketType, ZTicketTypeList, ZUpdateTicketTypeRequest } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { tenantCtxOf } from '../../platform/auth/guard.js';
import { EVENT_READ, EVENT_WRITE } from '../events/access.js';
import * as service from './service.js';

const ZEventParams = z.object({ tenantId: z.string(), eventId: z.uuid() });
const ZTicketTypeParams = ZEventParams.extend({ ticketTypeId: z.uuid() });

/** An event's ticket types (spec reports-payouts-checkout §3 Ticket type details). */
export function registerTicketTypeRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['ticket types'];
  const base = '/api/tenants/:tenantId/events/:eventId/ticket-types';

  r.get(
    base,
    { config: { access: EVENT_READ }, schema: { tags, params: ZEventParams, response: { 200: ZTicketTypeList } } },
    async (req) => service.listTicketTypes({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, query: req.query }),
  );

  r.post(
    base,
    { config: { access: EVENT_WRITE }, schema: { tags, params: ZEventParams, body: ZCreateTicketTypeRequest, response: { 201: ZTicketType } } },
    async (req, reply) =>
      reply.status(201).send(await service.createTicketType({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, input: req.body.details })),
  );

  r.get(
    `${base}/:ticketTypeId`,
    { config: { access: EVENT_READ }, schema: { tags, params: ZTicketTypeParams, response: { 200: ZTicketType } } },
    async (req) => service.getTicketType({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, ticketTypeId: req.params.ticketTypeId }),
  );

  r.patch(
    `${base}/:ticketTypeId`,
    { config: { access: EVENT_WRITE }, schema: { tags, params: ZTicketTypeParams, body: ZUpdateTicketTypeRequest, response: { 200: ZTicketType } } },
    async (req) =>
      service.updateTicketType({
        deps,
        ctx: tenantCtxOf(req),
        eventId: req.params.eventId,
        ticketTypeId: req.params.ticketTypeId,
        changes: req.body.details,
      }),
  );

  r.delete(
    `${base}/:ticketTypeId`,
    {
      config: { access: EVENT_WRITE },
      schema: { tags, summary: 'Deletes a ticket type that never sold or held a ticket', params: ZTicketTypeParams, response: { 200: ZSuccess } },
    },
    async (req) => service.deleteTicketType({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, ticketTypeId: req.params.ticketTypeId }),
  );
}
