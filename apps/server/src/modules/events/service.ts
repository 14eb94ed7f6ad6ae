import { randomUUID } from 'node:crypto';
import {
  DEFAULT_COUNTRY,
  DEFAULT_TIME_ZONE,
  M,
  isRichDescription,
  soldAndHeld,
  SEATMAP_MAX_BYTES,
  COVER_MAX_BYTES,
  salesWindowInstants,
  urlNameFrom,
  isReservedPath,
  type EventStatus,
  type TEvent,
  type ZCreateEventRequest,
  type ZUpdateEventRequest,
} from '@marquee/core';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { emitDomainEvent } from '../../platform/domain-events.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { sniffContentType, type SniffedType } from '../../platform/content-type.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { compileList } from '../../platform/list-query.js';
import { assertEventCharity } from '../charities/service.js';
import { enqueueEventCancellation, getCancellationProgress } from './cancellation.js';
import sanitizeHtml from 'sanitize-html';
import { sanitizePolicyHtml } from '../policies/service.js';
import { coverPaths, deleteCoverCrops, makeCoverCrops, storeCoverCrops } from './cover-image.js';
import * as repo from './repository.js';
import { assertWritable } from './writable.js';

type EventInput = z.output<typeof ZCreateEventRequest>['details'];
type EventChanges = z.output<typeof ZUpdateEventRequest>['details'];

const SEATMAP_EXT: Partial<Record<SniffedType, 'png' | 'jpg' | 'gif'>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif' };

/** Where the attendee site serves the seat map: /{eventName}/assets/seatmap.{ext}. */
export function seatMapPath(row: Pick<repo.EventRow, 'urlName' | 'seatmapKey'>): string | null {
  if (!row.seatmapKey) return null;
  const ext = row.seatmapKey.slice(row.seatmapKey.lastIndexOf('.') + 1);
  return `/${row.urlName}/assets/seatmap.${ext}`;
}

export function toEvent(row: repo.EventRow): TEvent {
  return {
    id: row.id,
    tenantId: row.tenantId,
    details: {
      name: row.name,
      urlName: row.urlName,
      status: row.status as EventStatus,
      description: row.description,
      startDateTime: row.startDateTime?.toISOString() ?? null,
      endDateTime: row.endDateTime?.toISOString() ?? null,
      timeZone: row.timeZone,
      venueName: row.venueName,
      address1: row.address1,
      city: row.city,
      state: row.state,
      zip: row.zip,
      country: row.country,
      capacity: row.capacity,
      remainingCapacity: row.remainingCapacity,
      covidSafety: row.covidSafetyEnabled,
      covidSafetyText: row.covidSafetyText,
      emailDeliveryVerbiage: row.emailDeliveryVerbiage,
      charityId: row.charityId,
      surchargeRuleId: row.surchargeRuleId,
      seatMap: seatMapPath(row),
      ...coverPaths(row),
      dateCreated: row.createdAt.toISOString(),
      dateModified: row.updatedAt.toISOString(),
    },
  };
}

/** Rich text keeps only the policies' safe subset of HTML; plain text is stored as typed (rendered escaped). */
export function cleanDescription(description: string): string {
  if (!isRichDescription(description)) return description;
  const clean = sanitizePolicyHtml(description);
  const text = sanitizeHtml(clean, { allowedTags: [], allowedAttributes: {} }).replace(/&nbsp;|\u00a0/g, ' ').trim();
  return text ? clean : '';
}

