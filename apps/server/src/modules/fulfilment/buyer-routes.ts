import { M, ZFindTicketsRequest, ZOrderAnswers, ZOrderAnswersInput, ZOrderPage, ZResendTicketsResponse } from '@marquee/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { siteCtxOf } from '../../platform/auth/guard.js';
import { AppError } from '../../platform/errors.js';
import { applePassByLink, googleWalletByLink } from './wallet-passes.js';
import { downloadByLink, editAnswersByLink, FIND_TICKETS_JOB, getAnswersByLink, getOrderPage, requestOrderLinks, resendByLink, sendOrderLinks } from './buyer.js';

// Limits of our own (spec silent; docs/decisions.md "Buyers' self-service limits"): a person
// resends or asks for their links a few times; a script walking addresses or mailing someone
// over and over is stopped.
const RESEND_PER_ORDER_LINK = { max: 3, timeWindow: 10 * 60_000 };
const RESEND_PER_ADDRESS = { max: 10, timeWindow: 10 * 60_000 };
const FIND_PER_EMAIL = { max: 3, timeWindow: 60 * 60_000 };
const FIND_PER_ADDRESS = { max: 10, timeWindow: 10 * 60_000 };

const ZTokenParams = z.object({ token: z.string().max(100) });
const ZTicketParams = z.object({ token: z.string().max(100), ticketId: z.string().max(100) });

/** The private order page's API and "Find my tickets", on a tenant's host (issue 15, buyers). */
export function registerBuyerRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['event site'];
  const access = { kind: 'site' } as const;
  deps.jobs.register(FIND_TICKETS_JOB, async ({ tenantId, email }: { tenantId: string; email: string }) => {
    await sendOrderLinks({ deps, tenantId, email });
  });

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
  const hostOf = (req: FastifyRequest) => req.ctx.host;
  const ipOf = (req: FastifyRequest) => `${hostOf(req)}|${req.ip}`;
  const tokenOf = (req: FastifyRequest) => (req.params as { token?: string }).token ?? null;
  const emailOf = (req: FastifyRequest) => {
    const email = (req.body as { email?: unknown } | undefined)?.email;
    return typeof email === 'string' && email.trim() ? `${hostOf(req)}|${email.trim().toLowerCase()}` : null;
  };

  r.get(
    '/api/p/order-links/:token',
    { config: { access }, schema: { tags, summary: 'The private order page: the order, its event and tickets', params: ZTokenParams, response: { 200: ZOrderPage } } },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return getOrderPage({ deps, site: siteCtxOf(req), token: req.params.token });
    },
  );

  r.get(
    '/api/p/order-links/:token/answers',
    { config: { access }, schema: { tags, summary: 'The order’s attendees and answers, and whether the buyer may still change them', params: ZTokenParams, response: { 200: ZOrderAnswers } } },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return getAnswersByLink({ deps, site: siteCtxOf(req), token: req.params.token });
    },
  );

  r.put(
    '/api/p/order-links/:token/answers',
    {
      config: { access },
      preHandler: [limitBy(RESEND_PER_ADDRESS, ipOf)],
      schema: { tags, summary: 'Changes the attendees’ names and answers until the event’s deadline (409 ANSWERS_LOCKED after it)', params: ZTokenParams, body: ZOrderAnswersInput, response: { 200: ZOrderAnswers } },
    },
    async (req) => editAnswersByLink({ deps, site: siteCtxOf(req), token: req.params.token, input: req.body }),
  );

  r.post(
    '/api/p/order-links/:token/download',
    {
      config: { access },
      schema: { tags, summary: 'The order’s valid tickets as one PDF', params: ZTokenParams, response: { 200: z.any().describe('application/pdf: tickets_{orderUID}.pdf') } },
    },
    async (req, reply) => {
      const { filename, bytes } = await downloadByLink({ deps, site: siteCtxOf(req), token: req.params.token });
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(bytes);
    },
  );

  // Issue 28: GETs, so that a plain link (the order page's button, the mail's) opens the pass in Wallet.
  r.get(
    '/api/p/order-links/:token/tickets/:ticketId/apple-wallet',
    {
      config: { access },
      schema: {
        tags,
        summary: 'One valid ticket of the order as an Apple Wallet pass (404 when the operator has not set Apple Wallet up; 409 for a ticket no longer valid)',
        params: ZTicketParams,
        response: { 200: z.any().describe('application/vnd.apple.pkpass: ticket_{ticketUID}.pkpass') },
      },
    },
    async (req, reply) => {
      const { filename, bytes } = await applePassByLink({ deps, site: siteCtxOf(req), token: req.params.token, ticketId: req.params.ticketId });
      return reply
        .type('application/vnd.apple.pkpass')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(bytes);
    },
  );

  r.get(
    '/api/p/order-links/:token/tickets/:ticketId/google-wallet',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Redirects to the signed "Save to Google Wallet" link of one valid ticket of the order (404 when the operator has not set Google Wallet up; 409 for a ticket no longer valid)',
        params: ZTicketParams,
        response: { 302: z.any().describe('Location: the signed save link') },
      },
    },
    async (req, reply) => {
      const { url } = await googleWalletByLink({ deps, site: siteCtxOf(req), token: req.params.token, ticketId: req.params.ticketId });
      return reply.header('cache-control', 'private, no-store').redirect(url, 302);
    },
  );

  r.post(
    '/api/p/order-links/:token/resend',
    {
      config: { access },
      preHandler: [limitBy(RESEND_PER_ADDRESS, ipOf), limitBy(RESEND_PER_ORDER_LINK, tokenOf)],
      schema: { tags, summary: 'Mails the tickets again, to the address the order was placed with', params: ZTokenParams, response: { 200: ZResendTicketsResponse } },
    },
    async (req) => resendByLink({ deps, site: siteCtxOf(req), token: req.params.token }),
  );

  r.post(
    '/api/p/find-tickets',
    {
      config: { access },
      preValidation: [limitBy(FIND_PER_ADDRESS, ipOf), limitBy(FIND_PER_EMAIL, emailOf)],
      schema: { tags, summary: 'Find my tickets: mails the links of this address’s orders (same answer for any address)', body: ZFindTicketsRequest, response: { 200: ZResendTicketsResponse } },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return requestOrderLinks({ deps, site: siteCtxOf(req), email: req.body.email });
    },
  );
}
