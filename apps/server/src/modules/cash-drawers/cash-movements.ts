import { randomUUID } from 'node:crypto';
import { M } from '@marquee/core';
import type { Tx } from '../../db/client.js';
import { DomainError } from '../../platform/errors.js';
import * as repo from './repository.js';

// Cash into and out of a staff member's drawer (issue 23 part B), called by the box office's cash
// sale and by a cash refund of a box-office order, inside their own transaction, so the movement and
// the money's record commit together or not at all. Lock order (docs/decisions.md): the drawer is
// locked after the order's rows and before any payout line.

/**
 * A cash sale: the seller's open drawer takes the order's total. No open drawer: DRAWER_NOT_OPEN,
 * and the caller's transaction (the sale) rolls back. Returns the drawer's id.
 */
export async function takeCashIntoDrawer(tx: Tx, p: { tenantId: string; userId: string; orderId: string; amount: number }): Promise<string> {
  const drawer = await repo.lockOpenDrawerOf(tx, p.tenantId, p.userId);
  if (!drawer) throw new DomainError('DRAWER_NOT_OPEN', M.drawerNotOpen);
  if (p.amount > 0) await repo.insertMovement(tx, { tenantId: p.tenantId, id: randomUUID(), drawerId: drawer.id, kind: 'sale', orderId: p.orderId, amount: p.amount });
  return drawer.id;
}

/** Cash handed back for a refund, out of the refunder's open drawer (DRAWER_NOT_OPEN without one). */
export async function giveCashFromDrawer(tx: Tx, p: { tenantId: string; userId: string; orderId: string; refundId: string; amount: number }): Promise<string> {
  const drawer = await repo.lockOpenDrawerOf(tx, p.tenantId, p.userId);
  if (!drawer) throw new DomainError('DRAWER_NOT_OPEN', M.drawerNotOpen);
  await repo.insertMovement(tx, { tenantId: p.tenantId, id: randomUUID(), drawerId: drawer.id, kind: 'refund', orderId: p.orderId, refundId: p.refundId, amount: -p.amount });
  return drawer.id;
}

/** Whether the person has an open drawer now (the sale screen checks before it takes tickets). */
export async function hasOpenDrawer(tx: Tx, p: { tenantId: string; userId: string }): Promise<boolean> {
  return (await repo.findOpenDrawerOf(tx, p.tenantId, p.userId)) !== undefined;
}
