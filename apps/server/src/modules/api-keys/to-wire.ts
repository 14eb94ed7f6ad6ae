import type { ApiKeyScope, TApiKey } from '@marquee/core';
import type { ApiKeyRow } from './repository.js';

export function keyStatus(row: Pick<ApiKeyRow, 'revokedAt' | 'expiresAt'>, now = Date.now()): TApiKey['details']['status'] {
  if (row.revokedAt) return 'REVOKED';
  if (row.expiresAt && row.expiresAt.getTime() <= now) return 'EXPIRED';
  return 'ACTIVE';
}

/** A key as the API shows it: never its secret nor its hash. */
export function toWire(row: ApiKeyRow, createdBy: string | null): TApiKey {
  return {
    id: row.id,
    details: {
      name: row.name,
      prefix: `mq_${row.prefix}`,
      scopes: row.scopes as ApiKeyScope[],
      status: keyStatus(row),
      createdBy,
      dateCreated: row.createdAt.toISOString(),
      expiresAt: row.expiresAt?.toISOString() ?? null,
      lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
      revokedAt: row.revokedAt?.toISOString() ?? null,
    },
  };
}

/** What the audit log keeps of a key. */
export const auditView = (row: ApiKeyRow) => ({
  name: row.name,
  prefix: `mq_${row.prefix}`,
  scopes: row.scopes,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
});
