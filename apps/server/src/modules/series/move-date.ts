import { expandSchedule, formatEventDateTime, seriesDateName, type TSeries, type ZMoveSeriesDateRequest } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { notFound } from '../../platform/errors.js';
import { updateEvent } from '../events/update-event.js';
import { DATE_MOVED_JOB, type DateMovedJob } from './date-moved-mail.js';
import { getSeries } from './get-series.js';
import { dateTaken, scheduleError } from './make-dates.js';
import * as repo from './repository.js';

type Input = z.output<typeof ZMoveSeriesDateRequest>['details'];

/**
 * Moves one date: the event's ordinary time change (events' updateEvent: a cancelled date is
 * refused there), its name follows the new time, and each paid order's buyer is mailed the new
 * time by a job queued afterwards. The date keeps its URL name, so links already sent still work.
 */
export async function moveSeriesDate({ deps, ctx, seriesId, eventId, input }: { deps: Deps; ctx: TenantCtx; seriesId: string; eventId: string; input: Input }): Promise<TSeries> {
  const series = await repo.findSeries(deps.db, ctx.tenantId, seriesId);
  const date = series && (await repo.findDate(deps.db, ctx.tenantId, seriesId, eventId));
  if (!series || !date) throw notFound();
  const expanded = expandSchedule({ dates: [input.date], startTime: input.startTime, endTime: input.endTime }, series.timeZone);
  if ('problem' in expanded) throw scheduleError({ ...expanded.problem, field: expanded.problem.field.replace('details.schedule.', 'details.') });
  const { start, end } = expanded.occurrences[0]!;
  if (await repo.dateStartsAt(deps.db, ctx.tenantId, seriesId, start, eventId)) throw dateTaken();
  const before = date.startDateTime;
  await updateEvent({
    deps,
    ctx,
    eventId,
    changes: { startDateTime: start.toISOString(), endDateTime: end.toISOString(), name: seriesDateName(series.name, start, series.timeZone) },
  });
  if (before?.getTime() !== start.getTime()) {
    const job: DateMovedJob = {
      tenantId: ctx.tenantId,
      eventId,
      was: before ? formatEventDateTime(before, series.timeZone) : '',
      now: formatEventDateTime(start, series.timeZone),
    };
    await deps.jobs.enqueue(deps.db, DATE_MOVED_JOB, job, { dedupeKey: `series-date-moved:${eventId}:${start.toISOString()}` });
  }
  return getSeries({ deps, ctx, seriesId });
}
