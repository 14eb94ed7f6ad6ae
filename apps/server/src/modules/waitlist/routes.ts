import { ZClaimWaitlistRequest, ZClaimWaitlistResponse, ZJoinWaitlistRequest, ZJoinWaitlistResponse, ZWaitlist, ZWaitlistSettings } from '@marquee/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { siteCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { EVENT_READ, EVENT_WRITE } from '../events/access.js';
import { claimOffer } from './claim-offer.js';
import { joinWaitlist } from './join-waitlist.js';
import { exportWaitlist, getWaitlist, offerByHand, removeEntry, setWaitlistSettings } from './manage-waitlist.js';
import { registerWaitlistJobs, scheduleSweep } from './offer-round.js';

const ZEventParams = z.object({ tenantId: z.string().max(100), eventId: z.uuid() });
const ZEntryParams = ZEventParams.extend({ entryId: z.uuid() });
const ZDone = z.object({ success: z.literal(true), message: z.string() });
const tags = ['waiting list'];

/** The waiting list for sold-out tickets (issue 24, docs/waiting-list.md). Not the waiting room. */
export function registerWaitlistRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  registerWaitlistJobs(deps);
  app.addHook('onReady', async () => {
    try {
      await scheduleSweep(deps, Date.now() + 5_000);
    } catch (err) {
      deps.log.error({ err }, 'could not schedule the waiting-list sweep');
    }
  });

  // ---- the attendee site ----------------------------------------------------------------------

  r.post(
    '/api/p/tenants/:tenantId/events/:eventId/waitlist',
    {
      config: {
        access: { kind: 'site' },
        // Joining writes a row per address and e-mail: a cap per client address keeps one client from filling a list.
        rateLimit: { max: deps.config.rateLimitWaitlistJoinsPer10Minutes, timeWindow: 600_000, keyGenerator: (req: FastifyRequest) => `waitlist|${req.ip}` },
      },
      schema: { tags, summary: 'Joins the waiting list of a sold-out ticket type', params: ZEventParams, body: ZJoinWaitlistRequest, response: { 201: ZJoinWaitlistResponse } },
    },
    async (req, reply) => reply.status(201).send(await joinWaitlist({ deps, tenantId: siteCtxOf(req).tenant.id, eventId: req.params.eventId, input: req.body })),
  );

  r.post(
    '/api/p/tenants/:tenantId/events/:eventId/waitlist/claim',
    {
      config: { access: { kind: 'site' } },
      schema: { tags, summary: "Opens a claim link: the offer's hold, for the checkout", params: ZEventParams, body: ZClaimWaitlistRequest, response: { 200: ZClaimWaitlistResponse } },
    },
    async (req) => claimOffer({ deps, tenantId: siteCtxOf(req).tenant.id, eventId: req.params.eventId, entryId: req.body.entryId, token: req.body.token }),
  );

  // ---- the organiser --------------------------------------------------------------------------

  const base = '/api/tenants/:tenantId/events/:eventId/waitlist';

  r.get(
    base,
    { config: { access: EVENT_READ }, schema: { tags, summary: 'The list in join order, its settings and counts', params: ZEventParams, response: { 200: ZWaitlist } } },
    async (req) => getWaitlist({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );

  r.put(
    `${base}/settings`,
    { config: { access: EVENT_WRITE }, schema: { tags, summary: 'Turns the list on or off and sets how long an offer holds', params: ZEventParams, body: ZWaitlistSettings, response: { 200: ZWaitlist } } },
    async (req) => setWaitlistSettings({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, settings: req.body }),
  );

  r.post(
    `${base}/entries/:entryId/offer`,
    { config: { access: EVENT_WRITE }, schema: { tags, summary: 'Offers free tickets to this person now, out of turn', params: ZEntryParams, response: { 200: ZDone } } },
    async (req) => offerByHand({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, entryId: req.params.entryId }),
  );

  r.delete(
    `${base}/entries/:entryId`,
    { config: { access: EVENT_WRITE }, schema: { tags, summary: 'Takes the person off the list (an offer they hold goes to the next person)', params: ZEntryParams, response: { 200: ZDone } } },
    async (req) => removeEntry({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, entryId: req.params.entryId }),
  );

  r.get(
    `${base}/export`,
    { config: { access: EVENT_READ }, schema: { tags, summary: 'The list as CSV', params: ZEventParams } },
    async (req, reply) => {
      const csv = await exportWaitlist({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="waiting-list.csv"')
        .header('cache-control', 'private, no-store')
        .send(csv);
    },
  );
}
