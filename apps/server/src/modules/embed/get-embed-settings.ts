import type { TEmbedSettings } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { listOrigins } from './repository.js';

/** The websites allowed to embed the tenant's events (issue 28). */
export async function getEmbedSettings(opts: { deps: Deps; ctx: TenantCtx }): Promise<TEmbedSettings> {
  return { id: opts.ctx.tenantId, details: { origins: await listOrigins(opts.deps.db, opts.ctx.tenantId) } };
}
