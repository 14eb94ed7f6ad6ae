import type { TicketHistoryKind, TTicketHistory } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { notFound } from '../../platform/errors.js';
import * as repo from './repository.js';

// Issue 24: each ticket of an order with what happened to it, oldest first, for the console's order
// page: sold, transferred (from whom to whom), checked in and undone at the door, voided, refunded.

type Entry = { kind: TicketHistoryKind; at: Date; by: string | null; detail: string | null };

const person = (first: string | null, last: string | null, email: string | null) => `${first ?? ''} ${last ?? ''}`.trim() || email || null;
/** A name with its e-mail; a box-office buyer may have given neither, or a name alone. */
export const named = (name: string, email: string | null) => (name && email ? `${name} (${email})` : name || email || 'a buyer who gave no name');

function parseDetails(text: string | null): Record<string, unknown> {
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function getTicketHistory(opts: { deps: Deps; ctx: TenantCtx; eventId: string; orderUID: string }): Promise<TTicketHistory> {
  const { deps, ctx, eventId } = opts;
  if (!UUID_RE.test(eventId)) throw notFound();
  if (opts.orderUID.length > 64) throw notFound();
  const order = await repo.findOrderOfEvent(deps.db, ctx.tenantId, eventId, opts.orderUID);
  if (!order) throw notFound();
  const tickets = await repo.ticketsOfOrder(deps.db, ctx.tenantId, order.id);
  const [transfers, actions, scans] = await Promise.all([
    repo.transfersOfOrder(deps.db, ctx.tenantId, order.id),
    repo.ticketActionsOfOrder(deps.db, ctx.tenantId, order.id),
    repo.doorScansOfTickets(
      deps.db,
      ctx.tenantId,
      tickets.map((t) => t.id),
    ),
  ]);
  const buyer = named(`${order.firstName} ${order.lastName}`.trim(), order.email);
  return {
    result: tickets.map((t) => {
      const entries: Entry[] = [{ kind: 'sold', at: t.createdAt, by: null, detail: `to ${buyer}` }];
      for (const x of transfers.filter((x) => x.ticketId === t.id)) {
        entries.push({ kind: 'transferred', at: x.createdAt, by: x.via === 'order link' ? 'the buyer, from the order link' : x.via, detail: `from ${named(x.fromName, x.fromEmail)} to ${named(x.toName, x.toEmail)}` });
      }
      for (const s of scans.filter((s) => s.ticketId === t.id)) {
        entries.push({ kind: s.kind === 'undo' ? 'check_in_undone' : 'checked_in', at: s.at, by: person(s.firstName, s.lastName, s.email), detail: s.deviceId });
      }
      for (const a of actions.filter((a) => a.ticketId === t.id)) {
        const refund = a.action === 'void' && typeof parseDetails(a.details).refundId === 'string';
        entries.push({ kind: a.action === 'unvoid' ? 'unvoided' : refund ? 'refunded' : 'voided', at: a.at, by: person(a.firstName, a.lastName, a.email), detail: a.reason || null });
      }
      entries.sort((a, b) => a.at.getTime() - b.at.getTime());
      return {
        ticketId: t.id,
        ticketUID: t.ticketUid,
        ticketTypeName: t.ticketTypeName,
        fullName: t.fullName,
        email: t.email,
        entries: entries.map((e) => ({ ...e, at: e.at.toISOString() })),
      };
    }),
  };
}
