import { M_EMBED, normaliseEmbedOrigin, type TEmbedSettings, type TEmbedSettingsRequest } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { recordAudit } from '../../platform/audit.js';
import { AppError } from '../../platform/errors.js';
import { allowHttpLoopback } from './allowed-origins.js';
import { listOrigins, replaceOrigins } from './repository.js';

/**
 * Replaces the websites allowed to embed the tenant's events (issue 28). Every address is checked
 * and normalised first (normaliseEmbedOrigin); one bad address refuses the whole list, with its
 * field, and nothing is written. Duplicates (after normalising) are kept once.
 */
export async function updateEmbedSettings(opts: { deps: Deps; ctx: TenantCtx; input: TEmbedSettingsRequest }): Promise<{ success: true; message: string; settings: TEmbedSettings }> {
  const { deps, ctx, input } = opts;
  const origins: string[] = [];
  for (const [i, raw] of input.details.origins.entries()) {
    const found = normaliseEmbedOrigin(raw, { allowHttpLoopback: allowHttpLoopback(deps.config) });
    if (!found.ok) throw new AppError('VALIDATION', found.message, { [`details.origins.${i}`]: found.message });
    if (!origins.includes(found.origin)) origins.push(found.origin);
  }
  await deps.db.transaction(async (tx) => {
    const before = await listOrigins(tx, ctx.tenantId);
    await replaceOrigins(tx, ctx.tenantId, origins);
    await recordAudit(tx, { actor: ctx.actor, tenantId: ctx.tenantId, action: 'embed.origins_changed', target: { type: 'tenant', id: ctx.tenantId }, before: { origins: before }, after: { origins } });
  });
  return { success: true, message: M_EMBED.saved, settings: { id: ctx.tenantId, details: { origins } } };
}
