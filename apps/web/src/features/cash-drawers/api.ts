import { DRAWER_PATHS, type TCashDrawerDetail, type TCashDrawerList, type TCurrentDrawer } from '@marquee/core';
import { api } from '../../ui/api-client';

// Issue 23 part B: a cash drawer per staff member and shift (docs/box-office.md "Cash drawers").
export const drawersApi = {
  current: (tenantId: string, signal?: AbortSignal) => api.get<TCurrentDrawer>(DRAWER_PATHS.current(tenantId), undefined, signal),
  open: (tenantId: string, openingFloat: number) => api.post<TCashDrawerDetail>(DRAWER_PATHS.list(tenantId), { details: { openingFloat } }),
  close: (tenantId: string, drawerId: string, countedAmount: number, note: string) =>
    api.post<TCashDrawerDetail>(DRAWER_PATHS.close(tenantId, drawerId), { details: { countedAmount, note } }),
  list: (tenantId: string, q: { status?: string; cursor?: string }, signal?: AbortSignal) =>
    api.get<TCashDrawerList>(DRAWER_PATHS.list(tenantId), { limit: 100, cursor: q.cursor, filters: q.status ? [`details.status=${q.status}`] : undefined }, signal),
  get: (tenantId: string, drawerId: string, signal?: AbortSignal) => api.get<TCashDrawerDetail>(DRAWER_PATHS.drawer(tenantId, drawerId), undefined, signal),
};

export const drawerKeys = {
  current: (tenantId: string) => ['cash-drawers', tenantId, 'current'] as const,
  list: (tenantId: string, status: string) => ['cash-drawers', tenantId, 'list', status] as const,
  one: (tenantId: string, drawerId: string) => ['cash-drawers', tenantId, 'one', drawerId] as const,
  all: (tenantId: string) => ['cash-drawers', tenantId] as const,
};

/** A signed difference as people read it at a till: "$0.00", "+$1.50 over", "-$2.00 short". */
export function differenceLabel(cents: number, format: (c: number) => string): string {
  if (cents === 0) return `${format(0)} (exact)`;
  return cents > 0 ? `+${format(cents)} over` : `-${format(-cents)} short`;
}
