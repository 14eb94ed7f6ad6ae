import {
  M,
  PAYOUT_ORDER_PAGE_SIZE,
  orderPayoutState,
  payoutRowStatus,
  type Facilitator,
  type PayoutLineKind,
  type TPayoutBalance,
  type TCompletedPayout,
  type TPayout,
  type TPayoutBreakdownList,
  type TPayoutOrderList,
  type TPayoutOrderRow,
} from '@marquee/core';
import type { SQL } from 'drizzle-orm';
import type { Deps } from '../../deps.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { notFound } from '../../platform/errors.js';
import { compileList } from '../../platform/list-query.js';
import * as repo from './repository.js';

// The payout screens' reads (issue 9): Pending Payouts, a tenant's transactions, completed
// payouts, one payout and its orders, and what the order page shows of its payout.

function toOrderRow(r: repo.LineListRow, now: Date): TPayoutOrderRow {
  const l = r.line;
  const payoutCompleted = l.payoutCompletedAt !== null;
  return {
    id: l.id,
    details: {
      orderUID: r.orderUid,
      orderId: l.orderId,
      kind: l.kind as PayoutLineKind,
      paymentMethod: r.paymentMethod,
      channel: r.channel,
      balanceAvailableOn: l.balanceAvailableOn.toISOString(),
      dateCreated: r.dateCreated.toISOString(),
      tenantURL: r.tenantUrl,
      tenantName: r.tenantName,
      tenantId: l.tenantId,
      eventName: r.eventName,
      eventId: l.eventId,
      chargeId: r.chargeId,
      status: payoutRowStatus(repo.lineFacts(l), now),
      facilitator: l.facilitator as Facilitator,
      grossAmount: l.grossAmount,
      tenantTotal: l.tenantTotal,
      platformTotal: l.platformTotal,
      gatewayFee: l.gatewayFee,
      netAmount: l.netAmount,
      payoutCompleted,
      onHold: l.onHold,
      payoutId: l.payoutId,
      lastFailure: l.lastFailure,
    },
  };
}

/** spec §2 Pending Payouts: every open line of every tenant (platform operators). A read: the jobs write the lines. */
export async function listPendingPayouts({ deps, query }: { deps: Deps; query: unknown }): Promise<TPayoutOrderList> {
  return listLineRows(deps, repo.openLines(), query);
}

/** Payout transactions (export): every line, of one tenant when given. */
export async function listPayoutTransactions({ deps, tenantId, query }: { deps: Deps; tenantId?: string; query: unknown }): Promise<TPayoutOrderList> {
  return listLineRows(deps, tenantId ? repo.linesOfTenant(tenantId) : undefined, query);
}

async function listLineRows(deps: Deps, scope: SQL | undefined, query: unknown): Promise<TPayoutOrderList> {
  const q = compileList(repo.PAYOUT_LINE_LIST, query);
  const { rows, total } = await repo.listLines(deps.db, scope, q);
  const now = new Date();
  return q.page(rows, total, (r) => toOrderRow(r, now));
}

// ---- completed payouts ----------------------------------------------------------------------------

function toCompleted(r: repo.PayoutListRow): TCompletedPayout {
  const p = r.payout;
  return {
    id: p.id,
    details: {
      payoutId: p.id,
      tenantURL: r.tenantUrl,
      tenantName: r.tenantName,
      tenantId: p.tenantId,
      eventName: r.eventNames,
      orderUIDs: r.orderUids,
      ticketCount: Number(r.ticketCount),
      facilitator: r.facilitator as Facilitator,
      chargeGatewayFeesToPlatform: p.chargeGatewayFeesToPlatform,
      grossAmount: p.grossAmount,
      creditCardProcessingFee: p.gatewayFee,
      netAmount: p.netAmount,
      tenantTotal: p.tenantTotal,
      platformTotal: p.platformTotal,
      dateCreated: p.createdAt.toISOString(),
    },
  };
}

/** spec §2 Completed Payouts: all tenants (platform), or one tenant's (platform per tenant, tenant console). */
export async function listCompletedPayouts({ deps, tenantId, query }: { deps: Deps; tenantId?: string; query: unknown }) {
  const q = compileList(repo.COMPLETED_PAYOUT_LIST, query);
  const { rows, total } = await repo.listCompletedPayouts(deps.db, tenantId ? repo.payoutsOfTenant(tenantId) : undefined, q);
  return q.page(rows, total, toCompleted);
}

