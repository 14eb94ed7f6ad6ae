import { randomUUID } from 'node:crypto';
import { M, type TOrderDetail } from '@marquee/core';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, jobs, orderActions, orders, outbox, refunds, tenants, testRefunds, tickets, ticketTypes } from '../../db/schema/index.js';
import { givenHeldOrder, givenTenant, givenTenantWithAdmin, startTenantServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { eventActorStatuses, givenEventActors, type EventActors } from '../../../test/actors.js';
import { refundPayment } from '../payments/service.js';
import { CANCEL_ORDER_REFUND_JOB } from './cancel-jobs.js';
import { mailCancelledOrder } from './mail-cancelled-order.js';
import { refundCancelledOrder } from './refund-cancelled-order.js';
import { sweepCancelledEvent } from './sweep-cancelled-event.js';
import { givenPaidOrder as givenPaid, type PaidOrder } from '../../../test/fixtures/paid-orders.js';

let server: TestServer, tenant: GivenTenant, admin: Client;
beforeAll(async () => {
  ({ server, tenant, admin } = await startTenantServer());
});
afterAll(() => server.close());

const db = () => server.app.deps.db;
const orderRow = async (id: string) => (await db().select().from(orders).where(eq(orders.id, id)))[0]!;
const remainingOf = async (id: string) => (await db().select({ r: ticketTypes.remaining }).from(ticketTypes).where(eq(ticketTypes.id, id)))[0]!.r;
const refundRows = (orderId: string) => db().select().from(refunds).where(eq(refunds.orderId, orderId));

type Paid = PaidOrder;

/** A completed order paid through the test gateway ($100 of tickets; the platform keeps $9.57), with its tickets. */
const givenPaidOrder = (opts: Parameters<typeof givenHeldOrder>[2] & { platformTotal?: number } = {}) => givenPaid(server, tenant.id, opts);

const orderUrl = (o: { eventId: string; orderUid: string }, tenantId = tenant.id) => `/api/tenants/${tenantId}/events/${o.eventId}/orders/${o.orderUid}`;
const voidUrl = (eventId: string, tenantId = tenant.id) => `/api/tenants/${tenantId}/events/${eventId}/tickets/void`;
const refundUrl = (o: { eventId: string; orderUid: string }, tenantId = tenant.id) => `${orderUrl(o, tenantId)}/refunds`;

describe('GET …/events/:eventId/orders/:orderUID', () => {
  it('answers the order with its breakdown, tickets, refunds, payout state and audit trail', async () => {
    const o = await givenPaidOrder();
    const res = await admin.get<TOrderDetail>(orderUrl(o));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: o.orderId,
      details: {
        orderUID: o.orderUid,
        fullName: 'Ada Lovelace',
        email: o.email,
        status: 'completed',
        ticketCount: 3,
        subtotal: 10000,
        totalAmount: 10000,
        grossAmount: 10000,
        platformTotal: 957,
        tenantTotal: 9043,
        refunded: false,
        refundedAmount: 0,
        refundableAmount: 10000,
        paymentMethod: 'card',
        chargeId: o.chargeId,
        payoutState: 'Payout Pending',
        tenantId: tenant.id,
        eventId: o.eventId,
      },
      refunds: [],
      actions: [],
    });
    expect(res.body.details.eventName).toMatch(/^Concert /);
    expect(res.body.tickets).toHaveLength(3);
    expect(res.body.tickets[0]!.details).toMatchObject({ voided: false, used: false, orderId: o.orderId, voidReason: null, refundId: null });
  });

  it('says Refunded or Partially refunded and splits the money at the sale and after the refunds, each side adding up (issue 21.10)', async () => {
    const o = await givenPaidOrder();
    // As priced: $100.00 paid with a $5.00 donation ($0.20 fee): organiser $82.23, platform $9.57, card $3.40, charity $4.80.
    await db()
      .update(orders)
      .set({ donation: 500, donationFee: 20, charityName: 'Harbour Fund', gatewayProcessingFee: 340, tenantTotal: 8223, platformTotal: 957, breakdown: JSON.stringify({ donationFee: 20, donationNet: 480, channelCharge: 0 }) })
      .where(eq(orders.id, o.orderId));
    const fresh = await admin.get<TOrderDetail>(orderUrl(o));
    expect(fresh.body.details.refundState).toBe('none');
    expect(fresh.body.details.split).toEqual({
      organiser: 8223, platform: 957, cardFee: 340, charity: 480, refunded: 0, organiserRefunded: 0, platformRefunded: 0, organiserAfterRefunds: 8223, platformAfterRefunds: 957,
    });
    expect(fresh.body.cancellationRefund).toBeNull();

    expect((await admin.post(refundUrl(o), { mode: 'amount', amount: 2500, reason: 'partial' })).status).toBe(201);
    const partial = (await admin.get<TOrderDetail>(orderUrl(o))).body.details;
    expect(partial.refundState).toBe('partial');
    expect((await admin.post(refundUrl(o), { mode: 'full', reason: 'the rest' })).status).toBe(201);
    const full = (await admin.get<TOrderDetail>(orderUrl(o))).body.details;
    expect(full.refundState).toBe('full');
    for (const d of [partial, full]) {
      const x = d.split;
      expect(x.organiser + x.platform + x.cardFee + x.charity).toBe(d.totalAmount);
      expect(x.organiserAfterRefunds + x.platformAfterRefunds + x.cardFee + x.charity + x.refunded).toBe(d.totalAmount);
      expect(x.refunded).toBe(d.refundedAmount);
    }
    // A full refund gives back the platform's whole share; the organiser bears the card fee and the charity's part.
    expect(full.split).toMatchObject({ refunded: 10000, platformRefunded: 957, platformAfterRefunds: 0, organiserAfterRefunds: -(340 + 480) });
  });

  it("is 404 for an unknown order, another event's order, a malformed event id and another tenant", async () => {
    const o = await givenPaidOrder();
    const other = await givenPaidOrder();
    expect((await admin.get(orderUrl({ eventId: o.eventId, orderUid: 'NOPE' }))).status).toBe(404);
    expect((await admin.get(orderUrl({ eventId: other.eventId, orderUid: o.orderUid }))).status).toBe(404);
    expect((await admin.get(orderUrl({ eventId: 'not-a-uuid', orderUid: o.orderUid }))).status).toBe(404);
    const { tenant: elsewhere, admin: home } = await givenTenantWithAdmin(server);
    expect((await home.get(orderUrl(o))).status).toBe(404);
    expect((await home.get(orderUrl(o, elsewhere.id))).status).toBe(404);
  });
});

