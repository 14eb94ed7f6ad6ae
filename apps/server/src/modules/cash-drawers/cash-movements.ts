import { randomUUID } from 'node:crypto';
import { M } from '@marquee/core';
import type { Tx } from '../../db/client.js';
import { DomainError } from '../../platform/errors.js';
import * as repo from './repository.js';

// Cash into and out of a staff member's drawer (issue 23 part B), called by the box office's cash
// sale and by a cash refund of a box-office order, inside their own transaction, so the movement and
// the money's record commit together or not at all. Lock order (docs/architecture.md): the drawer is
// locked after the order's rows and before the ticket types, the event and the report rollup.

/**
 * A cash sale: the seller's open drawer takes the order's total (one statement: the drawer's lock
 * and the movement). No open drawer: DRAWER_NOT_OPEN, and the caller's transaction (the sale) rolls
 * back. Returns the drawer's id.
 */
export async function takeCashIntoDrawer(tx: Tx, p: { tenantId: string; userId: string; orderId: string; amount: number }): Promise<string> {
  const drawerId = await repo.lockOpenDrawerAndMove(tx, { tenantId: p.tenantId, userId: p.userId, id: randomUUID(), kind: 'sale', orderId: p.orderId, refundId: null, amount: p.amount });
  if (!drawerId) throw drawerNotOpen();
  return drawerId;
}

/** The refusal of a cash sale or refund by someone with no open drawer. */
export const drawerNotOpen = () => new DomainError('DRAWER_NOT_OPEN', M.drawerNotOpen);

/**
 * The refunder's open drawer, locked before the refund gives any seat back (lock order: a drawer
 * after the order and its rows, before the ticket types; docs/architecture.md): DRAWER_NOT_OPEN
 * without one, before anything is written.
 */
export async function lockDrawerForRefund(tx: Tx, p: { tenantId: string; userId: string }): Promise<void> {
  if (!(await repo.lockOpenDrawerOf(tx, p.tenantId, p.userId))) throw new DomainError('DRAWER_NOT_OPEN', M.drawerNotOpen);
}

/** Cash handed back for a refund, out of the refunder's open drawer (DRAWER_NOT_OPEN without one). */
export async function giveCashFromDrawer(tx: Tx, p: { tenantId: string; userId: string; orderId: string; refundId: string; amount: number }): Promise<string> {
  const drawerId = await repo.lockOpenDrawerAndMove(tx, { tenantId: p.tenantId, userId: p.userId, id: randomUUID(), kind: 'refund', orderId: p.orderId, refundId: p.refundId, amount: -p.amount });
  if (!drawerId) throw new DomainError('DRAWER_NOT_OPEN', M.drawerNotOpen);
  return drawerId;
}

/** Whether the person has an open drawer now (the sale screen checks before it takes tickets). */
export async function hasOpenDrawer(tx: Tx, p: { tenantId: string; userId: string }): Promise<boolean> {
  return (await repo.findOpenDrawerOf(tx, p.tenantId, p.userId)) !== undefined;
}
