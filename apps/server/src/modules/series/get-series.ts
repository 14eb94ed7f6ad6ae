import { isEventPublic, type TSeries, type TSeriesDate, type TSeriesList } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { notFound } from '../../platform/errors.js';
import * as repo from './repository.js';

/** What a date has left: the smaller of its capacity and its ticket types' remaining; null: no limit. */
export function leftOf(d: Pick<repo.SeriesDateFacts, 'remainingCapacity' | 'ticketsLeft'>): number | null {
  const limits = [d.remainingCapacity, d.ticketsLeft].filter((n): n is number => n !== null);
  return limits.length === 0 ? null : Math.max(0, Math.min(...limits));
}

export function toSeriesDate(d: repo.SeriesDateFacts): TSeriesDate {
  const left = leftOf(d);
  return {
    eventId: d.eventId,
    name: d.name,
    urlName: d.urlName,
    status: d.status as TSeriesDate['status'],
    startDateTime: d.startDateTime?.toISOString() ?? null,
    endDateTime: d.endDateTime?.toISOString() ?? null,
    sold: d.sold,
    left,
    soldOut: left === 0,
    grossSales: d.gross,
  };
}

/** The series with each date's figures and the whole series' (the sums of its dates; cancelled dates count what they sold). */
export async function getSeries({ deps, ctx, seriesId }: { deps: Deps; ctx: TenantCtx; seriesId: string }): Promise<TSeries> {
  const series = await repo.findSeries(deps.db, ctx.tenantId, seriesId);
  if (!series) throw notFound();
  const [types, facts] = await Promise.all([repo.seriesTicketTypesOf(deps.db, ctx.tenantId, seriesId), repo.datesOf(deps.db, ctx.tenantId, seriesId)]);
  const dates = facts.map(toSeriesDate);
  const open = dates.filter((d) => d.status !== 'cancelled');
  const unlimited = open.some((d) => d.left === null);
  return {
    id: series.id,
    details: {
      name: series.name,
      urlName: series.urlName,
      description: series.description,
      timeZone: series.timeZone,
      venueName: series.venueName,
      capacity: series.capacity,
      ticketTypes: types.map((t) => ({ id: t.id, name: t.name, price: t.price, quantity: t.quantity })),
      dates,
      totals: {
        dates: dates.length,
        sold: dates.reduce((s, d) => s + d.sold, 0),
        left: unlimited ? null : open.reduce((s, d) => s + (d.left ?? 0), 0),
        grossSales: dates.reduce((s, d) => s + d.grossSales, 0),
      },
    },
  };
}

export async function listSeries({ deps, ctx }: { deps: Deps; ctx: TenantCtx }): Promise<TSeriesList> {
  const rows = await repo.listSeries(deps.db, ctx.tenantId);
  const result = rows.map((r) => ({
    id: r.id,
    details: { name: r.name, urlName: r.urlName, dates: Number(r.dates), firstStart: r.firstStart ? new Date(r.firstStart).toISOString() : null, lastStart: r.lastStart ? new Date(r.lastStart).toISOString() : null },
  }));
  return { result, count: result.length, cursor: null };
}

/** The dates the public may see (core isEventPublic), for the series' public page. */
export async function publicDatesOf(deps: Deps, tenantId: string, seriesId: string) {
  const facts = await repo.datesOf(deps.db, tenantId, seriesId);
  return facts.filter((d) => isEventPublic(d)).map(toSeriesDate);
}
