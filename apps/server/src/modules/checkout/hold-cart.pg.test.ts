import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountCodes, orders, ticketTypes } from '../../db/schema/index.js';
import { checkoutPayload, givenEventOnSale, givenTenantWithSettings, startServer, type GivenTenant, type TestServer } from '../../../test/harness.js';

// Issue 21.8: the checkout's hold (POST …/holds) takes tickets, so it is raced like PLACE ORDER:
// buyers on two app nodes (their own pools) on one PostgreSQL database hold the last tickets at the
// same moment, and others place orders in place of their holds meanwhile. No ticket is held twice,
// none is lost, and the stock never goes below zero. PostgreSQL only (*.pg.test.ts).

const STOCK = 30;
const BUYERS = 24;

let nodeA: TestServer;
let nodeB: TestServer;
let tenant: GivenTenant;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('hold-cart.pg.test.ts needs TEST_DATABASE_URL');
  nodeA = await startServer({ rateLimitOrdersPerMinute: 1000 });
  nodeB = await startServer({ rateLimitOrdersPerMinute: 1000 }, { peerOf: nodeA });
  tenant = await givenTenantWithSettings(nodeA);
});
afterAll(async () => {
  await nodeB?.close();
  await nodeA?.close();
});

const db = () => nodeA.app.deps.db;

describe('checkout holds on two app nodes, one PostgreSQL database', () => {
  it(`${BUYERS} buyers hold 2 of ${STOCK} tickets at once, while the first holders place their orders: nothing oversold, nothing lost`, async () => {
    const event = await givenEventOnSale(nodeA, tenant.id, {
      ticketTypes: [{ name: 'General Admission', price: 4500, quantity: STOCK, maxPerOrder: 10 }],
      discounts: [{ code: 'RUSH', kind: 'percent', value: 10, usageLimit: 6 }],
    });
    const lines = [{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 2 }];
    const holdsPath = `/api/p/tenants/${tenant.id}/events/${event.id}/holds`;
    const ordersPath = `/api/p/tenants/${tenant.id}/events/${event.id}/orders`;
    const node = (i: number) => (i % 2 ? nodeB : nodeA).client(tenant.url);

    // A first wave holds 10 tickets; then, at the same moment, those five place their orders in
    // place of their holds, with a discount code of six uses, while 19 more buyers hold tickets or
    // place orders straight away, every other one with the same code (mq_take_holds's locks).
    const first = await Promise.all(Array.from({ length: 5 }, (_, i) => node(i).post(holdsPath, { lines })));
    expect(first.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const answers = await Promise.all([
      ...first.map((h, i) => node(i + 1).post(ordersPath, { ...checkoutPayload(lines, { email: `buyer${i}@example.test`, discountCode: 'RUSH' }), draftOrderUID: h.body.orderUID })),
      ...Array.from({ length: BUYERS - 5 }, (_, i) =>
        i % 2 ? node(i).post(holdsPath, { lines }) : node(i).post(ordersPath, checkoutPayload(lines, { email: `rush${i}@example.test`, ...(i % 4 ? {} : { discountCode: 'RUSH' }) })),
      ),
    ]);
    const codeRefused = (a: { status: number; body: { error?: { domainCode?: string } } }) => a.status === 400 && a.body.error?.domainCode === 'DISCOUNT_INVALID';
    expect(
      answers.every((a) => a.status === 201 || codeRefused(a) || (a.status === 409 && a.body.error.domainCode === 'CART_CONFLICT')),
      JSON.stringify(answers.map((a) => [a.status, a.body.error?.domainCode])),
    ).toBe(true);
    // Every buyer who held tickets keeps them: the order takes the hold's tickets over, never lets
    // them go (a code with no use left is refused, and the hold stays theirs).
    expect(answers.slice(0, 5).every((a) => a.status === 201 || codeRefused(a))).toBe(true);
    // The 20 tickets the holds left were taken by exactly 10 of the 19 other buyers.
    expect(answers.slice(5).filter((a) => a.status === 201)).toHaveLength((STOCK - 10) / 2);
    const [code] = await db().select().from(discountCodes).where(eq(discountCodes.id, event.discountCodeIds[0]!));
    const withCode = await db().select({ id: orders.id }).from(orders).where(and(eq(orders.eventId, event.id), eq(orders.discountCode, 'RUSH'), eq(orders.status, 'draft')));
    expect(code!.usedCount).toBe(withCode.length);
    expect(code!.usedCount).toBeLessThanOrEqual(6);

    const [type] = await db().select().from(ticketTypes).where(eq(ticketTypes.id, event.ticketTypeIds[0]!));
    const holding = await db()
      .select({ ticketCount: orders.ticketCount })
      .from(orders)
      .where(and(eq(orders.eventId, event.id), inArray(orders.status, ['draft'])));
    const held = holding.reduce((n, o) => n + o.ticketCount, 0);
    expect(type!.remaining).toBeGreaterThanOrEqual(0);
    // Every ticket is either still for sale or in exactly one live draft.
    expect(type!.remaining + held).toBe(STOCK);
    expect(type!.remaining).toBe(0);
    // A hold whose order was refused for its code is still a live draft holding its tickets.
    expect(answers.filter((a) => a.status === 201).length * 2 + answers.slice(0, 5).filter(codeRefused).length * 2).toBe(held);
    // The holds that were placed as orders are replaced, never counted twice.
    const replaced = await db().select().from(orders).where(and(eq(orders.eventId, event.id), eq(orders.status, 'replaced')));
    expect(replaced).toHaveLength(answers.slice(0, 5).filter((a) => a.status === 201).length);
  }, 120_000);
});
