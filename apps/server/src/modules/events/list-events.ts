import { soldAndHeld } from '@marquee/core';
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

export async function listEvents({ deps, ctx, query }: { deps: Deps; ctx: TenantCtx; query: unknown }) {
  const q = compileList(repo.EVENT_LIST, withoutQPrefix(query));
  // Event staff without a tenant-wide or platform role see only the events they work on.
  const onlyEvents = ctx.tenantRoles.length === 0 && ctx.platformRoles.length === 0 ? Object.keys(ctx.eventRoles) : null;
  const { rows, total } = await repo.listEvents(deps.db, ctx.tenantId, q, onlyEvents);
  const counts = await repo.salesCounts(deps.db, ctx.tenantId, rows.map(({ row }) => row.id));
  return q.page(rows, total, ({ row }) => ({ ...toEvent(row), sales: soldAndHeld(counts.get(row.id)!) }));
}