const checkPayoutId = (payoutId: string) => {
  if (!UUID_RE.test(payoutId)) throw notFound(M.payoutNotFound);
};

/** spec §3 Payout details. A tenant reads only its own (another tenant's payout is a 404). */
export async function getPayout({ deps, payoutId, tenantId }: { deps: Deps; payoutId: string; tenantId?: string }): Promise<TPayout> {
  checkPayoutId(payoutId);
  const r = await repo.findCompletedPayout(deps.db, payoutId, tenantId);
  if (!r) throw notFound(M.payoutNotFound);
  const p = r.payout;
  return {
    id: p.id,
    details: {
      payoutId: p.id,
      dateCreated: p.createdAt.toISOString(),
      grossAmount: p.grossAmount,
      creditCardProcessingFee: p.gatewayFee,
      netAmount: p.netAmount,
      tenantTotal: p.tenantTotal,
      platformTotal: p.platformTotal,
      tenantId: p.tenantId,
      tenantURL: r.tenantUrl,
      tenantName: r.tenantName,
      balanceAvailableOn: null,
      payoutCompleted: true,
      onHold: false,
      transferId: p.transferId,
      automatic: p.automatic,
    },
  };
}

/** spec §2 Payout detail order list: Search Order ID on details.orderUID, pages of 100 by default. */
export async function listPayoutOrders({ deps, payoutId, tenantId, query }: { deps: Deps; payoutId: string; tenantId?: string; query: Record<string, unknown> }): Promise<TPayoutBreakdownList> {
  checkPayoutId(payoutId);
  const found = await repo.findCompletedPayout(deps.db, payoutId, tenantId);
  if (!found) throw notFound(M.payoutNotFound);
  const q = compileList(repo.PAYOUT_LINE_LIST, { limit: PAYOUT_ORDER_PAGE_SIZE, ...query });
  const { rows, total } = await repo.listLines(deps.db, repo.linesOfPayout(found.payout.tenantId, payoutId), q);
  const page = q.page(rows, total, (r) => ({
    id: r.line.id,
    details: {
      orderUID: r.orderUid,
      orderId: r.line.orderId,
      eventId: r.line.eventId,
      eventName: r.eventName,
      kind: r.line.kind as PayoutLineKind,
      paymentMethod: r.paymentMethod,
      gatewayFee: r.line.gatewayFee,
      grossAmount: r.line.grossAmount,
      tenantTotal: r.line.tenantTotal,
      platformTotal: r.line.platformTotal,
      netAmount: r.line.netAmount,
    },
  }));
  return { id: payoutId, ...page };
}

// ---- the order page -------------------------------------------------------------------------------

/** spec §4 Order payout state of one order, from its sale line (none yet: pending). */
export async function orderPayoutFacts({ deps, tenantId, orderId }: { deps: Deps; tenantId: string; orderId: string }) {
  const line = await repo.findSaleLine(deps.db, tenantId, orderId);
  const facts = { payoutCompleted: !!line?.payoutCompletedAt, onHold: line?.onHold ?? false, balanceAvailableOn: line?.balanceAvailableOn ?? null };
  return { ...facts, state: orderPayoutState(facts), facilitator: (line?.facilitator ?? null) as Facilitator | null, payoutId: line?.payoutId ?? null };
}

// ---- balance (issue 23) -----------------------------------------------------------------------------

/**
 * What the tenant is due and owes over the lines no payout has taken yet: a tenant whose cash and
 * card-terminal orders (and refunds) owe the platform more than its open sales are due carries the
 * difference as its balance owed; nothing is sent until sales cover it (docs/payouts.md "Netting").
 */
export async function getPayoutBalance({ deps, tenantId }: { deps: Deps; tenantId: string }): Promise<TPayoutBalance> {
  const b = await repo.tenantBalance(deps.db, tenantId);
  return { tenantId, dueToTenant: b.due, owedToPlatform: b.owed, balance: b.due - b.owed, balanceOwed: Math.max(0, b.owed - b.due), nettingOrders: b.nettingOrders };
}
