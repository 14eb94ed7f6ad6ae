import { M, ZTicketHistory, ZTicketLinkPage, ZTransferSettings, ZTransferTicketRequest, ZTransferTicketResponse } from '@marquee/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { siteCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { AppError } from '../../platform/errors.js';
import { EVENT_READ, EVENT_WRITE } from '../events/access.js';
import { ORDER_VIEW } from '../order-admin/access.js';
import { getTicketHistory } from './ticket-history.js';
import { downloadTicketByLink, getTicketLinkPage } from './ticket-link.js';
import { getTransferSettings, setTransferSettings } from './transfer-settings.js';
import { transferTicket } from './transfer-ticket.js';

// Limits like the order link's other actions (docs/decisions.md "Issue 24: ticket transfers"): a
// buyer passes on each ticket of a large order; a script trying link after link, or mailing strangers, is stopped.
const TRANSFER_PER_ORDER_LINK = { max: 20, timeWindow: 10 * 60_000 };
const TRANSFER_PER_ADDRESS = { max: 30, timeWindow: 10 * 60_000 };
const DOWNLOAD_PER_ADDRESS = { max: 30, timeWindow: 10 * 60_000 };

const ZTokenParams = z.object({ token: z.string().max(100) });
const ZEventParams = z.object({ tenantId: z.string(), eventId: z.string().max(100) });
const ZOrderParams = ZEventParams.extend({ orderUID: z.string().max(100) });

/** Ticket transfers (issue 24): the order link's transfer, the new holder's link, the event setting, each ticket's history. */
export function registerTransferRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const site = { access: { kind: 'site' } as const };

  const limitBy = (limit: { max: number; timeWindow: number }, keyOf: (req: FastifyRequest) => string | null) => {
    const check = app.createRateLimit({ ...limit, keyGenerator: (req) => `${req.routeOptions.url}|${keyOf(req)}` });
    return async (req: FastifyRequest, reply: FastifyReply) => {
      if (!keyOf(req)) return;
      const outcome = await check(req);
      if (!outcome.isAllowed && outcome.isExceeded) {
        reply.header('retry-after', outcome.ttlInSeconds);
        throw new AppError('RATE_LIMITED', M.tooManyRequests);
      }
    };
  };
  // The Host, not the site context: these run before the access guard has resolved it.
  const ipOf = (req: FastifyRequest) => `${req.ctx.host}|${req.ip}`;
  const tokenOf = (req: FastifyRequest) => (req.params as { token?: string }).token ?? null;

  r.post(
    '/api/p/order-links/:token/transfers',
    {
      config: site,
      preValidation: [limitBy(TRANSFER_PER_ADDRESS, ipOf), limitBy(TRANSFER_PER_ORDER_LINK, tokenOf)],
      schema: {
        tags: ['event site'],
        summary: 'Passes one ticket of the order on to another person: it gets a new Ticket ID and code, mailed to them with a link of their own',
        params: ZTokenParams,
        body: ZTransferTicketRequest,
        response: { 200: ZTransferTicketResponse },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return transferTicket({ deps, site: siteCtxOf(req), token: req.params.token, input: req.body });
    },
  );

  r.get(
    '/api/p/ticket-links/:token',
    { config: site, schema: { tags: ['event site'], summary: "A transferred ticket's holder's page: the ticket, its code, the event", params: ZTokenParams, response: { 200: ZTicketLinkPage } } },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return getTicketLinkPage({ deps, site: siteCtxOf(req), token: req.params.token });
    },
  );

  r.post(
    '/api/p/ticket-links/:token/download',
    {
      config: site,
      preValidation: [limitBy(DOWNLOAD_PER_ADDRESS, ipOf)],
      schema: { tags: ['event site'], summary: "The holder's ticket as a PDF", params: ZTokenParams, response: { 200: z.any().describe('application/pdf: ticket_{ticketUID}.pdf') } },
    },
    async (req, reply) => {
      const { filename, bytes } = await downloadTicketByLink({ deps, site: siteCtxOf(req), token: req.params.token });
      return reply.type('application/pdf').header('content-disposition', `attachment; filename="${filename}"`).header('cache-control', 'private, no-store').send(bytes);
    },
  );

  r.get(
    '/api/tenants/:tenantId/events/:eventId/transfer-settings',
    { config: { access: EVENT_READ }, schema: { tags: ['events'], summary: 'Whether buyers may transfer this event’s tickets (default: allowed)', params: ZEventParams, response: { 200: ZTransferSettings } } },
    async (req) => getTransferSettings({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );

  r.put(
    '/api/tenants/:tenantId/events/:eventId/transfer-settings',
    {
      config: { access: EVENT_WRITE },
      schema: { tags: ['events'], summary: 'Allows or forbids transfers of this event’s tickets', params: ZEventParams, body: ZTransferSettings, response: { 200: ZTransferSettings } },
    },
    async (req) => setTransferSettings({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, input: req.body }),
  );

  r.get(
    '/api/tenants/:tenantId/events/:eventId/orders/:orderUID/ticket-history',
    {
      config: { access: ORDER_VIEW },
      schema: { tags: ['orders'], summary: "Each ticket of the order with what happened to it: sold, transferred, checked in, voided, refunded", params: ZOrderParams, response: { 200: ZTicketHistory } },
    },
    async (req) => getTicketHistory({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, orderUID: req.params.orderUID }),
  );
}
