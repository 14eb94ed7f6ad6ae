import { randomUUID } from 'node:crypto';
import { M, payoutHoldToast, type TPayoutHoldAnswer, type TPayoutHoldRequest } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { recordAudit } from '../../platform/audit.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { syncPayoutLines } from './sync-payout-lines.js';
import * as repo from './repository.js';

// Holding and releasing an order's payout (issue 9).

/**
 * spec §7 POST /tenants/{tenantId}/payout/hold: sets the order's payout hold to `hold` (the screens
 * send the opposite of what they show, spec §4 Hold toggle) and records who, when and why.
 */
export async function holdPayout({ deps, ctx, input }: { deps: Deps; ctx: TenantCtx; input: TPayoutHoldRequest }): Promise<TPayoutHoldAnswer> {
  const ref = input.orderId.trim();
  if (!UUID_RE.test(input.eventId)) throw notFound();
  const order = await repo.findOrder(deps.db, { tenantId: ctx.tenantId, eventId: input.eventId, orderRef: ref, isUuid: UUID_RE.test(ref) });
  if (!order) throw notFound();
  // An order paid a moment ago may be held before its job ran: its line is written here first.
  await syncPayoutLines({ deps, order: { tenantId: ctx.tenantId, orderId: order.id } });
  const hold = input.hold;
  await deps.db.transaction(async (tx) => {
    const line = await repo.lockSaleLine(tx, ctx.tenantId, order.id);
    if (!line) throw badRequest(M.payoutNotPaidOrder);
    // spec §6: tenant-facilitated payouts cannot be held or paid by the platform.
    if (line.facilitator === 'tenant') throw badRequest(M.payoutTenantFacilitated);
    if (line.payoutCompletedAt) throw conflict(M.payoutAlreadyPaid);
    if (line.payoutId) throw conflict(M.payoutInProgress);
    await repo.setHold(tx, ctx.tenantId, order.id, hold);
    await repo.recordHold(tx, {
      tenantId: ctx.tenantId,
      id: randomUUID(),
      orderId: order.id,
      hold,
      message: input.message ?? '',
      userId: ctx.user.id,
      userEmail: ctx.user.email,
    });
    await recordAudit(tx, { actor: ctx.actor, tenantId: ctx.tenantId, action: hold ? 'payout.held' : 'payout.released', target: { type: 'order', id: order.orderUid }, before: { onHold: line.onHold }, after: { onHold: hold, message: input.message ?? '' } });
  });
  return { success: true, message: payoutHoldToast(order.orderUid, hold), onHold: hold, orderUID: order.orderUid };
}

export async function listHolds({ deps, tenantId, orderId }: { deps: Deps; tenantId: string; orderId: string }) {
  return repo.holdHistory(deps.db, tenantId, orderId);
}
