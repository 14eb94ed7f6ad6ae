import { M, type ZRefundRequest } from '@marquee/core';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Tx } from '../../db/client.js';
import { refunds } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { AppError, DomainError } from '../../platform/errors.js';
import { giveCashFromDrawer } from '../cash-drawers/cash-movements.js';
import { applyRefundStatus } from '../payments/refunds.js';
import type * as repo from './repository.js';

// Refunds of box-office orders (issue 23 part B, docs/box-office.md "Refunds at the box office").
// An order paid in cash or on the venue's own terminal never went through the gateway: its money
// goes back the way it came, in cash from the refunder's open drawer or on the terminal with the
// terminal's reference, and the refund is settled at once. A complimentary order took nothing.

/** How a box-office order was paid when the platform never held its money. */
export const OFFLINE_METHODS = ['cash', 'card_terminal'] as const;

export const isOfflineOrder = (order: Pick<repo.OrderRow, 'paymentMethod'>) => (OFFLINE_METHODS as readonly string[]).includes(order.paymentMethod ?? '');

/** A comp has nothing to refund; an offline order needs to say how the money goes back. Before anything is written. */
export function checkBoxOfficeRefund(order: repo.OrderRow, input: z.output<typeof ZRefundRequest>) {
  if (order.paymentMethod === 'complimentary') throw new DomainError('REFUND_NOTHING_PAID', M.refundNothingForComp);
  if (!isOfflineOrder(order)) return;
  if (!input.refundMethod) throw new AppError('VALIDATION', M.refundMethodRequired, { refundMethod: M.refundMethodRequired });
}

/**
 * In the refund's own transaction, after its row is written under the order's lock: the cash comes
 * out of the refunder's open drawer (DRAWER_NOT_OPEN without one: the refund rolls back), the method
 * and reference are kept on the refund, and it is succeeded at once (its payout line follows by job).
 */
export async function settleBoxOfficeRefund(
  deps: Deps,
  tx: Tx,
  p: { ctx: TenantCtx; order: repo.OrderRow; refund: repo.RefundRow; input: Pick<z.output<typeof ZRefundRequest>, 'refundMethod' | 'terminalReference'> },
) {
  const method = p.input.refundMethod!;
  if (method === 'cash') await giveCashFromDrawer(tx, { tenantId: p.ctx.tenantId, userId: p.ctx.user.id, orderId: p.order.id, refundId: p.refund.id, amount: p.refund.amount });
  await setRefundMethod(tx, p.ctx.tenantId, p.refund.id, method, method === 'card_terminal' ? p.input.terminalReference! : null);
  await applyRefundStatus(tx, { tenantId: p.ctx.tenantId, refundId: p.refund.id, status: 'succeeded' }, deps);
}

// Its one statement lives here rather than in repository.ts, which is being split into use-case files.
async function setRefundMethod(tx: Tx, tenantId: string, refundId: string, method: string, reference: string | null) {
  await tx.update(refunds).set({ refundMethod: method, terminalReference: reference }).where(and(eq(refunds.tenantId, tenantId), eq(refunds.id, refundId)));
}
