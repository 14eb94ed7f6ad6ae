import { isSoldOn, type TBoxOfficeMenu, type TBoxOfficeQuoteRequest, type TBreakdown, type TicketSoldAt } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { notFound } from '../../platform/errors.js';
import { findCheckoutSnapshot } from '../checkout/repository.js';
import * as repo from './repository.js';
import { complimentaryLimitOf, quoteSale, saleSnapshot } from './sell.js';

/**
 * The sale screen's menu (issue 23): the event, its active ticket types sold at the box office with
 * what is left, the event's capacity left, and the complimentary tickets left. A cancelled or
 * unpublished event still answers (the screen says it cannot sell); another tenant's is a 404.
 */
export async function readBoxOfficeMenu({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TBoxOfficeMenu> {
  if (!UUID_RE.test(eventId)) throw notFound();
  const snapshot = await findCheckoutSnapshot(deps.db, { tenantId: ctx.tenantId, eventId: eventId.toLowerCase() });
  if (!snapshot) throw notFound();
  const { event } = snapshot;
  const limit = complimentaryLimitOf(snapshot);
  const given = limit === null ? 0 : await repo.complimentaryTicketsOf(deps.db, ctx.tenantId, event.id);
  return {
    event: { id: event.id, name: event.name, status: event.status, timeZone: event.timeZone, startsAt: event.startDateTime?.toISOString() ?? null },
    ticketTypes: snapshot.types
      .filter((t) => t.active && isSoldOn(t.soldAt, 'backend'))
      .map((t) => ({ id: t.id, name: t.name, price: t.price, remaining: t.remaining, maxPerOrder: t.maxPerOrder, soldAt: t.soldAt as TicketSoldAt, seated: snapshot.seatedTypeIds.has(t.id) })),
    remainingCapacity: event.remainingCapacity,
    complimentary: { limit, left: limit === null ? null : Math.max(0, limit - given) },
  };
}

/** What the sale will cost, priced as the sale prices it (the screen shows the total and the change from it). */
export async function quoteBoxOfficeSale({ deps, ctx, eventId, input }: { deps: Deps; ctx: TenantCtx; eventId: string; input: TBoxOfficeQuoteRequest }): Promise<TBreakdown> {
  const snapshot = await saleSnapshot(deps, ctx, eventId, input.discountCode);
  return quoteSale(snapshot, { lines: input.lines, discountCode: input.discountCode, paymentMethod: input.paymentMethod }, new Date()).breakdown;
}
