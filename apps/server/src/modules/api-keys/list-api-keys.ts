import type { ListResponse, TApiKey } from '@marquee/core';
import type { Deps } from '../../deps.js';
import * as repo from './repository.js';
import { toWire } from './to-wire.js';

/** The tenant's keys (or the platform's), newest first; never their secrets. */
export async function listApiKeys(opts: { deps: Deps; tenantId: string | null; query: unknown }): Promise<ListResponse<TApiKey>> {
  const { q, rows, total } = await repo.listKeys(opts.deps.db, opts.tenantId, opts.query);
  return q.page(rows, total, (r) => toWire(r.key, r.createdBy));
}
