import { randomUUID } from 'node:crypto';
import { API_KEY_SCOPES, M, type TCreateApiKeyRequest, type TCreateApiKeyResponse } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { recordAudit } from '../../platform/audit.js';
import { newApiKeySecret } from '../../platform/auth/api-keys.js';
import type { PlatformCtx, TenantCtx } from '../../platform/auth/context.js';
import { AppError } from '../../platform/errors.js';
import * as repo from './repository.js';
import { auditView, toWire } from './to-wire.js';

/**
 * Creates a key for the tenant (or, `tenantId` null, a platform key). The key acts as the member who
 * creates it, within its scopes; the answer carries its secret, shown this once and stored hashed.
 */
export async function createApiKey(opts: {
  deps: Deps;
  ctx: TenantCtx | PlatformCtx;
  tenantId: string | null;
  input: TCreateApiKeyRequest;
}): Promise<TCreateApiKeyResponse> {
  const { deps, ctx, tenantId } = opts;
  const { name, scopes, expiresAt } = opts.input.details;
  const expiry = expiresAt ? new Date(expiresAt) : null;
  if (expiry && expiry.getTime() <= Date.now()) throw new AppError('VALIDATION', M.apiKeyExpiryPast, { 'details.expiresAt': M.apiKeyExpiryPast });
  const { key, prefix, secretHash } = newApiKeySecret();
  // Stored in the scopes' own order, once each.
  const ordered = API_KEY_SCOPES.filter((s) => scopes.includes(s));
  const row = await deps.db.transaction(async (tx) => {
    const created = await repo.insertKey(tx, { id: randomUUID(), tenantId, name: name.trim(), prefix, secretHash, scopes: ordered, createdBy: ctx.user.id, expiresAt: expiry });
    await recordAudit(tx, { actor: ctx.actor, tenantId, action: 'api_key.created', target: { type: 'api_key', id: created.id }, after: auditView(created) });
    return created;
  });
  return { ...toWire(row, ctx.user.email), secret: key };
}
