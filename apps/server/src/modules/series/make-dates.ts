import { randomUUID } from 'node:crypto';
import { DEFAULT_COUNTRY, M, seriesDateName, seriesDateUrlName, type ScheduleProblem, type SeriesOccurrence } from '@marquee/core';
import type { DbOrTx } from '../../db/client.js';
import { DomainError } from '../../platform/errors.js';
import * as events from '../events/repository.js';
import * as ticketTypes from '../ticket-types/repository.js';
import * as repo from './repository.js';

// What creating a series and adding a date share: one ordinary event per occurrence, with the
// series' ticket types copied onto it (docs/decisions.md "Issue 28: event series").

export const scheduleError = (p: ScheduleProblem) => new DomainError(p.code, p.message, { fields: { [p.field]: p.message } });

export const dateTaken = (field = 'details.date') => new DomainError('SERIES_DATE_TAKEN', M.seriesDateTaken, { fields: { [field]: M.seriesDateTaken } });

/** Refuses occurrences whose URL names another event of the tenant already has (a date at that time). */
export async function assertFreeUrlNames(db: DbOrTx, tenantId: string, series: repo.SeriesRow, occurrences: readonly SeriesOccurrence[]) {
  const names = occurrences.map((o) => seriesDateUrlName(series.urlName, o.date, o.startTime));
  if ((await repo.urlNamesTaken(db, tenantId, names)).size > 0) throw dateTaken('details.schedule');
}

/** Inserts the dates (draft, or published when asked) with copies of the series' ticket types. */
export async function makeDates(
  tx: DbOrTx,
  opts: { series: repo.SeriesRow; seriesTicketTypes: readonly repo.SeriesTicketTypeRow[]; occurrences: readonly SeriesOccurrence[]; publish: boolean },
): Promise<string[]> {
  const { series, occurrences, publish } = opts;
  const ids: string[] = [];
  const now = new Date();
  for (const o of occurrences) {
    const id = randomUUID();
    await events.insertEvent(tx, {
      tenantId: series.tenantId,
      id,
      seriesId: series.id,
      name: seriesDateName(series.name, o.start, series.timeZone),
      urlName: seriesDateUrlName(series.urlName, o.date, o.startTime),
      status: publish ? 'published' : 'draft',
      publishedAt: publish ? now : null,
      description: series.description,
      startDateTime: o.start,
      endDateTime: o.end,
      timeZone: series.timeZone,
      venueName: series.venueName,
      country: DEFAULT_COUNTRY,
      capacity: series.capacity,
      remainingCapacity: series.capacity,
    });
    let sortOrder = 0;
    for (const t of opts.seriesTicketTypes) {
      await ticketTypes.insertTicketType(tx, {
        tenantId: series.tenantId,
        id: randomUUID(),
        eventId: id,
        seriesTicketTypeId: t.id,
        name: t.name,
        price: t.price,
        quantity: t.quantity,
        remaining: t.quantity,
        sortOrder: sortOrder++,
      });
    }
    ids.push(id);
  }
  return ids;
}
