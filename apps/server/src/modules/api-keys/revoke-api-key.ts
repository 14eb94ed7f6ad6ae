import type { TApiKey } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { recordAudit } from '../../platform/audit.js';
import type { PlatformCtx, TenantCtx } from '../../platform/auth/context.js';
import { notFound } from '../../platform/errors.js';
import * as repo from './repository.js';
import { auditView, toWire } from './to-wire.js';

/** Revokes a key at once (its next request is 401). Revoking a revoked key changes nothing and records nothing. */
export async function revokeApiKey(opts: { deps: Deps; ctx: TenantCtx | PlatformCtx; tenantId: string | null; keyId: string }): Promise<TApiKey> {
  const { deps, ctx, tenantId, keyId } = opts;
  const row = await deps.db.transaction(async (tx) => {
    const found = await repo.lockKey(tx, tenantId, keyId);
    if (!found) throw notFound();
    if (found.revokedAt) return found;
    const revoked = await repo.revokeKey(tx, keyId);
    await recordAudit(tx, { actor: ctx.actor, tenantId, action: 'api_key.revoked', target: { type: 'api_key', id: keyId }, before: auditView(found), after: auditView(revoked) });
    return revoked;
  });
  return toWire(row, await repo.creatorEmail(deps.db, row.createdBy));
}
