import { randomUUID } from 'node:crypto';
import { instantToWallClock, ZCreateOrderRequest, ZPayoutUpdateRequest, ZRefundRequest, zonedDateTimeToInstant, type TCreateOrderRequest } from '@marquee/core';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Deps } from './deps.js';
import { checkinScans, discountCodes, events, orderActions, orders, outbox, payoutLines, payouts, refunds, tenants, tickets, ticketTypes, users } from './db/schema/index.js';
import { SYSTEM_ACTOR } from './platform/audit.js';
import type { AuthUser, TenantCtx } from './platform/auth/context.js';
import { scanTicket } from './modules/checkin/service.js';
import { createOrder } from './modules/checkout/place-order.js';
import { refundOrder } from './modules/order-admin/refund-order.js';
import { updatePaymentSettings } from './modules/payment-settings/service.js';
import { findTestSession } from './modules/payments/repository.js';
import { payTestSession, TEST_CARD_SUCCESS } from './modules/payments/service.js';
import { syncPayoutLines } from './modules/payouts/sync-payout-lines.js';
import { transferPayoutOrders } from './modules/payouts/transfer-payouts.js';

// The demo tenant's sales history (issue 21), so that a newcomer's dashboard, reports and payouts
// are not empty: a past event, "Jazz in the Garden", three weeks ago, sold over the six weeks before
// it through the real PLACE ORDER and the test pay page (the server's pricing, fees, tax, donations
// and discount, tickets and their PDFs), one order refunded in full and one ticket refunded by the
// organiser's refund action, two thirds of the tickets checked in at the door by the check-in
// service, and the orders paid out to the tenant in one completed payout by the operator's transfer.
// The use cases stamp "now"; the history's times are moved back afterwards, every figure staying
// what the use cases made it. Summer Jam, the demo event on sale, is left untouched.

export const DEMO_PAST_EVENT = { name: 'Jazz in the Garden', urlName: 'jazz-in-the-garden', discountCode: 'EARLYBIRD' } as const;

const DAY = 86_400_000;
/** The event was this many days ago; the payout went out this many days after it. */
const EVENT_DAYS_AGO = 21;
const PAYOUT_DAYS_AFTER = 4;

type Buyer = { firstName: string; lastName: string; city: string; state: string; zip: string };
const BUYERS: Buyer[] = [
  { firstName: 'Maya', lastName: 'Chen', city: 'Brooklyn', state: 'NY', zip: '11215' },
  { firstName: 'Jordan', lastName: 'Ellis', city: 'Hoboken', state: 'NJ', zip: '07030' },
  { firstName: 'Priya', lastName: 'Raman', city: 'New York', state: 'NY', zip: '10025' },
  { firstName: 'Luis', lastName: 'Ortega', city: 'Queens', state: 'NY', zip: '11375' },
  { firstName: 'Hannah', lastName: 'Schmidt', city: 'Jersey City', state: 'NJ', zip: '07302' },
  { firstName: 'Theo', lastName: 'Baptiste', city: 'New York', state: 'NY', zip: '10027' },
  { firstName: 'Amara', lastName: 'Okafor', city: 'Bronx', state: 'NY', zip: '10463' },
  { firstName: 'Sam', lastName: 'Whitfield', city: 'Yonkers', state: 'NY', zip: '10701' },
  { firstName: 'Grace', lastName: 'Kim', city: 'Fort Lee', state: 'NJ', zip: '07024' },
  { firstName: 'Daniel', lastName: 'Novak', city: 'New York', state: 'NY', zip: '10031' },
  { firstName: 'Olivia', lastName: 'Grant', city: 'Stamford', state: 'CT', zip: '06901' },
  { firstName: 'Kenji', lastName: 'Watanabe', city: 'Brooklyn', state: 'NY', zip: '11201' },
  { firstName: 'Rosa', lastName: 'Delgado', city: 'New Rochelle', state: 'NY', zip: '10801' },
  { firstName: 'Ben', lastName: 'Abrams', city: 'New York', state: 'NY', zip: '10024' },
];

