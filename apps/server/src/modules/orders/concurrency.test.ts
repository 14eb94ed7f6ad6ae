import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountCodes, events, jobs, orderLines, orders, ticketTypes } from '../../db/schema/index.js';
import { checkoutPayload, givenEventOnSale, givenTenantWithSettings, startServer, type GivenEventOnSale, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { expireHold, HOLD_EXPIRY_JOB, RECONCILE_JOB, reconcileHolds } from './service.js';

// Architecture rule 7 on the database the suite runs on (PGlite by default, PostgreSQL with
// TEST_DATABASE_URL): many buyers at once never oversell, and holds come back exactly once.

let server: TestServer;
let tenant: GivenTenant;

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenantWithSettings(server);
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.deps.db;
const ordersPath = (e: GivenEventOnSale) => `/api/p/tenants/${tenant.id}/events/${e.id}/orders`;

async function stock(e: GivenEventOnSale) {
  const types = await db().select().from(ticketTypes).where(eq(ticketTypes.eventId, e.id));
  const [event] = await db().select().from(events).where(eq(events.id, e.id));
  return { types: Object.fromEntries(types.map((t) => [t.id, t.remaining])), capacity: event!.remainingCapacity };
}

async function soldLines(e: GivenEventOnSale, statuses = ['draft', 'processing', 'completed']) {
  return db()
    .select({ orderId: orderLines.orderId, ticketTypeId: orderLines.ticketTypeId, quantity: orderLines.quantity, email: orders.email })
    .from(orderLines)
    .innerJoin(orders, and(eq(orders.tenantId, orderLines.tenantId), eq(orders.id, orderLines.orderId)))
    .where(and(eq(orders.eventId, e.id), inArray(orders.status, statuses)));
}

describe('a flash sale', () => {
  it('sells exactly 50 tickets to 200 concurrent buyers over HTTP, none twice, nothing below zero', async () => {
    const e = await givenEventOnSale(server, tenant.id, { capacity: 50, ticketTypes: [{ name: 'Flash', price: 2500, quantity: 50 }] });
    const buyers = Array.from({ length: 200 }, (_, i) => i);
    const results = await Promise.all(
      buyers.map((i) =>
        server.client(tenant.url).post(ordersPath(e), checkoutPayload([{ ticketTypeId: e.ticketTypeIds[0]!, quantity: 1 }], { email: `buyer${i}@example.test` })),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    expect(statuses.filter((s) => s === 409)).toHaveLength(150);
    expect(await stock(e)).toEqual({ types: { [e.ticketTypeIds[0]!]: 0 }, capacity: 0 });

    const lines = await soldLines(e);
    expect(lines).toHaveLength(50);
    expect(lines.reduce((s, l) => s + l.quantity, 0)).toBe(50);
    // One order per successful buyer, each exactly once.
    const winners = results.flatMap((r, i) => (r.status === 201 ? [`buyer${i}@example.test`] : []));
    expect(lines.map((l) => l.email).sort()).toEqual(winners.sort());
    expect(new Set(lines.map((l) => l.orderId)).size).toBe(50);
    const uids = results.filter((r) => r.status === 201).map((r) => r.body.orderUID as string);
    expect(new Set(uids).size).toBe(50);
    // The losers were told what is left.
    const lost = results.find((r) => r.status === 409)!;
    expect(lost.body.problems[0] ?? { blockReason: lost.body.blockReason }).toBeTruthy();
  });

  it('keeps every count consistent when buyers mix ticket types and quantities under an event cap', async () => {
    const e = await givenEventOnSale(server, tenant.id, {
      capacity: 50,
      ticketTypes: [
        { name: 'A', price: 1000, quantity: 30 },
        { name: 'B', price: 2000, quantity: 30 },
      ],
      discounts: [{ code: 'FIRST5', kind: 'percent', value: 10, usageLimit: 5 }],
    });
    // Every third cart takes both types (in either line order); the others one type, alternating,
    // 1 to 3 tickets; every fourth cart tries a code that only 5 orders may use.
    const carts = Array.from({ length: 200 }, (_, i) => {
      const both = [
        { ticketTypeId: e.ticketTypeIds[0]!, quantity: 1 + (i % 2) },
        { ticketTypeId: e.ticketTypeIds[1]!, quantity: 1 + ((i >> 1) % 2) },
      ];
      if (i % 3 === 0) return i % 2 ? both.reverse() : both;
      return [{ ticketTypeId: e.ticketTypeIds[i % 2]!, quantity: 1 + ((i >> 2) % 3) }];
    });
    const withCode = (i: number) => i % 4 === 0;
    const results = await Promise.all(
      carts.map((lines, i) =>
        server.client(tenant.url).post(ordersPath(e), checkoutPayload(lines, { email: `mix${i}@example.test`, ...(withCode(i) ? { discountCode: 'FIRST5' } : {}) })),
      ),
    );
    expect(results.every((r) => r.status === 201 || r.status === 409 || (r.status === 400 && r.body.error.fields.discountCode))).toBe(true);
    const codeUses = results.filter((r, i) => withCode(i) && r.status === 201).length;
    const [code] = await db().select().from(discountCodes).where(eq(discountCodes.eventId, e.id));
    expect(code?.usedCount).toBe(codeUses);
    expect(codeUses).toBeLessThanOrEqual(5);

    const lines = await soldLines(e);
    const soldA = lines.filter((l) => l.ticketTypeId === e.ticketTypeIds[0]).reduce((s, l) => s + l.quantity, 0);
    const soldB = lines.filter((l) => l.ticketTypeId === e.ticketTypeIds[1]).reduce((s, l) => s + l.quantity, 0);
    const now = await stock(e);
    expect(now.types[e.ticketTypeIds[0]!]).toBe(30 - soldA);
    expect(now.types[e.ticketTypeIds[1]!]).toBe(30 - soldB);
    expect(now.capacity).toBe(50 - soldA - soldB);
    expect(now.capacity).toBeGreaterThanOrEqual(0);
    // Single-ticket carts of both types keep coming, and 30 + 30 > 50: the cap is what runs out.
    expect(soldA + soldB).toBe(50);
    // Each accepted cart became exactly its own lines.
    const accepted = results.flatMap((r, i) => (r.status === 201 ? [i] : []));
    expect(new Set(lines.map((l) => l.orderId)).size).toBe(accepted.length);
    for (const i of accepted) {
      const mine = lines.filter((l) => l.email === `mix${i}@example.test`);
      expect(mine.map((l) => [l.ticketTypeId, l.quantity]).sort()).toEqual(carts[i]!.map((l) => [l.ticketTypeId, l.quantity]).sort());
    }
  });

  it('lets exactly as many concurrent buyers use a limited discount code as its limit', async () => {
    const e = await givenEventOnSale(server, tenant.id, {
      ticketTypes: [{ name: 'A', price: 1000, quantity: 1000 }],
      discounts: [{ code: 'ONLY7', kind: 'amount', value: 300, usageLimit: 7 }],
    });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        server.client(tenant.url).post(ordersPath(e), checkoutPayload([{ ticketTypeId: e.ticketTypeIds[0]!, quantity: 1 }], { email: `code${i}@example.test`, discountCode: 'only7' })),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(7);
    expect(results.filter((r) => r.status === 400 && r.body.error.message === 'Invalid Input')).toHaveLength(33);
    const [code] = await db().select().from(discountCodes).where(eq(discountCodes.eventId, e.id));
    expect(code?.usedCount).toBe(7);
    expect((await stock(e)).types[e.ticketTypeIds[0]!]).toBe(993);
  });
});

describe('hold expiry', () => {
  async function placeHold(e: GivenEventOnSale, quantity: number) {
    const res = await server.client(tenant.url).post(ordersPath(e), checkoutPayload([{ ticketTypeId: e.ticketTypeIds[0]!, quantity }]));
    expect(res.status).toBe(201);
    const [order] = await db().select().from(orders).where(eq(orders.orderUid, res.body.orderUID));
    return order!;
  }
  const backdate = (orderId: string, minutes: number) =>
    db().execute(sql`update orders set hold_expires_at = now() - make_interval(mins => ${minutes}) where id = ${orderId}`);

  it('gives the tickets back through the job when the hold runs out, exactly once', async () => {
    const e = await givenEventOnSale(server, tenant.id, { capacity: 10, ticketTypes: [{ name: 'A', price: 1000, quantity: 10 }] });
    const order = await placeHold(e, 3);
    expect(await stock(e)).toEqual({ types: { [e.ticketTypeIds[0]!]: 7 }, capacity: 7 });

    // Not due yet: the job (or a stray run of it) changes nothing.
    expect(await expireHold({ deps: server.app.deps, orderId: order.id })).toBe(false);
    expect(await stock(e)).toEqual({ types: { [e.ticketTypeIds[0]!]: 7 }, capacity: 7 });

    // Time passes: the hold and its job are due.
    await backdate(order.id, 0);
    await db().update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.dedupeKey, `${HOLD_EXPIRY_JOB}:${order.id}`));
    await server.app.deps.jobs.drain();
    const [job] = await db().select().from(jobs).where(eq(jobs.dedupeKey, `${HOLD_EXPIRY_JOB}:${order.id}`));
    expect(job?.doneAt).not.toBeNull();
    const [expired] = await db().select().from(orders).where(eq(orders.id, order.id));
    expect(expired?.status).toBe('expired');
    expect(await stock(e)).toEqual({ types: { [e.ticketTypeIds[0]!]: 10 }, capacity: 10 });

    // Running the expiry again (a retried job, a second node) changes nothing.
    expect(await expireHold({ deps: server.app.deps, orderId: order.id })).toBe(false);
    await server.app.deps.jobs.enqueue(db(), HOLD_EXPIRY_JOB, { tenantId: tenant.id, orderId: order.id }, { dedupeKey: `${HOLD_EXPIRY_JOB}:${order.id}:again` });
    await server.app.deps.jobs.drain();
    expect(await stock(e)).toEqual({ types: { [e.ticketTypeIds[0]!]: 10 }, capacity: 10 });
  });

  it('two expiries racing release the hold once', async () => {
    const e = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'A', price: 1000, quantity: 10 }] });
    const order = await placeHold(e, 4);
    await backdate(order.id, 1);
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => expireHold({ deps: server.app.deps, orderId: order.id })));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect((await stock(e)).types[e.ticketTypeIds[0]!]).toBe(10);
  });

  it('reconciliation releases drafts whose expiry job was lost, and queues its next run', async () => {
    const e = await givenEventOnSale(server, tenant.id, { capacity: 5, ticketTypes: [{ name: 'A', price: 1000, quantity: 5 }] });
    const lost = await placeHold(e, 2);
    const fresh = await placeHold(e, 1);
    await db().delete(jobs).where(eq(jobs.dedupeKey, `${HOLD_EXPIRY_JOB}:${lost.id}`));
    await backdate(lost.id, 5);
    expect(await reconcileHolds({ deps: server.app.deps })).toBeGreaterThanOrEqual(1);
    expect(await stock(e)).toEqual({ types: { [e.ticketTypeIds[0]!]: 4 }, capacity: 4 });
    const [f] = await db().select().from(orders).where(eq(orders.id, fresh.id));
    expect(f?.status).toBe('draft');
    const next = await db().select().from(jobs).where(and(eq(jobs.name, RECONCILE_JOB), like(jobs.dedupeKey, `${RECONCILE_JOB}:%`), sql`${jobs.runAt} > now()`));
    expect(next.length).toBeGreaterThanOrEqual(1);
  });
});
