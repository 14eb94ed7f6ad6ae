import { type EventStatus, isRichDescription, soldAndHeld, type TEvent } from '@marquee/core';
import sanitizeHtml from 'sanitize-html';
import type { DbOrTx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../platform/errors.js';
import { sanitizePolicyHtml } from '../policies/service.js';
import { getCancellationProgress } from './cancellation.js';
import { coverPaths } from './cover-image.js';
import * as repo from './repository.js';

// How an event reads on the wire (core TEvent), and the reads the event use cases share.

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

export async function findOrThrow(db: DbOrTx, tenantId: string, eventId: string) {
  const row = await repo.findEvent(db, tenantId, eventId);
  if (!row) throw notFound();
  return row;
}

export async function withSales(deps: Deps, event: TEvent): Promise<TEvent> {
  const counts = await repo.salesCounts(deps.db, event.tenantId, [event.id]);
  return { ...event, sales: soldAndHeld(counts.get(event.id)!) };
}

/** A cancelled event carries the progress of its refunds, so the event page can show it. */
export async function withCancellation(deps: Deps, event: TEvent): Promise<TEvent> {
  if (event.details.status !== 'cancelled') return event;
  return { ...event, cancellation: await getCancellationProgress({ deps, tenantId: event.tenantId, eventId: event.id }) };
}