/** Who bought what, and when (days before the event): early birds with the code, a few donors, a late rush. */
const SALES: Array<{ buyer: number; daysBefore: number; ga: number; vip: number; code?: boolean; donation?: number }> = [
  { buyer: 0, daysBefore: 41, ga: 2, vip: 0, code: true },
  { buyer: 1, daysBefore: 39, ga: 4, vip: 0, code: true, donation: 1000 },
  { buyer: 2, daysBefore: 36, ga: 0, vip: 2, code: true },
  { buyer: 3, daysBefore: 30, ga: 3, vip: 0 },
  { buyer: 4, daysBefore: 26, ga: 2, vip: 0, donation: 500 },
  { buyer: 5, daysBefore: 22, ga: 1, vip: 1 },
  { buyer: 6, daysBefore: 18, ga: 2, vip: 0 },
  { buyer: 7, daysBefore: 15, ga: 0, vip: 2, donation: 2000 },
  { buyer: 8, daysBefore: 12, ga: 3, vip: 0 },
  { buyer: 9, daysBefore: 9, ga: 2, vip: 0 },
  { buyer: 10, daysBefore: 6, ga: 4, vip: 0 },
  { buyer: 11, daysBefore: 4, ga: 1, vip: 0 },
  { buyer: 12, daysBefore: 2, ga: 2, vip: 1, donation: 500 },
  { buyer: 13, daysBefore: 1, ga: 2, vip: 0 },
];
/** The order refunded in full (a buyer who could not come), and the one with one ticket refunded. */
const REFUNDED_IN_FULL = 4;
const ONE_TICKET_REFUNDED = 8;

const emailOf = (b: Buyer) => `${b.firstName}.${b.lastName}@example.com`.toLowerCase();

/**
 * Seeds the history into the demo tenant. Only on the first start (the caller seeds an empty database)
 * and only where nothing leaves the machine: with the test payment driver and no SMTP server, so the
 * made-up buyers are never charged nor mailed.
 */