function toColumns(d: EventChanges): Partial<repo.EventInsert> {
  const out: Partial<repo.EventInsert> = {};
  if (d.name !== undefined) out.name = d.name;
  if (d.urlName !== undefined) out.urlName = d.urlName;
  if (d.description !== undefined) out.description = cleanDescription(d.description);
  if (d.startDateTime !== undefined) out.startDateTime = d.startDateTime === null ? null : new Date(d.startDateTime);
  if (d.endDateTime !== undefined) out.endDateTime = d.endDateTime === null ? null : new Date(d.endDateTime);
  if (d.timeZone !== undefined) out.timeZone = d.timeZone;
  if (d.venueName !== undefined) out.venueName = d.venueName;
  if (d.address1 !== undefined) out.address1 = d.address1;
  if (d.city !== undefined) out.city = d.city;
  if (d.state !== undefined) out.state = d.state;
  if (d.zip !== undefined) out.zip = d.zip;
  if (d.country !== undefined) out.country = d.country;
  if (d.covidSafety !== undefined) out.covidSafetyEnabled = d.covidSafety;
  if (d.covidSafetyText !== undefined) out.covidSafetyText = d.covidSafetyText;
  if (d.emailDeliveryVerbiage !== undefined) out.emailDeliveryVerbiage = d.emailDeliveryVerbiage;
  if (d.charityId !== undefined) out.charityId = d.charityId;
  if (d.surchargeRuleId !== undefined) out.surchargeRuleId = d.surchargeRuleId;
  return out;
}

const urlNameTaken = () => new AppError('CONFLICT', M.urlNameTaken, { 'details.urlName': M.urlNameTaken });

function assertEndAfterStart(start: Date | null | undefined, end: Date | null | undefined) {
  if (start && end && end <= start) throw new AppError('VALIDATION', M.salesWindowOrder, { 'details.endDateTime': M.salesWindowOrder });
}

async function assertRule(db: DbOrTx, tenantId: string, ruleId: string | null | undefined) {
  if (ruleId && !(await repo.isActiveSurchargeRule(db, tenantId, ruleId))) {
    throw new AppError('VALIDATION', M.surchargeRuleInvalid, { 'details.surchargeRuleId': M.surchargeRuleInvalid });
  }
}

async function findOrThrow(db: DbOrTx, tenantId: string, eventId: string) {
  const row = await repo.findEvent(db, tenantId, eventId);
  if (!row) throw notFound();
  return row;
}

/** spec §7 also shows the lookup sent as ?filters=q?details.name={name}: read it as details.name={name}. */
function withoutQPrefix(query: unknown): unknown {
  if (!query || typeof query !== 'object') return query;
  const { filters } = query as { filters?: unknown };
  const strip = (f: unknown) => (typeof f === 'string' && f.startsWith('q?') ? f.slice(2) : f);
  if (typeof filters === 'string') return { ...query, filters: strip(filters) };
  if (Array.isArray(filters)) return { ...query, filters: filters.map(strip) };
  return query;
}

export async function listEvents({ deps, ctx, query }: { deps: Deps; ctx: TenantCtx; query: unknown }) {
  const q = compileList(repo.EVENT_LIST, withoutQPrefix(query));
  // Event staff without a tenant-wide or platform role see only the events they work on.
  const onlyEvents = ctx.tenantRoles.length === 0 && ctx.platformRoles.length === 0 ? Object.keys(ctx.eventRoles) : null;
  const { rows, total } = await repo.listEvents(deps.db, ctx.tenantId, q, onlyEvents);
  const counts = await repo.salesCounts(deps.db, ctx.tenantId, rows.map(({ row }) => row.id));
  return q.page(rows, total, ({ row }) => ({ ...toEvent(row), sales: soldAndHeld(counts.get(row.id)!) }));
}

/** After the event's time zone changed: the same wall-clock sales windows are other instants now. */
async function recomputeSalesWindows(tx: DbOrTx, tenantId: string, eventId: string, timeZone: string) {
  // Fixed id order, like every other writer of ticket_types (docs/decisions.md, lock order).
  for (const row of await repo.ticketTypeWindows(tx, tenantId, eventId)) {
    await repo.setTicketTypeWindow(tx, tenantId, eventId, row.id, salesWindowInstants(row, timeZone));
  }
}

async function withSales(deps: Deps, event: TEvent): Promise<TEvent> {
  const counts = await repo.salesCounts(deps.db, event.tenantId, [event.id]);
  return { ...event, sales: soldAndHeld(counts.get(event.id)!) };
}

