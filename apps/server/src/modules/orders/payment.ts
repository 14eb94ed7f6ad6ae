import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { domainEventCtes } from '../../platform/domain-events.js';
import { notFound } from '../../platform/errors.js';
import * as eventsRepo from '../events/repository.js';
import { seatsForLatePayment } from '../seating/late-payment.js';
import { releaseHold } from './holds.js';
import * as repo from './repository.js';

// The payment of a draft order, as the payments webhook reports it (and a free order at once).

/**
 * The processor of a box-office order paid in cash or on the venue's own terminal (issue 23), as
 * orders.payment_provider and as its refunds' provider: the money is with the tenant, so no gateway
 * is ever asked to move it (a refund of it is settled by staff at the box office).
 */
export const BOX_OFFICE_PROVIDER = 'box_office';

/** Job name of the tickets' issue; the fulfilment module registers its handler. */
export const FULFIL_JOB = 'orders.fulfil';

/**
 * Job name of an order's payout lines (its sale line, and a line per succeeded refund); the payouts
 * module registers its handler. Queued with the payment and with each succeeded refund, in their
 * transactions, so the lines follow the money and Pending Payouts only reads.
 */
export const PAYOUT_LINES_JOB = 'payouts.lines';

/** Queues the order's payout lines (PAYOUT_LINES_JOB); `cause` keeps one job per payment or refund. */
export async function queuePayoutLines(deps: Pick<Deps, 'jobs'>, tx: DbOrTx, p: { tenantId: string; orderId: string; cause: string }) {
  await deps.jobs.enqueue(tx, PAYOUT_LINES_JOB, { tenantId: p.tenantId, orderId: p.orderId }, { dedupeKey: `${PAYOUT_LINES_JOB}:${p.cause}` });
}

/** Thrown inside a (sub)transaction to roll it back when a conditional take found too little left. */
class Shortage extends Error {
  constructor(readonly reason: 'ticketType' | 'capacity' | 'seats') {
    super(`inventory shortage: ${reason}`);
  }
}

export async function markPaidInTx(
  deps: Deps,
  tx: Tx,
  p: { tenantId: string; orderId: string; provider: string; sessionId: string | null; chargeId: string | null; paymentMethod: string | null },
  /** The order as the caller locked it: then the update and its follow-ups are one statement (issue 26 "mail2"). */
  locked?: repo.OrderRow,
) {
  const paidAt = new Date();
  if (locked) {
    // Every follow-up is written from the row of the update (none if the order is gone), with the
    // order's facts as locked (the update changes none of those the follow-ups carry).
    await tx.execute(sql`
      with paid_order as (
        update orders set status = 'processing', paid_at = ${paidAt.toISOString()}::timestamptz, payment_provider = ${p.provider}, payment_session_id = ${p.sessionId},
          charge_id = ${p.chargeId}, payment_method = ${p.paymentMethod}, updated_at = now()
        where tenant_id = ${p.tenantId}::uuid and id = ${p.orderId}::uuid
        returning id),
      ${paidFollowUpCtes({ order: locked, paidAt, provider: p.provider }, 'paid_order')}
      select 1`);
    return;
  }
  // Every caller holds the order's lock already (lock order: orders first); the update answers the row.
  const order = await repo.updateOrderReturning(tx, p.tenantId, p.orderId, {
    status: 'processing',
    paidAt,
    paymentProvider: p.provider,
    paymentSessionId: p.sessionId,
    chargeId: p.chargeId,
    paymentMethod: p.paymentMethod,
  });
  if (order) await queuePaidFollowUps(deps, tx, { order, paidAt, provider: p.provider });
}

/**
 * What a paid order queues in the payment's transaction: its tickets' issue and mail (FULFIL_JOB),
 * its payout lines (none for an order with no provider: nothing to pay out) and the order.paid
 * event (with its delivery job when an endpoint listens). markPaidInTx calls it after the order
 * turns paid; the box office's sale (issue 23) writes the same CTEs (paidFollowUpCtes) into the
 * statement that writes its order, before its take, so that the take's locks are held for as few
 * statements as possible: nothing of it is seen before the transaction commits, and it all rolls
 * back with a refused sale. One statement (it was four: each job, the event, the endpoints' check).
 */
export async function queuePaidFollowUps(_deps: Deps, tx: DbOrTx, p: PaidFollowUps) {
  await tx.execute(sql`with paid_order as (select 1), ${paidFollowUpCtes(p, 'paid_order')} select 1`);
}

type PaidFollowUps = {
  order: Pick<repo.OrderRow, 'tenantId' | 'id' | 'orderUid' | 'eventId' | 'channel' | 'totalAmount' | 'ticketCount' | 'firstName' | 'lastName' | 'email'>;
  paidAt: Date;
  provider: string;
};

/**
 * queuePaidFollowUps as data-modifying CTEs, written once for each row of the CTE `after` (at most
 * one; none writes nothing): the jobs as jobs.enqueue queues them (due now, 8 attempts, the same
 * dedupe keys, a duplicate key ignored) and the order.paid event as emitDomainEvent records it
 * (domainEventCtes). Put it in a WITH list after `after`.
 */
