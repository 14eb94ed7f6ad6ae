import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, orderLines, orders, ticketTypes } from '../../db/schema/index.js';
import { checkoutPayload, givenEventOnSale, givenTenantWithSettings, startServer, type GivenEventOnSale, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { holdOrder, type HoldLine, type HoldRequest } from './repository.js';
import { HOLD_EXPIRY_JOB } from '../orders/holds.js';

// issue 14 §9: no overselling is a property of the database, not of one process. Two app nodes
// share one PostgreSQL database and buyers race across both; then every hold goes in its own
// statement and transaction (no batcher), so the row locks in mq_take_holds are contended.
// PostgreSQL only (see vitest.config.ts: *.pg.test.ts run when TEST_DATABASE_URL is set).

let nodeA: TestServer;
let nodeB: TestServer;
let tenant: GivenTenant;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('two-nodes.pg.test.ts needs TEST_DATABASE_URL');
  nodeA = await startServer();
  nodeB = await startServer({}, { peerOf: nodeA });
  tenant = await givenTenantWithSettings(nodeA);
});
afterAll(async () => {
  await nodeB?.close();
  await nodeA?.close();
});

const db = () => nodeA.app.deps.db;

async function stock(e: GivenEventOnSale) {
  const types = await db().select().from(ticketTypes).where(eq(ticketTypes.eventId, e.id));
  const [event] = await db().select().from(events).where(eq(events.id, e.id));
  return { types: Object.fromEntries(types.map((t) => [t.id, t.remaining])), capacity: event!.remainingCapacity };
}

async function soldLines(e: GivenEventOnSale) {
  return db()
    .select({ orderId: orderLines.orderId, quantity: orderLines.quantity, email: orders.email })
    .from(orderLines)
    .innerJoin(orders, and(eq(orders.tenantId, orderLines.tenantId), eq(orders.id, orderLines.orderId)))
    .where(and(eq(orders.eventId, e.id), inArray(orders.status, ['draft', 'processing', 'completed'])));
}

describe('two app nodes on one PostgreSQL database', () => {
  it('sell exactly 50 tickets to 200 buyers racing across both nodes', async () => {
    const e = await givenEventOnSale(nodeA, tenant.id, { capacity: 50, ticketTypes: [{ name: 'Flash', price: 2500, quantity: 50 }] });
    const path = `/api/p/tenants/${tenant.id}/events/${e.id}/orders`;
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 ? nodeB : nodeA)
          .client(tenant.url)
          .post(path, checkoutPayload([{ ticketTypeId: e.ticketTypeIds[0]!, quantity: 1 }], { email: `node${i % 2}-buyer${i}@example.test` })),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    expect(statuses.filter((s) => s === 409)).toHaveLength(150);
    // Both nodes sold some: the race really was across them.
    expect(results.some((r, i) => i % 2 === 0 && r.status === 201)).toBe(true);
    expect(results.some((r, i) => i % 2 === 1 && r.status === 201)).toBe(true);
    expect(await stock(e)).toEqual({ types: { [e.ticketTypeIds[0]!]: 0 }, capacity: 0 });
    const lines = await soldLines(e);
    expect(lines).toHaveLength(50);
    const winners = results.flatMap((r, i) => (r.status === 201 ? [`node${i % 2}-buyer${i}@example.test`] : []));
    expect(lines.map((l) => l.email).sort()).toEqual(winners.sort());
    expect(new Set(results.filter((r) => r.status === 201).map((r) => r.body.orderUID)).size).toBe(50);
  });

  it('sell exactly the stock when every hold is its own statement (no batcher): row locks decide', async () => {
    const e = await givenEventOnSale(nodeA, tenant.id, {
      capacity: 40,
      ticketTypes: [
        { name: 'A', price: 1000, quantity: 30 },
        { name: 'B', price: 2000, quantity: 30 },
      ],
    });
    const [a, b] = e.ticketTypeIds as [string, string];
    const line = (ticketTypeId: string, quantity: number): HoldLine => ({ ticketTypeId, quantity, unitPrice: ticketTypeId === a ? 1000 : 2000, ticketName: ticketTypeId === a ? 'A' : 'B' });
    const request = (n: number, lines: HoldLine[]): HoldRequest => {
      const id = randomUUID();
      const holdExpiresAt = new Date(Date.now() + 15 * 60_000);
      const subtotal = lines.reduce((s, l) => s + l.unitPrice * l.quantity, 0);
      return {
        order: {
          tenantId: tenant.id, id, orderUid: `LOCK${String(n).padStart(8, '0')}`, eventId: e.id, status: 'draft', source: 'online',
          email: `lock${n}@example.test`, firstName: 'Lock', lastName: 'Buyer', phone: '+15551234567', address1: '1 Main St',
          address2: '', city: 'Springfield', state: 'NY', zipCode: '10001', country: 'USA', optInEmail: false, optInText: false,
          discountCode: null, discountCodeId: null, ticketCount: lines.reduce((s, l) => s + l.quantity, 0),
          subtotal, surcharge: 0, processingFee: 0, gatewayProcessingFee: 0, discount: 0, vat: 0, taxRate: 0, donation: 0, donationFee: 0, charityId: null, charityName: null,
          totalAmount: subtotal, tenantTotal: subtotal, platformTotal: 0, breakdown: null, holdExpiresAt, viewTokenHash: 'x'.repeat(64),
          userId: null, waitingRoomVisitorId: null, waitlistEntryId: null, paymentProvider: 'test',
        },
        lines,
        discountCodeId: null,
        admissionOrders: null,
        job: { name: HOLD_EXPIRY_JOB, payload: { tenantId: tenant.id, orderId: id }, runAt: holdExpiresAt, dedupeKey: `${HOLD_EXPIRY_JOB}:${id}` },
      };
    };
    // Carts in both line orders (A then B, B then A): locks taken in a fixed order never deadlock.
    const carts = Array.from({ length: 120 }, (_, i) => (i % 3 === 0 ? (i % 2 ? [line(b, 1), line(a, 1)] : [line(a, 1), line(b, 1)]) : [line(i % 2 ? a : b, 1)]));
    const requests = carts.map((lines, i) => request(i, lines));
    // Batchers are per database handle: a handle of its own per request means one statement each,
    // all on the nodes' shared pools, all contending for the same rows.
    const outcomes = await Promise.all(requests.map((r, i) => holdOrder(Object.create(i % 2 ? nodeB.app.deps.db : db()), r)));
    const taken = requests.filter((_, i) => outcomes[i]!.ok);
    const soldA = taken.flatMap((r) => r.lines).filter((l) => l.ticketTypeId === a).length;
    const soldB = taken.flatMap((r) => r.lines).filter((l) => l.ticketTypeId === b).length;
    expect(soldA + soldB).toBe(40);
    expect(outcomes.every((o) => o.ok || o.reason === 'capacity' || o.reason === 'ticketType')).toBe(true);
    expect(await stock(e)).toEqual({ types: { [a]: 30 - soldA, [b]: 30 - soldB }, capacity: 0 });
    const lines = await soldLines(e);
    expect(lines.reduce((s, l) => s + l.quantity, 0)).toBe(40);
    expect(lines.map((l) => l.email).sort()).toEqual(taken.flatMap((r) => r.lines.map(() => r.order.email)).sort());
  });
});
