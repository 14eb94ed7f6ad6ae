import {
  BOX_OFFICE,
  GUEST_LIST,
  ZBoxOfficeMenu,
  ZBoxOfficeQuoteRequest,
  ZBoxOfficeSaleRequest,
  ZBoxOfficeSaleResponse,
  ZBreakdown,
  ZGuestListRequest,
  ZGuestListResponse,
  ZSeatHold,
  ZSeatHoldRequest,
  type EventAccessRoles,
} from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { Access } from '../../platform/auth/context.js';
import { tenantCtxOf, UUID_RE } from '../../platform/auth/guard.js';
import { notFound } from '../../platform/errors.js';
import { holdSeats } from '../seating/hold-seats.js';
import { sendGuestList } from './guest-list.js';
import { quoteBoxOfficeSale, readBoxOfficeMenu } from './read-menu.js';
import { sellTickets } from './sell.js';

// The box office (issue 23, docs/box-office.md). Who may sell is core's BOX_OFFICE set (tenant
// admins, the box office role tenant-wide or for the :eventId event); the guest list is the
// event's organisers' (GUEST_LIST). Nobody else, platform operators included.
const access = (a: EventAccessRoles): Access => ({ kind: 'tenant', roles: a.roles, eventRoles: a.eventRoles, platformRoles: a.platformRoles });
export const BOX_OFFICE_ACCESS = access(BOX_OFFICE);
const GUEST_LIST_ACCESS = access(GUEST_LIST);

const tags = ['box-office'];
// Ids that are not ours answer 404 in the service (like another tenant's), never a 400 that tells them apart.
const ZEventParams = z.object({ tenantId: z.string(), eventId: z.string().max(100) });
const BASE = '/api/tenants/:tenantId/events/:eventId/box-office';

export function registerBoxOfficeRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    BASE,
    {
      config: { access: BOX_OFFICE_ACCESS },
      schema: { tags, summary: "The box office's menu: ticket types sold at the box office with what is left, and the complimentary tickets left", params: ZEventParams, response: { 200: ZBoxOfficeMenu } },
    },
    async (req) => readBoxOfficeMenu({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );

  r.post(
    `${BASE}/quote`,
    {
      config: { access: BOX_OFFICE_ACCESS },
      schema: { tags, summary: 'Price a box-office sale (BACKEND channel) without selling it', params: ZEventParams, body: ZBoxOfficeQuoteRequest, response: { 200: ZBreakdown } },
    },
    async (req) => quoteBoxOfficeSale({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, input: req.body }),
  );

  r.post(
    `${BASE}/seat-holds`,
    {
      config: { access: BOX_OFFICE_ACCESS },
      schema: {
        tags,
        summary: "Issue 27: hold seats for a box-office sale of a seated event (best available N together, or picked; the same seat holds as online, sent with the sale as seatHold)",
        params: ZEventParams,
        body: ZSeatHoldRequest,
        response: { 201: ZSeatHold },
      },
    },
    async (req, reply) => {
      if (!UUID_RE.test(req.params.eventId)) throw notFound();
      return reply.status(201).send(await holdSeats({ deps, tenantId: tenantCtxOf(req).tenantId, eventId: req.params.eventId.toLowerCase(), input: req.body }));
    },
  );

  r.post(
    `${BASE}/sales`,
    {
      config: { access: BOX_OFFICE_ACCESS },
      schema: {
        tags,
        summary: 'Sell at the box office: cash (tendered, change), the venue card terminal (reference) or complimentary; paid at once; the same idempotency key never sells twice',
        params: ZEventParams,
        body: ZBoxOfficeSaleRequest,
        response: { 200: ZBoxOfficeSaleResponse },
      },
    },
    async (req) => sellTickets({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, input: req.body }),
  );

  r.post(
    '/api/tenants/:tenantId/events/:eventId/guest-list',
    {
      config: { access: GUEST_LIST_ACCESS },
      schema: {
        tags,
        summary: 'Complimentary tickets for a guest list: one comp order per guest, tickets mailed; counted against the event maximum',
        params: ZEventParams,
        body: ZGuestListRequest,
        response: { 200: ZGuestListResponse },
      },
    },
    async (req) => sendGuestList({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, input: req.body }),
  );
}