export function paidFollowUpCtes(p: PaidFollowUps, after: string): SQL {
  const { order } = p;
  const from = sql.raw(after);
  const job = (name: string, dedupeKey: string) =>
    sql`insert into jobs (name, payload, run_at, dedupe_key, max_attempts)
      select ${name}, ${JSON.stringify({ tenantId: order.tenantId, orderId: order.id })}::jsonb, now(), ${dedupeKey}, 8 from ${from}
      on conflict (dedupe_key) do nothing`;
  const payout = p.provider !== 'none' ? sql`, paid_payout_job as (${job(PAYOUT_LINES_JOB, `${PAYOUT_LINES_JOB}:paid:${order.id}`)})` : sql``;
  const event = domainEventCtes(
    {
      id: randomUUID(),
      tenantId: order.tenantId,
      type: 'order.paid',
      data: {
        order: {
          id: order.id,
          uid: order.orderUid,
          eventId: order.eventId,
          channel: order.channel,
          currency: 'usd',
          totalAmount: order.totalAmount,
          ticketCount: order.ticketCount,
          paidAt: p.paidAt.toISOString(),
          buyer: { firstName: order.firstName, lastName: order.lastName, email: order.email },
        },
      },
    },
    after,
    'paid_order',
  );
  return sql`paid_fulfil_job as (${job(FULFIL_JOB, `${FULFIL_JOB}:${order.id}`)})${payout}, ${event}`;
}

/**
 * The payment went through (called by the payments webhook inside its transaction). A draft moves
 * to processing and its tickets are issued by the 'orders.fulfil' job. A draft whose hold already
 * expired is held again if its tickets are still there; otherwise the caller refunds it. An order
 * already paid is left alone.
 */
export async function markOrderPaid(opts: {
  deps: Deps;
  tx: Tx;
  orderId: string;
  provider: string;
  sessionId: string;
  chargeId: string;
  paymentMethod: string;
  /** The order and its event's status as the caller locked and read them (repo.lockOrderWithEventStatus): not read again. */
  locked?: { order: repo.OrderRow; eventStatus: string | null };
}): Promise<{ outcome: 'paid' | 'already' | 'refund' }> {
  const { deps, tx, orderId } = opts;
  const order = opts.locked?.order ?? (await repo.lockOrder(tx, orderId));
  if (!order) throw notFound();
  const paid = { tenantId: order.tenantId, orderId, provider: opts.provider, sessionId: opts.sessionId, chargeId: opts.chargeId, paymentMethod: opts.paymentMethod };
  if (order.status === 'processing' || order.status === 'completed') return { outcome: 'already' };

  const eventStatus = opts.locked ? opts.locked.eventStatus : ((await eventsRepo.findEvent(tx, order.tenantId, order.eventId))?.status ?? null);
  if (order.status === 'draft') {
    if (eventStatus === 'cancelled') {
      await releaseHold(tx, { orderId }, false);
      return { outcome: 'refund' };
    }
    // Issue 27: the seat hold may have run out just before the order's own hold did; its seats are
    // taken again if still free, else the payment goes back (never a seated ticket without its seat).
    if ((await seatsForLatePayment(tx, { tenantId: order.tenantId, eventId: order.eventId, orderId })) === 'lost') {
      await releaseHold(tx, { orderId }, false);
      return { outcome: 'refund' };
    }
    await markPaidInTx(deps, tx, paid, order);
    return { outcome: 'paid' };
  }
  // A replaced draft (the buyer placed a newer order for the same cart) or a cancelled one is never
  // paid: the payment is given back.
  if (order.status !== 'expired' || eventStatus !== 'published') return { outcome: 'refund' };

  // The hold ran out before the payment arrived: take the same tickets again if they are still there.
  const lines = await repo.findLines(tx, order.tenantId, orderId);
  const reheld = await tx
    .transaction(async (sp) => {
      // The seats first (lock order 2b before the ticket types, 3): the same seats, or none.
      if ((await seatsForLatePayment(sp, { tenantId: order.tenantId, eventId: order.eventId, orderId })) === 'lost') throw new Shortage('seats');
      const result = await repo.applyInventory(sp, {
        tenantId: order.tenantId,
        eventId: order.eventId,
        deltas: new Map(lines.map((l) => [l.ticketTypeId, l.quantity])),
        discountUses: order.discountCodeId ? [{ id: order.discountCodeId, op: 'force' }] : [],
        requirePublished: true,
      });
      if (!result.ok) throw new Shortage(result.reason);
      return true;
    })
    .catch((err: unknown) => {
      if (err instanceof Shortage) return false;
      throw err;
    });
  if (!reheld) return { outcome: 'refund' };
  await markPaidInTx(deps, tx, paid, order);
  return { outcome: 'paid' };
}

/** The gateway's checkout lapsed or failed for good: the draft's hold is released now. */
export async function markCheckoutExpired(opts: { deps: Deps; tx: Tx; orderId: string }): Promise<{ outcome: 'expired' | 'unchanged' }> {
  return { outcome: (await releaseHold(opts.tx, { orderId: opts.orderId }, false)) ? 'expired' : 'unchanged' };
}