export async function seedDemoHistory(
  deps: Deps,
  opts: { tenantId: string; organiserId: string; adminId: string; charityId: string | null; now?: Date },
): Promise<{ eventId: string } | null> {
  if (deps.payments.name !== 'test' || deps.config.smtpUrl) return null;
  const { db } = deps;
  const now = opts.now ?? new Date();
  const { tenantId } = opts;
  const [tenant] = await db.select({ id: tenants.id, name: tenants.name, url: tenants.url, status: tenants.status }).from(tenants).where(eq(tenants.id, tenantId));
  const person = async (id: string): Promise<AuthUser> => {
    const [u] = await db.select({ id: users.id, email: users.email, status: users.status, firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, id));
    return u!;
  };
  const organiser: TenantCtx = { user: await person(opts.organiserId), tenantId, tenantRoles: ['tenant_admin'], platformRoles: [], eventRoles: {}, actor: SYSTEM_ACTOR };

  // The event, on sale while it sells (in a week's time), moved to its real date afterwards.
  const timeZone = 'America/New_York';
  const onSaleDay = instantToWallClock(new Date(now.getTime() + 7 * DAY), timeZone).date;
  const eventDay = instantToWallClock(new Date(now.getTime() - EVENT_DAYS_AGO * DAY), timeZone).date;
  const eventStart = zonedDateTimeToInstant(eventDay, '19:00', timeZone)!;
  const eventEnd = zonedDateTimeToInstant(eventDay, '22:30', timeZone)!;
  const eventId = randomUUID();
  const ga = randomUUID();
  const vip = randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(events).values({
      tenantId,
      id: eventId,
      name: DEMO_PAST_EVENT.name,
      urlName: DEMO_PAST_EVENT.urlName,
      status: 'published',
      publishedAt: now,
      description: 'A summer evening of jazz among the flower beds: two trios, a garden bar and the sunset over the river.',
      startDateTime: zonedDateTimeToInstant(onSaleDay, '19:00', timeZone)!,
      endDateTime: zonedDateTimeToInstant(onSaleDay, '22:30', timeZone)!,
      timeZone,
      venueName: 'Conservatory Garden',
      address1: '1233 Fifth Avenue',
      city: 'New York',
      state: 'NY',
      zip: '10029',
      country: 'USA',
      capacity: 300,
      remainingCapacity: 300,
      emailDeliveryVerbiage: 'Your tickets are attached to this e-mail. Show them on your phone at the garden gate.',
      charityId: opts.charityId,
    });
    await tx.insert(ticketTypes).values([
      { tenantId, id: ga, eventId, name: 'Garden Pass', description: 'Entry to the garden and the lawn.', price: 3500, quantity: 250, remaining: 250, sortOrder: 1 },
      { tenantId, id: vip, eventId, name: 'Front Row', description: 'A reserved seat by the stage and a glass of wine.', price: 9000, quantity: 50, remaining: 50, maxPerOrder: 4, sortOrder: 2 },
    ]);
    await tx.insert(discountCodes).values({ tenantId, id: randomUUID(), eventId, code: DEMO_PAST_EVENT.discountCode, kind: 'percent', value: 1500 });
  });

  // Every order through PLACE ORDER and the test pay page, as a buyer would; the webhooks, tickets,
  // PDFs and mails follow from the jobs.
  const site = { tenant: tenant!, user: null };
  const host = `${tenant!.url}.${deps.config.baseDomain}`;
  const placed: Array<{ orderUid: string; email: string; paidAt: Date }> = [];
  for (const [i, sale] of SALES.entries()) {
    const b = BUYERS[sale.buyer]!;
    const lines = [...(sale.ga ? [{ ticketTypeId: ga, quantity: sale.ga }] : []), ...(sale.vip ? [{ ticketTypeId: vip, quantity: sale.vip }] : [])];
    const request: TCreateOrderRequest = {
      order: {
        email: emailOf(b),
        firstName: b.firstName,
        lastName: b.lastName,
        phone: `+1212555${String(140 + i).padStart(4, '0')}`,
        address1: `${100 + i * 7} ${['Maple', 'Hudson', 'Park', 'Bleecker', 'Clinton'][i % 5]} Street`,
        address2: i % 3 === 0 ? `Apt ${i + 2}` : '-',
        city: b.city,
        state: b.state,
        zipCode: b.zip,
        country: 'USA',
        optInEmail: i % 2 === 0,
        discountCode: sale.code ? DEMO_PAST_EVENT.discountCode : null,
        donation: sale.donation ?? 0,
      },
      lines,
    };
    const answer = await createOrder({ deps, site, host, eventId, input: ZCreateOrderRequest.parse(request) });
    const sessionId = new URL(answer.message).pathname.split('/').pop()!;
    const session = await findTestSession(db, tenantId, sessionId);
    const paid = await payTestSession({ deps, session: session!, card: { number: TEST_CARD_SUCCESS, expiry: '12/34', cvc: '123' } });
    if (paid.kind !== 'paid') throw new Error(`demo order ${answer.orderUID} was not paid: ${paid.kind}`);
    const paidAt = new Date(eventStart.getTime() - sale.daysBefore * DAY - ((i * 7919) % 600) * 60_000);
    placed.push({ orderUid: answer.orderUID, email: emailOf(b), paidAt });
  }
  await deps.jobs.drain(200);

  const orderRows = await db.select({ id: orders.id, orderUid: orders.orderUid, status: orders.status }).from(orders).where(and(eq(orders.tenantId, tenantId), eq(orders.eventId, eventId)));
  const idOf = new Map(orderRows.map((o) => [o.orderUid, o.id]));
  if (orderRows.length !== SALES.length || orderRows.some((o) => o.status === 'draft')) throw new Error('the demo orders were not all paid');

  // The organiser's refunds: one order in full, one ticket of another.
  const refundTimes = new Map<string, Date>();
  const full = placed[REFUNDED_IN_FULL]!;
  await refundOrder({ deps, ctx: organiser, eventId, orderUid: full.orderUid, input: ZRefundRequest.parse({ mode: 'full', reason: 'The buyer can no longer come.' }) });
  refundTimes.set(idOf.get(full.orderUid)!, new Date(full.paidAt.getTime() + 9 * DAY));
  const partial = placed[ONE_TICKET_REFUNDED]!;
  const [oneTicket] = await db.select({ id: tickets.id }).from(tickets).where(and(eq(tickets.tenantId, tenantId), eq(tickets.orderId, idOf.get(partial.orderUid)!))).orderBy(tickets.ticketUid).limit(1);
  await refundOrder({ deps, ctx: organiser, eventId, orderUid: partial.orderUid, input: ZRefundRequest.parse({ mode: 'tickets', ticketIds: [oneTicket!.id], reason: 'One guest of the party fell ill.' }) });
  refundTimes.set(idOf.get(partial.orderUid)!, new Date(partial.paidAt.getTime() + 5 * DAY));
  await deps.jobs.drain(50);

  // The door: two thirds of the valid tickets, scanned by the organiser at the garden gate.
  const valid = await db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.eventId, eventId), eq(tickets.voided, false)))
    .orderBy(tickets.ticketUid);
  const admitted = valid.filter((_, i) => i % 3 !== 2);
  for (const t of admitted) {
    await scanTicket({ deps, ctx: organiser, eventId, input: { clientScanId: randomUUID(), deviceId: 'Garden gate · 7c2e', ticketId: t.id } });
  }

  // Now the clock: the event three weeks ago, each order on its day, refunds and scans after them.
  await db.transaction(async (tx) => {
    await tx.update(events).set({ startDateTime: eventStart, endDateTime: eventEnd, publishedAt: new Date(eventStart.getTime() - 45 * DAY), createdAt: new Date(eventStart.getTime() - 46 * DAY) }).where(and(eq(events.tenantId, tenantId), eq(events.id, eventId)));
    for (const p of placed) {
      const orderId = idOf.get(p.orderUid)!;
      const at = p.paidAt;
      const placedAt = new Date(at.getTime() - 3 * 60_000);
      await tx.update(orders).set({ createdAt: placedAt, paidAt: at, updatedAt: refundTimes.get(orderId) ?? at, holdExpiresAt: new Date(placedAt.getTime() + 15 * 60_000) }).where(and(eq(orders.tenantId, tenantId), eq(orders.id, orderId)));
      await tx.update(tickets).set({ createdAt: at }).where(and(eq(tickets.tenantId, tenantId), eq(tickets.orderId, orderId)));
      await tx.update(outbox).set({ createdAt: new Date(at.getTime() + 60_000) }).where(eq(outbox.to, p.email));
      const refundedAt = refundTimes.get(orderId);
      if (refundedAt) {
        await tx.update(refunds).set({ createdAt: refundedAt, updatedAt: refundedAt }).where(and(eq(refunds.tenantId, tenantId), eq(refunds.orderId, orderId)));
        await tx.update(orderActions).set({ createdAt: refundedAt }).where(and(eq(orderActions.tenantId, tenantId), eq(orderActions.orderId, orderId)));
        await tx.update(tickets).set({ voidedAt: refundedAt }).where(and(eq(tickets.tenantId, tenantId), eq(tickets.orderId, orderId), eq(tickets.voided, true)));
      }
    }
    // Scans through the first ninety minutes of the evening, in the order they were made.
    const scans = await tx.select({ id: checkinScans.id, ticketId: checkinScans.ticketId }).from(checkinScans).where(and(eq(checkinScans.tenantId, tenantId), eq(checkinScans.eventId, eventId))).orderBy(checkinScans.recordedAt);
    for (const [i, s] of scans.entries()) {
      const at = new Date(eventStart.getTime() - 30 * 60_000 + Math.round((i * 120 * 60_000) / Math.max(1, scans.length)));
      await tx.update(checkinScans).set({ scannedAt: at, recordedAt: at }).where(and(eq(checkinScans.tenantId, tenantId), eq(checkinScans.id, s.id)));
      if (s.ticketId) await tx.update(tickets).set({ usedAt: at }).where(and(eq(tickets.tenantId, tenantId), eq(tickets.id, s.ticketId)));
    }
  });

  // The payout: the tenant's connected (test) account, its lines as the gateway settled them, and
  // the operator's transfer of every order, the refunds carried in; dated after the event.
  await updatePaymentSettings({ deps, input: ZPayoutUpdateRequest.parse({ tenantId, payment: { type: 'platform', id: 'acct_demo_acme' } }) });
  // The payout job may already have written lines from the orders' first (today's) payment times:
  // they are written again from the times the orders now have, as the gateway's settlement would.
  await db.delete(payoutLines).where(and(eq(payoutLines.tenantId, tenantId), eq(payoutLines.eventId, eventId), isNull(payoutLines.payoutId)));
  await syncPayoutLines({ deps });
  const transfer = await transferPayoutOrders({ deps, user: await person(opts.adminId), orderUIDs: placed.map((p) => p.orderUid) });
  if (!transfer.success) throw new Error(`the demo payout failed: ${transfer.message}`);
  const paidOutAt = new Date(eventStart.getTime() + PAYOUT_DAYS_AFTER * DAY);
  const payoutIds = transfer.completedOrderPayouts.map((c) => c.payoutId);
  await db.transaction(async (tx) => {
    await tx.update(payouts).set({ createdAt: paidOutAt, completedAt: paidOutAt }).where(and(eq(payouts.tenantId, tenantId), inArray(payouts.id, payoutIds)));
    await tx.update(payoutLines).set({ payoutCompletedAt: paidOutAt }).where(and(eq(payoutLines.tenantId, tenantId), inArray(payoutLines.payoutId, payoutIds)));
    await tx.execute(sql`update ${payoutLines} l set created_at = o.paid_at
      from ${orders} o where l.tenant_id = ${tenantId}::uuid and l.event_id = ${eventId}::uuid and o.tenant_id = l.tenant_id and o.id = l.order_id`);
    await tx.execute(sql`update ${payoutLines} l set created_at = r.updated_at
      from ${refunds} r where l.tenant_id = ${tenantId}::uuid and l.refund_id = r.id and r.tenant_id = l.tenant_id`);
  });
  return { eventId };
}
