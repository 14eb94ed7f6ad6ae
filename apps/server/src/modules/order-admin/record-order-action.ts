import type { OrderActionKind } from '@marquee/core';
import type { DbOrTx } from '../../db/client.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import * as repo from './repository.js';

/** An order action the fulfilment module records (resend, download). */
export async function recordOrderAction(
  db: DbOrTx,
  a: { ctx: TenantCtx; orderId: string; action: OrderActionKind; reason?: string; details?: unknown },
) {
  await repo.insertAction(db, {
    tenantId: a.ctx.tenantId,
    orderId: a.orderId,
    action: a.action,
    reason: a.reason ?? '',
    userId: a.ctx.user.id,
    userEmail: a.ctx.user.email,
    details: a.details,
  });
}
