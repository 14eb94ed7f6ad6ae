import { randomUUID } from 'node:crypto';
import { expandSchedule, M, type TCreateSeriesRequest, type TSeries, urlNameFrom, SERIES_URL_NAME_MAX, isReservedPath, type ZCreateSeriesRequest } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { AppError } from '../../platform/errors.js';
import { getSeries } from './get-series.js';
import { assertFreeUrlNames, dateTaken, makeDates, scheduleError } from './make-dates.js';
import * as repo from './repository.js';

export type { TCreateSeriesRequest };
type Input = z.output<typeof ZCreateSeriesRequest>['details'];

const urlNameTaken = () => new AppError('CONFLICT', M.urlNameTaken, { 'details.urlName': M.urlNameTaken });

/**
 * A series with its dates: the schedule (a list of dates and/or a weekly rule, with optional
 * timed-entry slots) is expanded first, and any problem refuses the whole request before anything
 * is written; then the series, its ticket types and every date are written in one transaction.
 */
export async function createSeries({ deps, ctx, input }: { deps: Deps; ctx: TenantCtx; input: Input }): Promise<TSeries> {
  const urlName = input.urlName ?? urlNameFrom(input.name).slice(0, SERIES_URL_NAME_MAX).replace(/-+$/, '');
  if (!urlName || isReservedPath(urlName)) {
    const message = urlName ? M.urlNameReserved : M.urlNameFormat;
    throw new AppError('VALIDATION', message, { 'details.urlName': message });
  }
  const expanded = expandSchedule(input.schedule, input.timeZone);
  if ('problem' in expanded) throw scheduleError(expanded.problem);
  if (await repo.findSeriesByUrlName(deps.db, ctx.tenantId, urlName)) throw urlNameTaken();
  const seriesId = randomUUID();
  try {
    await deps.db.transaction(async (tx) => {
      const series = await repo.insertSeries(tx, {
        tenantId: ctx.tenantId,
        id: seriesId,
        name: input.name,
        urlName,
        description: input.description ?? '',
        timeZone: input.timeZone,
        venueName: input.venueName ?? '',
        capacity: input.capacity ?? null,
      });
      const types = await repo.insertSeriesTicketTypes(
        tx,
        input.ticketTypes.map((t, i) => ({ tenantId: ctx.tenantId, id: randomUUID(), seriesId, name: t.name, price: t.price, quantity: t.quantity, sortOrder: i })),
      );
      await assertFreeUrlNames(tx, ctx.tenantId, series, expanded.occurrences);
      await makeDates(tx, { series, seriesTicketTypes: types, occurrences: expanded.occurrences, publish: input.publish ?? false });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw (await repo.findSeriesByUrlName(deps.db, ctx.tenantId, urlName)) ? urlNameTaken() : dateTaken('details.schedule');
    throw err;
  }
  return getSeries({ deps, ctx, seriesId });
}
