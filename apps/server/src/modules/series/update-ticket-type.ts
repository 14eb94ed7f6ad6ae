import { M, type TSeriesTicketTypeUpdate, type ZUpdateSeriesTicketTypeRequest } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { notFound } from '../../platform/errors.js';
import * as ticketTypes from '../ticket-types/repository.js';
import { getSeries } from './get-series.js';
import * as repo from './repository.js';

type Changes = z.output<typeof ZUpdateSeriesTicketTypeRequest>['details'];
type Kept = TSeriesTicketTypeUpdate['kept'][number];
const FIELDS = ['name', 'price', 'quantity'] as const;

/**
 * A series-level edit of a ticket type. Each date's copy follows a changed field while that field
 * still has the series' old value (a date whose price or quantity was changed on its own keeps
 * it), on every date that is neither cancelled nor over. A quantity below what a date already sold
 * or holds is not applied to that date (it keeps its own, and the answer says so with the ticket
 * type's own message), as the ticket type's own edit would refuse it.
 * Locks: the series' ticket type row, then its copies in id order (ticket types, lock order 3).
 */
export async function updateSeriesTicketType({
  deps,
  ctx,
  seriesId,
  ticketTypeId,
  changes,
  now = new Date(),
}: {
  deps: Deps;
  ctx: TenantCtx;
  seriesId: string;
  ticketTypeId: string;
  changes: Changes;
  now?: Date;
}): Promise<TSeriesTicketTypeUpdate> {
  const kept: Kept[] = [];
  await deps.db.transaction(async (tx) => {
    const old = await repo.lockSeriesTicketType(tx, ctx.tenantId, seriesId, ticketTypeId);
    if (!old) throw notFound();
    await repo.updateSeriesTicketType(tx, ctx.tenantId, ticketTypeId, changes);
    for (const copy of await repo.copiesOf(tx, ctx.tenantId, ticketTypeId, now)) {
      const set: Partial<Record<(typeof FIELDS)[number], string & number>> = {};
      for (const f of FIELDS) if (changes[f] !== undefined && changes[f] !== old[f] && copy[f] === old[f]) (set as Record<string, unknown>)[f] = changes[f];
      if (Object.keys(set).length === 0) continue;
      const soldOrHeld = copy.quantity - copy.remaining;
      if (set.quantity !== undefined && set.quantity < soldOrHeld) {
        // Below what this date sold or holds: the rest of the edit still applies, its quantity stays.
        kept.push({ eventId: copy.eventId, name: copy.eventName, field: 'quantity', soldOrHeld, message: M.quantityBelowSold });
        delete set.quantity;
        if (Object.keys(set).length === 0) continue;
      }
      await ticketTypes.updateTicketType(tx, ctx.tenantId, copy.eventId, copy.id, set);
    }
  });
  return { ...(await getSeries({ deps, ctx, seriesId })), kept };
}