describe('POST …/tickets/void', () => {
  it('voids with a reason (seat back on sale, who/when/why kept), repeats harmlessly, and unvoids', async () => {
    const o = await givenPaidOrder();
    const ticketId = o.ticketIds[0]!;
    const [t] = await db().select().from(tickets).where(eq(tickets.id, ticketId));
    const before = await remainingOf(t!.ticketTypeId);

    const res = await admin.post(voidUrl(o.eventId), { ticketId, orderUID: o.orderUid, void: true, reason: 'Lost ticket' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: M.ticketVoided, ticket: { id: ticketId, details: { voided: true, voidReason: 'Lost ticket' } } });
    expect(res.body.ticket.details.voidedBy).toMatch(/@/);
    expect(await remainingOf(t!.ticketTypeId)).toBe(before + 1);

    const again = await admin.post(voidUrl(o.eventId), { ticketId, orderUID: o.orderUid, void: true, reason: 'double click' });
    expect(again.status).toBe(200);
    expect(await remainingOf(t!.ticketTypeId)).toBe(before + 1);

    const back = await admin.post(voidUrl(o.eventId), { ticketId, orderUID: o.orderUid, void: false, reason: 'Found it' });
    expect(back.body).toMatchObject({ message: M.ticketUnvoided, ticket: { details: { voided: false, voidReason: 'Found it' } } });
    expect(await remainingOf(t!.ticketTypeId)).toBe(before);

    const detail = await admin.get<TOrderDetail>(orderUrl(o));
    expect(detail.body.actions.map((a) => [a.action, a.reason, a.ticketId])).toEqual([
      ['unvoid', 'Found it', ticketId],
      ['void', 'Lost ticket', ticketId],
    ]);
    expect(detail.body.actions[0]!.userEmail).toMatch(/@/);
  });

  it('voids by the Ticket ID printed on the ticket, as the Ticket List shows it; an unknown one is a 404', async () => {
    const o = await givenPaidOrder();
    const [t] = await db().select().from(tickets).where(eq(tickets.id, o.ticketIds[0]!));
    const res = await admin.post(voidUrl(o.eventId), { ticketId: t!.ticketUid, orderUID: o.orderUid, void: true, reason: 'Duplicate' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ticket: { id: t!.id, details: { voided: true, voidReason: 'Duplicate' } } });
    const unknown = await admin.post(voidUrl(o.eventId), { ticketId: 'NOSUCHTICKETCODE', orderUID: o.orderUid, void: true, reason: 'Duplicate' });
    expect(unknown.status).toBe(404);
  });

  it('refuses to unvoid when the ticket type is sold out', async () => {
    const o = await givenPaidOrder({ lines: [{ name: 'GA', price: 2000, quantity: 2, left: 0 }] });
    const ticketId = o.ticketIds[0]!;
    expect((await admin.post(voidUrl(o.eventId), { ticketId, orderUID: o.orderUid, void: true, reason: 'x' })).status).toBe(200);
    // Someone bought the seat the void gave back.
    await db().update(ticketTypes).set({ remaining: 0 }).where(eq(ticketTypes.id, o.ticketTypeIds[0]!));
    const res = await admin.post(voidUrl(o.eventId), { ticketId, orderUID: o.orderUid, void: false, reason: 'y' });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(M.unvoidSoldOut);
    expect((await db().select().from(tickets).where(eq(tickets.id, ticketId)))[0]!.voided).toBe(true);
  });

  it("answers the spec's messages for bad input, 404 for tickets that are not the order's", async () => {
    const o = await givenPaidOrder();
    const other = await givenPaidOrder({ eventId: o.eventId });
    const bad = async (body: unknown, message: string) => {
      const res = await admin.post(voidUrl(o.eventId), body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(message);
    };
    await bad({ orderUID: o.orderUid, void: true, reason: 'x' }, M.voidIdsMissing);
    await bad({ ticketId: o.ticketIds[0], orderUID: '', void: true, reason: 'x' }, M.voidIdsMissing);
    await bad({ ticketId: o.ticketIds[0], orderUID: o.orderUid, void: true, reason: '  ' }, M.reasonRequired);
    await bad({ ticketId: o.ticketIds[0], orderUID: o.orderUid, void: true }, M.reasonRequired);
    expect((await admin.post(voidUrl(o.eventId), { ticketId: other.ticketIds[0], orderUID: o.orderUid, void: true, reason: 'x' })).status).toBe(404);
    expect((await admin.post(voidUrl(o.eventId), { ticketId: 'nope', orderUID: o.orderUid, void: true, reason: 'x' })).status).toBe(404);
    expect((await admin.post(voidUrl(randomUUID()), { ticketId: o.ticketIds[0], orderUID: o.orderUid, void: true, reason: 'x' })).status).toBe(404);
  });
});

describe('refunds', () => {
  it('a partial amount, then chosen tickets, then the rest: rows, split, order totals, voids and seats follow', async () => {
    const o = await givenPaidOrder();
    const partial = await admin.post(refundUrl(o), { mode: 'amount', amount: 5000, reason: 'Goodwill' });
    expect(partial.status).toBe(201);
    expect(partial.body.message).toBe(M.refundSubmitted);
    // The test gateway settles at once.
    expect(partial.body.refund.details).toMatchObject({ status: 'succeeded', refundAmount: 5000, kind: 'organiser', refundReason: 'Goodwill', ticketIds: [] });
    expect(partial.body.refund.details.platformAmount + partial.body.refund.details.tenantAmount).toBe(5000);
    expect(partial.body.refund.details.platformAmount).toBe(479); // round(957 x 5000 / 10000)
    expect(partial.body.order.details).toMatchObject({ refunded: true, refundedAmount: 5000, refundableAmount: 5000 });
    const given = await db().select().from(testRefunds).where(eq(testRefunds.chargeId, o.chargeId));
    expect(given).toEqual([expect.objectContaining({ amount: 5000, idempotencyKey: `refund:${partial.body.refund.id}` })]);

    // One $25 ticket: its share of what was paid (no fees here: $25), voided and back on sale.
    const [ga] = (await db().select().from(tickets).where(eq(tickets.orderId, o.orderId))).filter((t) => t.price === 2500);
    const before = await remainingOf(ga!.ticketTypeId);
    const byTicket = await admin.post(refundUrl(o), { mode: 'tickets', ticketIds: [ga!.id], reason: 'Cannot come' });
    expect(byTicket.status).toBe(201);
    expect(byTicket.body.refund.details).toMatchObject({ refundAmount: 2500, ticketIds: [ga!.id], status: 'succeeded' });
    expect(byTicket.body.order.tickets.find((t: { id: string }) => t.id === ga!.id).details).toMatchObject({ voided: true, voidReason: 'Cannot come', refundId: byTicket.body.refund.id });
    expect(await remainingOf(ga!.ticketTypeId)).toBe(before + 1);
    // A refunded ticket stays voided.
    const unvoid = await admin.post(voidUrl(o.eventId), { ticketId: ga!.id, orderUID: o.orderUid, void: false, reason: 'oops' });
    expect(unvoid.status).toBe(409);
    expect(unvoid.body.error.message).toBe(M.ticketAlreadyRefunded);

    const full = await admin.post(refundUrl(o), { mode: 'full', reason: 'Event moved' });
    expect(full.status).toBe(201);
    expect(full.body.refund.details.refundAmount).toBe(2500);
    expect(full.body.order.details).toMatchObject({ refunded: true, refundedAmount: 10000, refundableAmount: 0 });
    expect(full.body.order.tickets.every((t: { details: { voided: boolean } }) => t.details.voided)).toBe(true);

    const rows = await refundRows(o.orderId);
    expect(rows.reduce((s, r) => s + r.platformAmount, 0)).toBe(957);
    expect(rows.reduce((s, r) => s + r.amount, 0)).toBe(10000);
    expect(await orderRow(o.orderId)).toMatchObject({ refunded: true, refundedAmount: 10000, status: 'completed' });

    const more = await admin.post(refundUrl(o), { mode: 'amount', amount: 1, reason: 'again' });
    expect(more.status).toBe(409);
    expect(more.body.error.message).toBe(M.refundNothingLeft);
    const actions = (await admin.get<TOrderDetail>(orderUrl(o))).body.actions.filter((a) => a.action === 'refund');
    expect(actions.map((a) => a.reason)).toEqual(['Event moved', 'Cannot come', 'Goodwill']);
  });

  it('refuses more than is left, free and unpaid orders, bad bodies, and tickets of another order', async () => {
    const o = await givenPaidOrder();
    const over = await admin.post(refundUrl(o), { mode: 'amount', amount: 10001, reason: 'x' });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ message: M.refundExceedsPaid, fields: { amount: M.refundExceedsPaid } });

    const free = await givenHeldOrder(server, tenant.id, { status: 'completed', lines: [{ name: 'Free', price: 0, quantity: 1 }] });
    await db().update(orders).set({ paymentMethod: 'free' }).where(eq(orders.id, free.orderId));
    const freeRes = await admin.post(refundUrl(free), { mode: 'full', reason: 'x' });
    expect(freeRes.status).toBe(409);
    expect(freeRes.body.error.message).toBe(M.refundFreeOrder);

    const draft = await givenHeldOrder(server, tenant.id);
    const draftRes = await admin.post(refundUrl(draft), { mode: 'full', reason: 'x' });
    expect(draftRes.status).toBe(409);
    expect(draftRes.body.error.message).toBe(M.refundNotPaid);

    for (const [body, message] of [
      [{ mode: 'full' }, M.reasonRequired],
      [{ mode: 'amount', reason: 'x' }, M.refundAmountInvalid],
      [{ mode: 'amount', amount: 12.5, reason: 'x' }, M.refundAmountInvalid],
      [{ mode: 'amount', amount: '10', reason: 'x' }, M.refundAmountInvalid],
      [{ mode: 'tickets', reason: 'x' }, M.refundModeRequired],
      [{ mode: 'tickets', ticketIds: ['x'], reason: 'x' }, M.ticketNotInOrder],
      [{ reason: 'x' }, M.refundModeRequired],
    ] as const) {
      const res = await admin.post(refundUrl(o), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    const other = await givenPaidOrder({ eventId: o.eventId });
    const foreign = await admin.post(refundUrl(o), { mode: 'tickets', ticketIds: [other.ticketIds[0]], reason: 'x' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toBe(M.ticketNotInOrder);
    expect(await refundRows(o.orderId)).toHaveLength(0);
    expect((await admin.post(refundUrl({ eventId: o.eventId, orderUid: 'NOPE' }), { mode: 'full', reason: 'x' })).status).toBe(404);
  });

  it('never gives back more than was paid, however many refunds arrive at once', async () => {
    const o = await givenPaidOrder();
    const results = await Promise.all(Array.from({ length: 6 }, () => admin.post(refundUrl(o), { mode: 'amount', amount: 3000, reason: 'race' })));
    const ok = results.filter((r) => r.status === 201);
    expect(ok).toHaveLength(3);
    expect(results.filter((r) => r.status === 400).every((r) => r.body.error.message === M.refundExceedsPaid)).toBe(true);
    const rows = await refundRows(o.orderId);
    expect(rows.reduce((s, r) => s + r.amount, 0)).toBe(9000);
    const given = await db().select().from(testRefunds).where(eq(testRefunds.chargeId, o.chargeId));
    expect(given.reduce((s, r) => s + r.amount, 0)).toBe(9000);
    expect((await orderRow(o.orderId)).refundedAmount).toBe(9000);

    const fulls = await Promise.all([1, 2, 3].map(() => admin.post(refundUrl(o), { mode: 'full', reason: 'race' })));
    expect(fulls.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect((await orderRow(o.orderId)).refundedAmount).toBe(10000);
  });

  it('a refund the gateway refuses is failed, shown, and does not count against what is left', async () => {
    const o = await givenPaidOrder();
    // The charge was refunded at the gateway behind our back: the gateway refuses.
    await db().insert(testRefunds).values({ id: `re_test_${randomUUID()}`, chargeId: o.chargeId, amount: 10000, idempotencyKey: `outside:${o.orderId}` });
    const res = await admin.post(refundUrl(o), { mode: 'amount', amount: 1000, reason: 'x' });
    expect(res.status).toBe(201);
    expect(res.body.refund.details).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/greater than/) });
    expect(res.body.order.details).toMatchObject({ refunded: false, refundedAmount: 0, refundableAmount: 10000 });
  });
});

describe('a fully refunded order admits no one (issue 21 §4)', () => {
  const unvoid = (o: Paid, ticketId: string) => admin.post(voidUrl(o.eventId), { ticketId, orderUID: o.orderUid, void: false, reason: 'Found it' });
  const voidedOf = async (o: Paid) => new Map((await db().select().from(tickets).where(eq(tickets.orderId, o.orderId))).map((t) => [t.id, t.voided]));

  it("void A, then the whole amount against ticket B: refused; after a full refund, A cannot be unvoided", async () => {
    const o = await givenPaidOrder();
    const [a, b] = o.ticketIds as [string, string];
    expect((await admin.post(voidUrl(o.eventId), { ticketId: a, orderUID: o.orderUid, void: true, reason: 'Lost' })).status).toBe(200);

    const whole = await admin.post(refundUrl(o), { mode: 'tickets', ticketIds: [b], amount: o.totalAmount, reason: 'All of it' });
    expect(whole.status).toBe(400);
    expect(whole.body.error).toMatchObject({ code: 'VALIDATION', message: M.refundExceedsTickets, fields: { amount: M.refundExceedsTickets } });
    expect(await refundRows(o.orderId)).toHaveLength(0);
    expect((await voidedOf(o)).get(b)).toBe(false);

    const full = await admin.post(refundUrl(o), { mode: 'full', reason: 'Refund all' });
    expect(full.status).toBe(201);
    expect(full.body.order.details.refundableAmount).toBe(0);
    const res = await unvoid(o, a);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(M.unvoidOrderRefunded);
    expect((await voidedOf(o)).get(a)).toBe(true);
    expect([...(await voidedOf(o)).values()].every(Boolean)).toBe(true);
  });

  it("chosen tickets refund at most their share; less is fine, and a ticket refund that empties the order voids the rest", async () => {
    const o = await givenPaidOrder();
    const rows = await db().select().from(tickets).where(eq(tickets.orderId, o.orderId));
    const cheap = rows.find((t) => t.price === 2500)!;
    const over = await admin.post(refundUrl(o), { mode: 'tickets', ticketIds: [cheap.id], amount: 2501, reason: 'x' });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toBe(M.refundExceedsTickets);
    const less = await admin.post(refundUrl(o), { mode: 'tickets', ticketIds: [cheap.id], amount: 1000, reason: 'Half back' });
    expect(less.status).toBe(201);
    expect(less.body.refund.details).toMatchObject({ refundAmount: 1000, ticketIds: [cheap.id] });
    expect((await voidedOf(o)).get(cheap.id)).toBe(true);
    // 9,000 left: an amount for all of it is a full refund, so the two other tickets are voided with it.
    const rest = await admin.post(refundUrl(o), { mode: 'amount', amount: 9000, reason: 'The rest' });
    expect(rest.status).toBe(201);
    expect([...rest.body.refund.details.ticketIds].sort()).toEqual(rows.filter((t) => t.id !== cheap.id).map((t) => t.id).sort());
    expect(rest.body.order.tickets.every((t: { details: { voided: boolean } }) => t.details.voided)).toBe(true);
    for (const t of rows) expect((await unvoid(o, t.id)).status).toBe(409);
  });

  it('an amount that leaves money on the order leaves its tickets valid, and a voided one can still be restored', async () => {
    const o = await givenPaidOrder();
    const [a] = o.ticketIds as [string];
    expect((await admin.post(voidUrl(o.eventId), { ticketId: a, orderUID: o.orderUid, void: true, reason: 'Lost' })).status).toBe(200);
    const part = await admin.post(refundUrl(o), { mode: 'amount', amount: 9999, reason: 'Most of it' });
    expect(part.status).toBe(201);
    expect(part.body.refund.details.ticketIds).toEqual([]);
    expect((await unvoid(o, a)).status).toBe(200);
  });
});

describe('refund jobs queued before refunds were rows', () => {
  it('an old-style payments.refund payload becomes a row and refunds the charge once', async () => {
    const o = await givenPaidOrder();
    await db().update(orders).set({ status: 'cancelled' }).where(eq(orders.id, o.orderId));
    const legacy = { tenantId: tenant.id, orderId: o.orderId, provider: 'test', chargeId: o.chargeId, amount: 10000, reason: 'hold_expired' };
    await server.app.deps.jobs.enqueue(db(), 'payments.refund', legacy, { dedupeKey: `refund:test:${o.chargeId}` });
    await server.app.deps.jobs.drain();
    await refundPayment({ deps: server.app.deps, job: legacy as never });
    expect(await refundRows(o.orderId)).toEqual([expect.objectContaining({ kind: 'hold_expired', status: 'succeeded', amount: 10000, platformAmount: 957 })]);
    const given = await db().select().from(testRefunds).where(eq(testRefunds.chargeId, o.chargeId));
    expect(given).toEqual([expect.objectContaining({ amount: 10000, idempotencyKey: `refund:${o.orderId}:${o.chargeId}` })]);
    expect(await orderRow(o.orderId)).toMatchObject({ refunded: true, refundedAmount: 10000 });
  });
});

describe('who may', () => {
  let actors: EventActors;
  let o: Paid;
  beforeAll(async () => {
    o = await givenPaidOrder();
    const otherEvent = await givenPaidOrder();
    actors = await givenEventActors(server, tenant, o.eventId, otherEvent.eventId);
  });

  const statuses = (call: (c: Client) => Promise<{ status: number }>) => eventActorStatuses(actors, call);

  it('view: tenant admin and staff, the event manager, every platform role', async () => {
    expect(await statuses((c) => c.get(orderUrl(o)))).toEqual({
      admin: 200,
      staff: 200,
      eventManager: 200,
      checkin: 403,
      otherEventManager: 403,
      platformManager: 200,
      platformReport: 200,
      outsider: 404,
      outsiderHome: 404,
      anonymous: 401,
    });
  });

  it('void: tenant admin and staff, the event manager, platform write roles', async () => {
    let n = 0;
    const result = await statuses((c) => c.post(voidUrl(o.eventId), { ticketId: o.ticketIds[0], orderUID: o.orderUid, void: n++ % 2 === 0, reason: 'role check' }));
    expect(result).toEqual({
      admin: 200,
      staff: 200,
      eventManager: 200,
      checkin: 403,
      otherEventManager: 403,
      platformManager: 200,
      platformReport: 404,
      outsider: 404,
      outsiderHome: 404,
      anonymous: 401,
    });
  });

  it('refund: tenant admin and platform write roles only', async () => {
    expect(await statuses((c) => c.post(refundUrl(o), { mode: 'amount', amount: 100, reason: 'role check' }))).toEqual({
      admin: 201,
      staff: 403,
      eventManager: 403,
      checkin: 403,
      otherEventManager: 403,
      platformManager: 201,
      platformReport: 404,
      outsider: 404,
      outsiderHome: 404,
      anonymous: 401,
    });
  });

  it('resend and download: the event manager too', async () => {
    const res = await actors.eventManager.post(`/api/tenants/${tenant.id}/events/${o.eventId}/download`, { orderUID: o.orderUid, email: o.email });
    expect(res.status).toBe(200);
    // To the buyer, yes; to another address only with a role that can refund (issue 21 §3).
    const elsewhere = await actors.eventManager.post(`/api/tenants/${tenant.id}/events/${o.eventId}/resend`, { orderUID: o.orderUid, email: 'friend@example.test' });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.error.message).toBe(M.resendElsewhereNotAllowed);
    const resent = await actors.eventManager.post(`/api/tenants/${tenant.id}/events/${o.eventId}/resend`, { orderUID: o.orderUid, email: o.email });
    expect(resent.status).toBe(200);
    const audit = await db().select().from(orderActions).where(eq(orderActions.orderId, o.orderId));
    expect(audit.filter((a) => a.action === 'download')).toHaveLength(1);
    expect(audit.filter((a) => a.action === 'resend').map((a) => JSON.parse(a.details!))).toEqual([{ to: o.email }]);
  });
});

