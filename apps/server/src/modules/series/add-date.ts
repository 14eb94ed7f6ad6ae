import { expandSchedule, type TSeries, type ZAddSeriesDateRequest } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { notFound } from '../../platform/errors.js';
import { getSeries } from './get-series.js';
import { assertFreeUrlNames, dateTaken, makeDates, scheduleError } from './make-dates.js';
import * as repo from './repository.js';

type Input = z.output<typeof ZAddSeriesDateRequest>['details'];

/** One more date, with copies of the series' ticket types; published when the series' other dates are. */
export async function addSeriesDate({ deps, ctx, seriesId, input }: { deps: Deps; ctx: TenantCtx; seriesId: string; input: Input }): Promise<TSeries> {
  const series = await repo.findSeries(deps.db, ctx.tenantId, seriesId);
  if (!series) throw notFound();
  const expanded = expandSchedule({ dates: [input.date], startTime: input.startTime, endTime: input.endTime }, series.timeZone);
  if ('problem' in expanded) throw scheduleError({ ...expanded.problem, field: expanded.problem.field.replace('details.schedule.', 'details.') });
  const [occurrence] = expanded.occurrences;
  if (await repo.dateStartsAt(deps.db, ctx.tenantId, seriesId, occurrence!.start)) throw dateTaken();
  const published = (await repo.datesOf(deps.db, ctx.tenantId, seriesId)).some((d) => d.status === 'published');
  try {
    await deps.db.transaction(async (tx) => {
      await assertFreeUrlNames(tx, ctx.tenantId, series, expanded.occurrences);
      const types = await repo.seriesTicketTypesOf(tx, ctx.tenantId, seriesId);
      await makeDates(tx, { series, seriesTicketTypes: types, occurrences: expanded.occurrences, publish: published });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw dateTaken();
    throw err;
  }
  return getSeries({ deps, ctx, seriesId });
}
