import { stringify } from 'csv-stringify/sync';
import { M, type TWaitlist, type TWaitlistSettings } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { DomainError, notFound } from '../../platform/errors.js';
import { findEvent } from '../events/repository.js';
import { releaseHold } from '../orders/holds.js';
import { escapeCell, UTF8_BOM } from '../reports/csv.js';
import { runOfferRound } from './offer-round.js';
import * as repo from './repository.js';

// The organiser's side of an event's waiting list (issue 24): the list, its settings, an offer by
// hand, a removal and the export. Another tenant's event or entry is not found.

async function ownEvent(deps: Deps, ctx: TenantCtx, eventId: string) {
  const event = await findEvent(deps.db, ctx.tenantId, eventId);
  if (!event) throw notFound();
  return event;
}

export async function getWaitlist({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TWaitlist> {
  await ownEvent(deps, ctx, eventId);
  const [settings, entries] = await Promise.all([repo.findSettings(deps.db, ctx.tenantId, eventId), repo.listEntries(deps.db, ctx.tenantId, eventId)]);
  const counts = { joined: entries.length, waiting: 0, offered: 0, bought: 0 };
  const result = entries.map((e, i) => {
    const state = e.shownState as TWaitlist['entries'][number]['state'];
    if (state === 'waiting') counts.waiting++;
    if (state === 'offered') counts.offered++;
    if (state === 'claimed') counts.bought++;
    return {
      id: e.id,
      // The place in join order, the order offers go in.
      position: i + 1,
      email: e.email,
      ticketTypeId: e.ticketTypeId,
      ticketTypeName: e.ticketTypeName,
      quantity: e.quantity,
      state,
      offeredQuantity: e.offeredQuantity,
      offerExpiresAt: e.offerExpiresAt?.toISOString() ?? null,
      joinedAt: e.createdAt.toISOString(),
    };
  });
  return { settings: settings ? { enabled: settings.enabled, offerMinutes: settings.offerMinutes } : { ...repo.DEFAULT_SETTINGS }, entries: result, counts };
}

export async function setWaitlistSettings({ deps, ctx, eventId, settings }: { deps: Deps; ctx: TenantCtx; eventId: string; settings: TWaitlistSettings }) {
  await ownEvent(deps, ctx, eventId);
  await deps.db.transaction(async (tx) => {
    await repo.lockSettings(tx, ctx.tenantId, eventId);
    await repo.saveSettings(tx, ctx.tenantId, eventId, settings);
  });
  // Turned on again with tickets free: the people waiting get them now.
  if (settings.enabled) await deps.jobs.enqueue(deps.db, 'waitlist.offer', { tenantId: ctx.tenantId, eventId });
  return getWaitlist({ deps, ctx, eventId });
}

/** The organiser offers free tickets to one waiting person now, out of turn. */
export async function offerByHand({ deps, ctx, eventId, entryId }: { deps: Deps; ctx: TenantCtx; eventId: string; entryId: string }) {
  await ownEvent(deps, ctx, eventId);
  const entry = await repo.findEntry(deps.db, ctx.tenantId, entryId);
  if (!entry || entry.eventId !== eventId) throw notFound();
  await runOfferRound({ deps, tenantId: ctx.tenantId, eventId, entryId });
  return { success: true as const, message: M.waitlistOffered };
}

/** Takes the entry off the list; an offer it holds is withdrawn and its tickets go to the next person. */
export async function removeEntry({ deps, ctx, eventId, entryId }: { deps: Deps; ctx: TenantCtx; eventId: string; entryId: string }) {
  await ownEvent(deps, ctx, eventId);
  const entry = await repo.findEntry(deps.db, ctx.tenantId, entryId);
  if (!entry || entry.eventId !== eventId) throw notFound();
  await deps.db.transaction(async (tx) => {
    // Lock order: the list, then the entry, then the offer's order (docs/architecture.md).
    await repo.lockSettings(tx, ctx.tenantId, eventId);
    const [locked] = await repo.lockEntry(tx, ctx.tenantId, entryId);
    if (!locked || (locked.state !== 'waiting' && locked.state !== 'offered')) throw new DomainError('WAITLIST_CANNOT_OFFER', 'Only a person waiting or holding an offer can be removed.');
    for (const orderId of await repo.liveOfferDrafts(tx, ctx.tenantId, entryId)) await releaseHold(tx, { orderId }, false);
    await repo.setState(tx, ctx.tenantId, entryId, 'removed');
  });
  return { success: true as const, message: M.waitlistRemoved };
}

/** The list as CSV: UTF-8 with a BOM, RFC 4180 quoting, text cells made inert for spreadsheets. */
export async function exportWaitlist({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<string> {
  const list = await getWaitlist({ deps, ctx, eventId });
  const rows = list.entries.map((e) => [
    e.position ? String(e.position) : '',
    escapeCell(e.email),
    escapeCell(e.ticketTypeName),
    String(e.quantity),
    e.state,
    e.offeredQuantity === null ? '' : String(e.offeredQuantity),
    e.offerExpiresAt ?? '',
    e.joinedAt,
  ]);
  return UTF8_BOM + stringify([['Position', 'Email', 'Ticket type', 'Quantity', 'State', 'Offered', 'Offer expires', 'Joined'], ...rows], { record_delimiter: '\r\n' });
}