describe('cancelling an event', () => {
  it('refunds every paid order once through the job queue, resumes after a crash, and reports progress', async () => {
    const first = await givenPaidOrder();
    const eventId = first.eventId;
    const paid = [first, await givenPaidOrder({ eventId }), await givenPaidOrder({ eventId })];
    const partlyRefunded = await givenPaidOrder({ eventId });
    expect((await admin.post(refundUrl(partlyRefunded), { mode: 'amount', amount: 4000, reason: 'earlier' })).status).toBe(201);
    const free = await givenHeldOrder(server, tenant.id, { eventId, status: 'completed', lines: [{ name: 'Comp', price: 0, quantity: 1 }] });
    await db().update(orders).set({ paymentMethod: 'free' }).where(eq(orders.id, free.orderId));

    const cancel = await admin.post(`/api/tenants/${tenant.id}/events/${eventId}/cancel`);
    expect(cancel.status).toBe(200);
    // What is left to refund (3 x $100 + the $60 still held), never what was paid (issue 21.9).
    expect(cancel.body.cancellation).toMatchObject({ status: 'running', total: 4, refunded: 0, failed: 0, retrying: 0, pending: 4, toRefund: 36000, refundedAmount: 0, refundedElsewhere: 4000 });

    // A crash: the gateway gives the money back, but the process dies before it records the answer.
    const gateway = server.app.deps.payments;
    const realRefund = gateway.refund.bind(gateway);
    gateway.refund = async (input) => {
      await realRefund(input);
      throw new Error('process killed');
    };
    try {
      await server.app.deps.jobs.drain();
    } finally {
      gateway.refund = realRefund;
    }
    const midway = await admin.get(`/api/tenants/${tenant.id}/events/${eventId}/cancellation`);
    expect(midway.body).toMatchObject({ status: 'running', total: 4, refunded: 0, failed: 0, pending: 4 });

    // After the restart the sweep and every order's job run again, and the retries come due.
    await sweepCancelledEvent({ deps: server.app.deps, job: { tenantId: tenant.id, eventId, userId: null } });
    await refundCancelledOrder({ deps: server.app.deps, job: { tenantId: tenant.id, orderId: paid[0]!.orderId, userId: null } });
    await db().update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(and(isNull(jobs.doneAt), isNull(jobs.failedAt)));
    await server.app.deps.jobs.drain();
    for (const o of [...paid, partlyRefunded]) await refundCancelledOrder({ deps: server.app.deps, job: { tenantId: tenant.id, orderId: o.orderId, userId: null } });

    const done = await admin.get(`/api/tenants/${tenant.id}/events/${eventId}`);
    expect(done.body.cancellation).toMatchObject({ status: 'done', total: 4, refunded: 4, failed: 0, retrying: 0, pending: 0, toRefund: 36000, refundedAmount: 36000, refundedElsewhere: 4000, problems: [] });
    for (const o of [...paid, partlyRefunded]) {
      const given = await db().select().from(testRefunds).where(eq(testRefunds.chargeId, o.chargeId));
      expect(given.reduce((s, r) => s + r.amount, 0)).toBe(10000);
      expect(await orderRow(o.orderId)).toMatchObject({ refunded: true, refundedAmount: 10000 });
      const kinds = (await refundRows(o.orderId)).filter((r) => r.kind === 'event_cancelled');
      expect(kinds).toHaveLength(1);
      expect((await db().select().from(tickets).where(eq(tickets.orderId, o.orderId))).every((t) => t.voided)).toBe(true);
    }
    expect(await refundRows(free.orderId)).toHaveLength(0);
    expect((await db().select().from(jobs).where(eq(jobs.name, CANCEL_ORDER_REFUND_JOB))).filter((j) => j.payload && (j.payload as { orderId: string }).orderId === first.orderId)).toHaveLength(1);
  });

  it('tells every buyer once, through the outbox with the organiser as Reply-To, and the cancelled page shows the contact', async () => {
    const first = await givenPaidOrder();
    const eventId = first.eventId;
    const sameBuyer = await givenPaidOrder({ eventId, email: first.email });
    const free = await givenHeldOrder(server, tenant.id, { eventId, status: 'completed', lines: [{ name: 'Comp', price: 0, quantity: 1 }] });
    const unpaid = await givenHeldOrder(server, tenant.id, { eventId });
    await server.app.deps.jobs.drain();
    const [t] = await db().select().from(tenants).where(eq(tenants.id, tenant.id));

    expect((await admin.post(`/api/tenants/${tenant.id}/events/${eventId}/cancel`)).status).toBe(200);
    await server.app.deps.jobs.drain();
    // A re-run of the sweep (a crash, a retry) queues no second notice.
    await sweepCancelledEvent({ deps: server.app.deps, job: { tenantId: tenant.id, eventId, userId: null } });
    await server.app.deps.jobs.drain();

    const notices = (await db().select().from(outbox).where(eq(outbox.tenantId, tenant.id))).filter((m) => m.subject.startsWith('Cancelled: '));
    const of = (to: string) => notices.filter((m) => m.to === to);
    expect(of(first.email)).toHaveLength(2); // one per order
    expect(of(free.email)).toHaveLength(1);
    expect(of(unpaid.email)).toHaveLength(0);
    for (const m of [...of(first.email), ...of(free.email)]) expect(m.replyTo).toBe(t!.email);
    expect(of(first.email).map((m) => m.text).join('\n')).toContain(`Your order ${sameBuyer.orderUid} ($100.00) is being refunded in full`);
    expect(of(free.email)[0]!.text).toContain(`Your order ${free.orderUid} is cancelled`);
    expect(of(free.email)[0]!.text).toContain(`write to ${t!.email}`);

    const page = await server.client(tenant.url).get(`/api/p/events/${first.urlName}`);
    expect(page.status).toBe(200);
    expect(page.body.details).toMatchObject({ status: 'cancelled', contactEmail: t!.email });
  });

  it('a published event shows no contact e-mail, and a notice job for another tenant sends nothing', async () => {
    const o = await givenPaidOrder();
    await server.app.deps.jobs.drain();
    const page = await server.client(tenant.url).get(`/api/p/events/${o.urlName}`);
    expect(page.body.details.contactEmail).toBeNull();
    const other = await givenTenant(server);
    expect(await mailCancelledOrder({ deps: server.app.deps, job: { tenantId: other.id, orderId: o.orderId, userId: null } })).toBe(false);
    // Not cancelled: no notice either.
    expect(await mailCancelledOrder({ deps: server.app.deps, job: { tenantId: tenant.id, orderId: o.orderId, userId: null } })).toBe(false);
  });

  it('previews, counts and mails what is actually left to refund, with the organiser’s message (issue 21.9)', async () => {
    const whole = await givenPaidOrder({ firstName: 'Wanda' });
    const eventId = whole.eventId;
    const part = await givenPaidOrder({ eventId, firstName: 'Petra' });
    const done = await givenPaidOrder({ eventId, firstName: 'Dora' });
    expect((await admin.post(refundUrl(part), { mode: 'amount', amount: 2000, reason: 'late start' })).status).toBe(201);
    expect((await admin.post(refundUrl(done), { mode: 'full', reason: 'asked' })).status).toBe(201);
    const free = await givenHeldOrder(server, tenant.id, { eventId, status: 'completed', lines: [{ name: 'Comp', price: 0, quantity: 1 }] });
    await db().update(orders).set({ paymentMethod: 'free' }).where(eq(orders.id, free.orderId));
    await server.app.deps.jobs.drain();

    // The cancel dialog's preview: two orders still hold $100 + $80; one was refunded in full; four buyers are told.
    const preview = await admin.get(`/api/tenants/${tenant.id}/events/${eventId}/cancellation`);
    expect(preview.body).toMatchObject({ status: 'none', total: 2, pending: 2, toRefund: 18000, alreadyRefunded: 1, refundedElsewhere: 12000, notices: 4 });

    const message = 'The venue flooded.\nWe hope to see you at the spring show.';
    const cancel = await admin.post(`/api/tenants/${tenant.id}/events/${eventId}/cancel`, { message: `  ${message}  ` });
    expect(cancel.status).toBe(200);
    await server.app.deps.jobs.drain();
    const progress = await admin.get(`/api/tenants/${tenant.id}/events/${eventId}/cancellation`);
    expect(progress.body).toMatchObject({ status: 'done', total: 2, refunded: 2, toRefund: 18000, refundedAmount: 18000, alreadyRefunded: 1, refundedElsewhere: 12000 });
    expect((await refundRows(part.orderId)).find((r) => r.kind === 'event_cancelled')).toMatchObject({ amount: 8000, status: 'succeeded' });
    expect((await refundRows(done.orderId)).filter((r) => r.kind === 'event_cancelled')).toHaveLength(0);

    const notice = async (email: string) => {
      const mails = (await db().select().from(outbox).where(eq(outbox.to, email))).filter((m) => m.subject.startsWith('Cancelled: '));
      expect(mails).toHaveLength(1);
      return mails[0]!;
    };
    const wholeMail = await notice(whole.email);
    expect(wholeMail.text).toContain(`Your order ${whole.orderUid} ($100.00) is being refunded in full, automatically`);
    const partMail = await notice(part.email);
    expect(partMail.text).toContain('Of the $100.00 you paid, $20.00 was already refunded to you; the remaining $80.00 is being refunded automatically');
    expect(partMail.text).not.toContain('$100.00) is being refunded');
    const doneMail = await notice(done.email);
    expect(doneMail.text).toContain('It was already refunded in full ($100.00), so no further payment is due to you.');
    expect(doneMail.text).not.toMatch(/is being refunded/);
    expect((await notice(free.email)).text).toContain('is cancelled; its tickets are no longer valid.');
    for (const m of [wholeMail, partMail, doneMail]) {
      expect(m.text).toContain(`A message from ${tenant.name}:\n\n${message}`);
      expect(m.html).toContain('The venue flooded.<br>We hope to see you at the spring show.');
    }
  });

  it('refuses a message to buyers over 2,000 characters, and a message that is not text, without cancelling', async () => {
    const o = await givenPaidOrder();
    for (const body of [{ message: 'x'.repeat(2001) }, { message: 42 }]) {
      const res = await admin.post(`/api/tenants/${tenant.id}/events/${o.eventId}/cancel`, body);
      expect(res.status).toBe(400);
    }
    expect((await admin.post(`/api/tenants/${tenant.id}/events/${o.eventId}/cancel`, { message: 'x'.repeat(2001) })).body.error.message).toBe(M.cancelMessageTooLong);
    expect((await db().select().from(events).where(eq(events.id, o.eventId)))[0]!.status).toBe('published');
  });

  it('retries a refused cancellation refund with backoff through the job queue, shows it, and stops after the last try (issue 21.13)', async () => {
    const o = await givenPaidOrder();
    const refusedOnce = await givenPaidOrder({ eventId: o.eventId });
    // Both charges were refunded at the gateway behind our back: the gateway refuses.
    const outside = async (p: Paid) => db().insert(testRefunds).values({ id: `re_test_${randomUUID()}`, chargeId: p.chargeId, amount: 10000, idempotencyKey: `outside:${p.orderId}` });
    await outside(o);
    await outside(refusedOnce);
    const progressUrl = `/api/tenants/${tenant.id}/events/${o.eventId}/cancellation`;
    const jobOf = async (orderId: string, retry: number) =>
      (await db().select().from(jobs).where(eq(jobs.dedupeKey, retry ? `cancel-refund:${orderId}:retry-${retry}` : `cancel-refund:${orderId}`)))[0];
    /** Runs the order's next retry now, as if its wait were over. */
    const runRetry = async (orderId: string, retry: number) => {
      await db().update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.dedupeKey, `cancel-refund:${orderId}:retry-${retry}`));
      await server.app.deps.jobs.drain();
    };

    const before = Date.now();
    expect((await admin.post(`/api/tenants/${tenant.id}/events/${o.eventId}/cancel`)).status).toBe(200);
    await server.app.deps.jobs.drain();

    // The first try failed: a retry is queued 5 minutes on, and the console says so with the reason.
    const first = await jobOf(o.orderId, 1);
    expect(first).toBeDefined();
    expect(first!.runAt.getTime() - before).toBeGreaterThanOrEqual(5 * 60_000 - 1000);
    expect(first!.runAt.getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    const retrying = await admin.get(progressUrl);
    expect(retrying.body).toMatchObject({ status: 'running', total: 2, refunded: 0, failed: 0, retrying: 2, pending: 0, toRefund: 20000, refundedAmount: 0 });
    expect(retrying.body.problems).toHaveLength(2);
    expect(retrying.body.problems.find((p: { orderUID: string }) => p.orderUID === o.orderUid)).toEqual({
      orderUID: o.orderUid, state: 'retrying', amount: 10000, tries: 1, maxTries: 6, nextTryAt: first!.runAt.toISOString(), failureReason: expect.stringMatching(/greater than/),
    });
    const page = await admin.get<TOrderDetail>(orderUrl(o));
    expect(page.body.cancellationRefund).toMatchObject({ state: 'retrying', tries: 1, maxTries: 6, amount: 10000, nextTryAt: first!.runAt.toISOString() });

    // One order's money comes back to the charge: its retry refunds it, once.
    await db().delete(testRefunds).where(eq(testRefunds.idempotencyKey, `outside:${refusedOnce.orderId}`));
    await runRetry(refusedOnce.orderId, 1);
    expect((await admin.get<TOrderDetail>(orderUrl(refusedOnce))).body.cancellationRefund).toMatchObject({ state: 'refunded', tries: 2, nextTryAt: null });
    expect(await orderRow(refusedOnce.orderId)).toMatchObject({ refunded: true, refundedAmount: 10000 });
    const given = await db().select().from(testRefunds).where(eq(testRefunds.chargeId, refusedOnce.chargeId));
    expect(given.reduce((sum, r) => sum + r.amount, 0)).toBe(10000);
    // The retry gives back the tickets the failed try voided: the door shows them as refunded.
    const retried = (await refundRows(refusedOnce.orderId)).find((r) => r.kind === 'event_cancelled' && r.status === 'succeeded')!;
    expect(retried.ticketIds.sort()).toEqual([...refusedOnce.ticketIds].sort());

    // The other keeps failing: each failure waits longer (30 min, 2 h, 8 h, a day), then it stays failed.
    const waits = [30, 120, 480, 1440];
    for (const [i, minutes] of waits.entries()) {
      const at = Date.now();
      await runRetry(o.orderId, i + 1);
      const next = await jobOf(o.orderId, i + 2);
      expect(next, `retry ${i + 2}`).toBeDefined();
      expect(Math.round((next!.runAt.getTime() - at) / 60_000)).toBe(minutes);
    }
    await runRetry(o.orderId, 5);
    expect(await jobOf(o.orderId, 6)).toBeUndefined();
    const failed = (await refundRows(o.orderId)).filter((r) => r.kind === 'event_cancelled');
    expect(failed).toHaveLength(6);
    expect(failed.every((r) => r.status === 'failed')).toBe(true);
    const gaveUp = await admin.get(progressUrl);
    expect(gaveUp.body).toMatchObject({ status: 'done', total: 2, refunded: 1, failed: 1, retrying: 0, pending: 0, refundedAmount: 10000 });
    expect(gaveUp.body.problems).toEqual([expect.objectContaining({ orderUID: o.orderUid, state: 'failed', tries: 6, nextTryAt: null })]);
    expect((await admin.get<TOrderDetail>(orderUrl(o))).body.cancellationRefund).toMatchObject({ state: 'failed', tries: 6, maxTries: 6 });
    // A stale or repeated run of a retry writes nothing more.
    await refundCancelledOrder({ deps: server.app.deps, job: { tenantId: tenant.id, orderId: o.orderId, userId: null, retry: 3 } });
    await refundCancelledOrder({ deps: server.app.deps, job: { tenantId: tenant.id, orderId: o.orderId, userId: null } });
    expect((await refundRows(o.orderId)).filter((r) => r.kind === 'event_cancelled')).toHaveLength(6);

    // The organiser refunds it by hand from the order page: it counts as refunded, elsewhere.
    await db().delete(testRefunds).where(eq(testRefunds.idempotencyKey, `outside:${o.orderId}`));
    expect((await admin.post(refundUrl(o), { mode: 'full', reason: 'by hand' })).status).toBe(201);
    expect((await admin.get(progressUrl)).body).toMatchObject({ status: 'done', refunded: 2, failed: 0, refundedElsewhere: 10000, problems: [] });
  });

  it('a retry finds nothing to give back when the order was refunded by hand while it waited', async () => {
    const o = await givenPaidOrder();
    await db().insert(testRefunds).values({ id: `re_test_${randomUUID()}`, chargeId: o.chargeId, amount: 10000, idempotencyKey: `outside:${o.orderId}` });
    expect((await admin.post(`/api/tenants/${tenant.id}/events/${o.eventId}/cancel`)).status).toBe(200);
    await server.app.deps.jobs.drain();
    expect((await admin.get<TOrderDetail>(orderUrl(o))).body.cancellationRefund).toMatchObject({ state: 'retrying', tries: 1 });
    await db().delete(testRefunds).where(eq(testRefunds.idempotencyKey, `outside:${o.orderId}`));
    expect((await admin.post(refundUrl(o), { mode: 'full', reason: 'by hand' })).status).toBe(201);
    await db().update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.dedupeKey, `cancel-refund:${o.orderId}:retry-1`));
    await server.app.deps.jobs.drain();
    const given = await db().select().from(testRefunds).where(eq(testRefunds.chargeId, o.chargeId));
    expect(given.reduce((sum, r) => sum + r.amount, 0)).toBe(10000);
    expect((await refundRows(o.orderId)).filter((r) => r.kind === 'event_cancelled')).toHaveLength(1);
    expect((await admin.get<TOrderDetail>(orderUrl(o))).body.cancellationRefund).toMatchObject({ state: 'refunded', tries: 1 });
  });

  it('progress is 404 for another tenant, and for an event that is not cancelled says what cancelling would do', async () => {
    const o = await givenPaidOrder();
    const res = await admin.get(`/api/tenants/${tenant.id}/events/${o.eventId}/cancellation`);
    expect(res.body).toEqual({
      status: 'none', total: 1, refunded: 0, failed: 0, retrying: 0, pending: 1, toRefund: 10000, refundedAmount: 0,
      alreadyRefunded: 0, refundedElsewhere: 0, notices: 1, problems: [], owedAtBoxOffice: { orders: 0, amount: 0 }, settledAtBoxOffice: { orders: 0, amount: 0 }, owedRefunds: [],
    });
    expect((await admin.get(`/api/tenants/${tenant.id}/events/${randomUUID()}/cancellation`)).status).toBe(404);
    const { tenant: other, admin: c } = await givenTenantWithAdmin(server);
    expect((await c.get(`/api/tenants/${other.id}/events/${o.eventId}/cancellation`)).status).toBe(404);
    expect((await db().select().from(events).where(and(eq(events.id, o.eventId), eq(events.status, 'published')))).length).toBe(1);
  });
});

describe('OpenAPI', () => {
  it('documents the order routes from the schemas that validate them', async () => {
    const res = await server.client().get('/api/docs/openapi.json');
    const paths = res.body.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/api/tenants/{tenantId}/events/{eventId}/orders/{orderUID}'] ?? {})).toContain('get');
    expect(Object.keys(paths['/api/tenants/{tenantId}/events/{eventId}/orders/{orderUID}/refunds'] ?? {})).toContain('post');
    expect(Object.keys(paths['/api/tenants/{tenantId}/events/{eventId}/tickets/void'] ?? {})).toContain('post');
    expect(Object.keys(paths['/api/tenants/{tenantId}/events/{eventId}/cancellation'] ?? {})).toContain('get');
  });
});