/** A cancelled event carries the progress of its refunds, so the event page can show it. */
async function withCancellation(deps: Deps, event: TEvent): Promise<TEvent> {
  if (event.details.status !== 'cancelled') return event;
  return { ...event, cancellation: await getCancellationProgress({ deps, tenantId: event.tenantId, eventId: event.id }) };
}

export async function getEvent({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TEvent> {
  return withSales(deps, await withCancellation(deps, toEvent(await findOrThrow(deps.db, ctx.tenantId, eventId))));
}

export async function createEvent({ deps, ctx, input }: { deps: Deps; ctx: TenantCtx; input: EventInput }): Promise<TEvent> {
  const urlName = input.urlName ?? urlNameFrom(input.name);
  if (!urlName || isReservedPath(urlName)) {
    const message = urlName ? M.urlNameReserved : M.urlNameFormat;
    throw new AppError('VALIDATION', message, { 'details.urlName': message });
  }
  const columns = toColumns(input);
  assertEndAfterStart(columns.startDateTime, columns.endDateTime);
  await assertRule(deps.db, ctx.tenantId, input.surchargeRuleId);
  if (await repo.findEventByUrlName(deps.db, ctx.tenantId, urlName)) throw urlNameTaken();
  try {
    const row = await deps.db.transaction(async (tx) => {
      await assertEventCharity(tx, ctx.tenantId, input.charityId);
      return repo.insertEvent(tx, {
        timeZone: DEFAULT_TIME_ZONE,
        country: DEFAULT_COUNTRY,
        ...columns,
        tenantId: ctx.tenantId,
        id: randomUUID(),
        name: input.name,
        urlName,
        status: 'draft',
        capacity: input.capacity ?? null,
        remainingCapacity: input.capacity ?? null,
      });
    });
    return toEvent(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw urlNameTaken();
    throw err;
  }
}

export async function updateEvent({ deps, ctx, eventId, changes }: { deps: Deps; ctx: TenantCtx; eventId: string; changes: EventChanges }): Promise<TEvent> {
  const current = await findOrThrow(deps.db, ctx.tenantId, eventId);
  assertWritable(current);
  const { capacity, ...rest } = changes;
  const columns = toColumns(rest);
  assertEndAfterStart(
    columns.startDateTime === undefined ? current.startDateTime : columns.startDateTime,
    columns.endDateTime === undefined ? current.endDateTime : columns.endDateTime,
  );
  await assertRule(deps.db, ctx.tenantId, changes.surchargeRuleId);
  if (columns.urlName && columns.urlName !== current.urlName) {
    const other = await repo.findEventByUrlName(deps.db, ctx.tenantId, columns.urlName);
    if (other && other.id !== eventId) throw urlNameTaken();
  }
  try {
    const row = await deps.db.transaction(async (tx) => {
      // The charity first: it stays active and enabled until this commits (charities/service.ts).
      await assertEventCharity(tx, ctx.tenantId, changes.charityId);
      // Ticket types before the event: every writer takes ticket type rows first (lock order).
      if (columns.timeZone && columns.timeZone !== current.timeZone) await recomputeSalesWindows(tx, ctx.tenantId, eventId, columns.timeZone);
      if (capacity !== undefined) await setCapacity(tx, ctx.tenantId, eventId, capacity);
      const updated = await repo.updateEvent(tx, ctx.tenantId, eventId, columns);
      if (!updated) throw notFound();
      return updated;
    });
    return toEvent(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw urlNameTaken();
    throw err;
  }
}

/**
 * A new capacity keeps what is sold or held: remaining moves by the change, and a capacity below
 * what is already out is refused. Read under the event's row lock, so no hold slips between.
 */
async function setCapacity(tx: DbOrTx, tenantId: string, eventId: string, capacity: number | null) {
  const event = await repo.findEvent(tx, tenantId, eventId, true);
  if (!event) throw notFound();
  if (capacity === null) {
    await repo.updateEvent(tx, tenantId, eventId, { capacity: null, remainingCapacity: null });
    return;
  }
  const out =
    event.capacity !== null && event.remainingCapacity !== null
      ? event.capacity - event.remainingCapacity
      : await repo.soldOrHeld(tx, tenantId, eventId);
  if (capacity < out) throw new AppError('CONFLICT', M.capacityBelowSold, { 'details.capacity': M.capacityBelowSold });
  await repo.updateEvent(tx, tenantId, eventId, { capacity, remainingCapacity: capacity - out });
}

const TRANSITIONS: Record<'publish' | 'unpublish' | 'cancel', { from: EventStatus[]; to: EventStatus }> = {
  publish: { from: ['draft'], to: 'published' },
  unpublish: { from: ['published'], to: 'draft' },
  cancel: { from: ['draft', 'published'], to: 'cancelled' },
};

/** draft -> published -> draft; either -> cancelled, which is final. Repeating a transition is a no-op. */
export async function changeEventStatus({
  deps,
  ctx,
  eventId,
  action,
  message,
}: {
  deps: Deps;
  ctx: TenantCtx;
  eventId: string;
  action: keyof typeof TRANSITIONS;
  /** Cancel only: the organiser's message to the buyers, put in their notices (issue 21.9). */
  message?: string;
}): Promise<TEvent> {
  const current = await findOrThrow(deps.db, ctx.tenantId, eventId);
  const { from, to } = TRANSITIONS[action];
  if (current.status === to) return toEvent(current);
  assertWritable(current);
  if (action === 'publish') {
    if (!current.startDateTime) throw new AppError('CONFLICT', M.publishNeedsStart, { 'details.startDateTime': M.publishNeedsStart });
    if ((await repo.countTicketTypes(deps.db, ctx.tenantId, eventId)) === 0) throw conflict(M.publishNeedsTickets);
  }
  // Cancelling refunds every paid order, as jobs queued with the change (docs/decisions.md
  // "Cancelling an event refunds its orders").
  const row = await deps.db.transaction(async (tx) => {
    const changed = await repo.transitionEvent(tx, ctx.tenantId, eventId, from, to);
    if (changed && to === 'cancelled') await enqueueEventCancellation(deps, tx, { tenantId: ctx.tenantId, eventId, userId: ctx.user.id, ...(message ? { message } : {}) });
    if (changed && (to === 'published' || to === 'cancelled')) {
      const event = { id: changed.id, name: changed.name, urlName: changed.urlName, startDateTime: changed.startDateTime?.toISOString() ?? null };
      await emitDomainEvent(deps, tx, { tenantId: ctx.tenantId, type: to === 'published' ? 'event.published' : 'event.cancelled', data: { event } });
    }
    return changed;
  });
  if (!row) return getEvent({ deps, ctx, eventId });
  return withCancellation(deps, toEvent(row));
}

/**
 * An event with orders is cancelled, not deleted (409). The orders are counted under the locks PLACE
 * ORDER's hold takes, so a racing order is either counted here or refused as not on sale, never left
 * without its event (docs/decisions.md "Deleting an event while someone buys").
 */
export async function deleteEvent({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }) {
  const current = await deps.db.transaction(async (tx) => {
    const row = await repo.lockEventForDelete(tx, ctx.tenantId, eventId);
    if (!row) throw notFound();
    if ((await repo.countOrders(tx, ctx.tenantId, eventId)) > 0) throw conflict(M.eventHasOrders);
    await repo.deleteEvent(tx, ctx.tenantId, eventId);
    return row;
  });
  if (current.seatmapKey) await deps.storage.delete(current.seatmapKey);
  if (current.coverImageId) await deleteCoverCrops(deps.storage, { tenantId: ctx.tenantId, eventId, coverImageId: current.coverImageId });
  return { success: true as const };
}

// ---- seat map --------------------------------------------------------------------------------

/** A PNG, JPEG or GIF judged by its bytes, at most 5 MB; replaces any earlier seat map. */
export async function uploadSeatMap({
  deps,
  ctx,
  eventId,
  bytes,
  truncated,
}: {
  deps: Deps;
  ctx: TenantCtx;
  eventId: string;
  bytes: Buffer;
  truncated: boolean;
}): Promise<TEvent> {
  const current = await findOrThrow(deps.db, ctx.tenantId, eventId);
  assertWritable(current);
  if (truncated || bytes.length > SEATMAP_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', M.seatmapSize);
  const type = sniffContentType(bytes);
  const ext = type ? SEATMAP_EXT[type] : undefined;
  if (!type || !ext) throw new AppError('UNSUPPORTED_MEDIA_TYPE', M.seatmapType);
  const key = `tenants/${ctx.tenantId}/events/${eventId}/seatmap.${ext}`;
  await deps.storage.put(key, bytes, type);
  const row = await repo.updateEvent(deps.db, ctx.tenantId, eventId, { seatmapKey: key });
  if (!row) throw notFound();
  if (current.seatmapKey && current.seatmapKey !== key) await deps.storage.delete(current.seatmapKey);
  return toEvent(row);
}

export async function deleteSeatMap({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TEvent> {
  const current = await findOrThrow(deps.db, ctx.tenantId, eventId);
  assertWritable(current);
  const row = await repo.updateEvent(deps.db, ctx.tenantId, eventId, { seatmapKey: null });
  if (!row) throw notFound();
  if (current.seatmapKey) await deps.storage.delete(current.seatmapKey);
  return toEvent(row);
}

// ---- cover image (issue 15) ------------------------------------------------------------------

/**
 * A JPEG, PNG or WebP judged by its bytes and decoded in full, at most COVER_MAX_BYTES; made into
 * the hero, social card and ticket crops (cover-image.ts). Replaces any earlier cover. The file is
 * read only once the event is known to be the caller's: another tenant's id is a 404 whatever was sent.
 */
export async function uploadCoverImage({
  deps,
  ctx,
  eventId,
  readFile,
}: {
  deps: Deps;
  ctx: TenantCtx;
  eventId: string;
  readFile: () => Promise<{ bytes: Buffer; truncated: boolean }>;
}): Promise<TEvent> {
  const current = await findOrThrow(deps.db, ctx.tenantId, eventId);
  assertWritable(current);
  const { bytes, truncated } = await readFile();
  if (truncated || bytes.length > COVER_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', M.coverSize);
  const crops = await makeCoverCrops(bytes);
  const coverImageId = await storeCoverCrops(deps.storage, { tenantId: ctx.tenantId, eventId, crops });
  const swapped = await swapCoverImage(deps, ctx.tenantId, eventId, coverImageId);
  if (!swapped) {
    await deleteCoverCrops(deps.storage, { tenantId: ctx.tenantId, eventId, coverImageId });
    throw notFound();
  }
  return toEvent(swapped);
}

/**
 * Points the event at another cover (or none) under its row lock, then deletes the crops it
 * replaced: of two uploads at once, neither leaves files behind.
 */
async function swapCoverImage(deps: Deps, tenantId: string, eventId: string, coverImageId: string | null) {
  const swapped = await deps.db.transaction(async (tx) => {
    const locked = await repo.findEvent(tx, tenantId, eventId, true);
    if (!locked) return null;
    const row = await repo.updateEvent(tx, tenantId, eventId, { coverImageId });
    return row ? { row, previous: locked.coverImageId } : null;
  });
  if (!swapped) return null;
  if (swapped.previous && swapped.previous !== coverImageId) await deleteCoverCrops(deps.storage, { tenantId, eventId, coverImageId: swapped.previous });
  return swapped.row;
}

export async function deleteCoverImage({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TEvent> {
  assertWritable(await findOrThrow(deps.db, ctx.tenantId, eventId));
  const row = await swapCoverImage(deps, ctx.tenantId, eventId, null);
  if (!row) throw notFound();
  return toEvent(row);
}
