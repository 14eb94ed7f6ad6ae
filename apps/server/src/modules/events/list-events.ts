import { decodeFilters, soldAndHeld } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { compileList } from '../../platform/list-query.js';
import { toEvent } from './event-view.js';
import * as repo from './repository.js';

/** spec §7 also shows the lookup sent as ?filters=q?details.name={name}: read it as details.name={name}. */
function withoutQPrefix(query: unknown): unknown {
  if (!query || typeof query !== 'object') return query;
  const { filters } = query as { filters?: unknown };
  const strip = (f: unknown) => (typeof f === 'string' && f.startsWith('q?') ? f.slice(2) : f);
  if (typeof filters === 'string') return { ...query, filters: strip(filters) };
  if (Array.isArray(filters)) return { ...query, filters: filters.map(strip) };
  return query;
}

/** Whether the list's query has a filter on `field` (the grouped list asks for the series' sums). */
function hasFilter(query: unknown, field: string): boolean {
  const { filters } = (query ?? {}) as { filters?: string | string[] };
  const decoded = decodeFilters(filters);
  return 'filters' in decoded && decoded.filters.some((f) => f.field === field);
}

export async function listEvents({ deps, ctx, query }: { deps: Deps; ctx: TenantCtx; query: unknown }) {
  const q = compileList(repo.EVENT_LIST, withoutQPrefix(query));
  // Event staff without a tenant-wide or platform role see only the events they work on.
  const onlyEvents = ctx.tenantRoles.length === 0 && ctx.platformRoles.length === 0 ? Object.keys(ctx.eventRoles) : null;
  const { rows, total } = await repo.listEvents(deps.db, ctx.tenantId, q, onlyEvents);
  const counts = await repo.salesCounts(deps.db, ctx.tenantId, rows.map(({ row }) => row.id));
  // Issue 28: grouped by series, a series' one row carries the whole series (its dates summed).
  const grouped = hasFilter(query, 'details.seriesGrouped');
  const series = grouped ? await repo.seriesOfList(deps.db, ctx.tenantId, rows.flatMap(({ row }) => (row.seriesId ? [row.seriesId] : []))) : new Map<string, repo.SeriesOfList>();
  return q.page(rows, total, ({ row }) => {
    const s = row.seriesId ? series.get(row.seriesId) : undefined;
    return {
      ...toEvent(row),
      sales: soldAndHeld(counts.get(row.id)!),
      ...(s && {
        series: {
          id: s.id,
          name: s.name,
          urlName: s.urlName,
          dates: s.dates,
          nextStartDateTime: s.nextStartDateTime,
          capacity: s.capacity,
          remainingCapacity: s.remainingCapacity,
          sales: soldAndHeld({ givenOut: s.givenOut, paidTickets: s.paidTickets }),
        },
      }),
    };
  });
}
