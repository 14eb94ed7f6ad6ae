import { normaliseEmbedOrigin } from '@marquee/core';
import type { Config } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import { listOrigins } from './repository.js';

/**
 * http:// origins are allowed for loopback hosts only, and only on a server that itself runs on
 * http (development and tests); a production server (PUBLIC_SCHEME=https) takes https only.
 */
export const allowHttpLoopback = (config: Pick<Config, 'publicScheme'>) => config.publicScheme === 'http';

/** The websites allowed to embed the tenant's pages (and to be a widget checkout's return address). */
export const embedOriginsOf = (db: DbOrTx, tenantId: string): Promise<string[]> => listOrigins(db, tenantId);

/** Whether `url` (any address) is on one of the tenant's allowed websites. */
export function isOnAllowedOrigin(url: URL, origins: readonly string[]): boolean {
  const found = normaliseEmbedOrigin(url.origin, { allowHttpLoopback: true });
  return found.ok && origins.includes(found.origin);
}
