import { PAYOUT_PATHS, REPORT_PATHS } from '@marquee/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkinScans, events, orders, refunds, ticketTypes } from './db/schema/index.js';
import { DEMO_EVENT } from './modules/events/demo.js';
import { DEMO_ORGANISER_EMAIL, DEMO_TENANT, seedIfEmpty } from './seed.js';
import { DEMO_PAST_EVENT } from './seed-history.js';
import { startServer, type TestServer } from '../test/harness.js';

// The demo tenant's sales history (issue 21): a newcomer's dashboard, reports and payouts start with
// figures, made by the real use cases, on a past event of its own; Summer Jam stays as it was.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const DAY = 86_400_000;

describe('the demo history', () => {
  it('is a past event with paid orders over six weeks, two refunds, check-ins at the door and a completed payout, all figures agreeing', async () => {
    const deps = server.app.deps;
    expect(await seedIfEmpty(deps)).toEqual({ seeded: true });
    const now = Date.now();
    const db = deps.db;
    const [past] = await db.select().from(events).where(eq(events.urlName, DEMO_PAST_EVENT.urlName));
    expect(past).toBeDefined();
    const tenantId = past!.tenantId;
    const start = past!.startDateTime!.getTime();
    expect(now - start).toBeGreaterThan(20 * DAY);
    expect(now - start).toBeLessThan(22 * DAY);

    // Orders: paid, each on its day before the event, over about six weeks.
    const sold = await db.select().from(orders).where(and(eq(orders.tenantId, tenantId), eq(orders.eventId, past!.id)));
    expect(sold).toHaveLength(14);
    for (const o of sold) {
      expect(o.status).toBe('completed');
      expect(o.paidAt!.getTime()).toBeLessThan(start);
      expect(o.createdAt.getTime()).toBeLessThan(o.paidAt!.getTime());
    }
    const paidTimes = sold.map((o) => o.paidAt!.getTime());
    expect(start - Math.min(...paidTimes)).toBeGreaterThan(40 * DAY);
    expect(sold.filter((o) => o.discountCode === DEMO_PAST_EVENT.discountCode)).toHaveLength(3);
    const gross = sold.reduce((s, o) => s + o.totalAmount, 0);

    // The organiser's two refunds went through the gateway: one order in full, one ticket.
    const given = await db.select().from(refunds).where(and(eq(refunds.tenantId, tenantId), eq(refunds.eventId, past!.id)));
    expect(given.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    const fullRefund = given.find((r) => r.ticketIds.length === 2)!;
    expect(fullRefund.amount).toBe(sold.find((o) => o.id === fullRefund.orderId)!.totalAmount);
    expect(given.find((r) => r.ticketIds.length === 1)).toBeDefined();
    const refunded = given.reduce((s, r) => s + r.amount, 0);

    // The door: two thirds of the 31 tickets still valid, scanned during the evening.
    const scans = await db.select().from(checkinScans).where(and(eq(checkinScans.tenantId, tenantId), eq(checkinScans.eventId, past!.id)));
    expect(scans.filter((s) => s.result === 'admitted')).toHaveLength(21);
    for (const s of scans) {
      expect(s.scannedAt.getTime()).toBeGreaterThanOrEqual(start - 30 * 60_000);
      expect(s.scannedAt.getTime()).toBeLessThanOrEqual(start + 2 * 3_600_000);
    }

    // What the organiser's console reads.
    const organiser = server.client(DEMO_TENANT.url);
    await organiser.login(DEMO_ORGANISER_EMAIL, deps.config.adminPassword);
    const dashboard = (await organiser.get(REPORT_PATHS.eventDashboard(tenantId, past!.id))).body;
    expect(dashboard).toMatchObject({ orders: 14, ticket_used: 21, sales: { tickets_sold: 31, gross_sales: gross, refunds: refunded, total_donations: 4000 } });
    expect(dashboard.sales.total_discounts).toBeGreaterThan(0);
    const tenantDashboard = (await organiser.get(REPORT_PATHS.tenantDashboard(tenantId))).body;
    // Nine events: the past one, Summer Jam on sale, the seated Playhouse (issue 27) and the six dates of
    // the Harbour Walking Tour series (issue 28: each date is an event), none of them with orders.
    expect(tenantDashboard).toMatchObject({ events: 9, orders: 14, ticket_used: 21 });

    // One completed payout after the event, of every order, the refunds carried in; nothing left pending.
    const completed = (await organiser.get(PAYOUT_PATHS.tenantCompleted(tenantId))).body;
    expect(completed.count).toBe(1);
    const payout = completed.result[0].details;
    expect([...payout.orderUIDs].sort()).toEqual(sold.map((o) => o.orderUid).sort());
    expect(payout.grossAmount).toBe(gross - refunded);
    expect(payout.netAmount).toBe(payout.grossAmount - payout.creditCardProcessingFee);
    expect(payout.tenantTotal + payout.platformTotal).toBe(payout.netAmount);
    expect(new Date(payout.dateCreated).getTime()).toBeGreaterThan(start);
    expect(new Date(payout.dateCreated).getTime()).toBeLessThan(now - 14 * DAY);
    const operator = server.client();
    await operator.login(deps.config.adminEmail, deps.config.adminPassword);
    expect((await operator.get(PAYOUT_PATHS.pending())).body.count).toBe(0);

    // Summer Jam, on sale, is untouched: no orders, every ticket left.
    const [jam] = await db.select().from(events).where(eq(events.urlName, DEMO_EVENT.urlName));
    expect(await db.select().from(orders).where(eq(orders.eventId, jam!.id))).toEqual([]);
    expect((await db.select().from(ticketTypes).where(eq(ticketTypes.eventId, jam!.id))).map((t) => t.remaining).sort()).toEqual([50, 500]);
    expect(jam!.remainingCapacity).toBe(550);

    // A later start seeds nothing more.
    expect(await seedIfEmpty(deps)).toEqual({ seeded: false });
    expect(await db.select().from(orders)).toHaveLength(14);
    // The seed places, pays and fulfils every order: longer than a plain start.
  }, 180_000);

  it('is not seeded when mail would leave the machine (SMTP_URL), so made-up buyers are never mailed', async () => {
    const smtp = await startServer({ smtpUrl: 'smtp://127.0.0.1:9' });
    try {
      expect(await seedIfEmpty(smtp.app.deps)).toEqual({ seeded: true });
      expect(await smtp.app.deps.db.select().from(events).where(eq(events.urlName, DEMO_PAST_EVENT.urlName))).toEqual([]);
      expect(await smtp.app.deps.db.select().from(events).where(eq(events.urlName, DEMO_EVENT.urlName))).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  }, 60_000);
});
