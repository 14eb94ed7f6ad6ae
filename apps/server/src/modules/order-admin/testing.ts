import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { orderLines, orders, testCheckoutSessions, tickets } from '../../db/schema/index.js';
import { givenHeldOrder, type TestServer } from '../../../test/harness.js';
import { FULFIL_JOB, newTicketUid } from '../fulfilment/service.js';

// Test support (not a test file): a completed order paid through the test gateway, with its tickets.

export type PaidOrder = Awaited<ReturnType<typeof givenHeldOrder>> & { chargeId: string; ticketIds: string[] };

/**
 * A completed order paid through the test gateway ($100 of tickets; the platform keeps $9.57), with
 * its tickets: issued by the real fulfilment (PDF and mail), or with `rows`, written straight to the
 * table as fulfilment writes them (the race tests make hundreds of orders and need no PDF).
 */
export async function givenPaidOrder(
  server: TestServer,
  tenantId: string,
  opts: Parameters<typeof givenHeldOrder>[2] & { platformTotal?: number; rows?: boolean } = {},
): Promise<PaidOrder> {
  const db = server.app.deps.db;
  const order = await givenHeldOrder(server, tenantId, { ...opts, status: 'processing' });
  const chargeId = `pi_test_${randomUUID().replace(/-/g, '')}`;
  await db.insert(testCheckoutSessions).values({
    tenantId,
    id: `cs_test_${randomUUID()}`,
    orderId: order.orderId,
    orderUid: order.orderUid,
    amount: order.totalAmount,
    currency: 'usd',
    successUrl: 'http://x.test/s',
    cancelUrl: 'http://x.test/c',
    idempotencyKey: `checkout:${order.orderId}`,
    status: 'complete',
    chargeId,
    expiresAt: new Date(Date.now() + 60_000),
  });
  const platformTotal = opts.platformTotal ?? Math.min(957, order.totalAmount);
  await db
    .update(orders)
    .set({ chargeId, paymentProvider: 'test', paymentMethod: 'card', paidAt: new Date(), platformTotal, tenantTotal: order.totalAmount - platformTotal })
    .where(eq(orders.id, order.orderId));
  if (opts.rows) {
    const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, order.orderId));
    await db.insert(tickets).values(
      lines.flatMap((l) =>
        Array.from({ length: l.quantity }, () => ({
          tenantId,
          id: randomUUID(),
          ticketUid: newTicketUid(),
          orderId: order.orderId,
          eventId: order.eventId,
          ticketTypeId: l.ticketTypeId,
          ticketTypeName: l.ticketName,
          price: l.unitPrice,
          fullName: 'Ada Lovelace',
          email: order.email,
        })),
      ),
    );
    await db.update(orders).set({ status: 'completed' }).where(eq(orders.id, order.orderId));
  } else {
    await server.app.deps.jobs.enqueue(db, FULFIL_JOB, { tenantId, orderId: order.orderId }, { dedupeKey: `fulfil:${order.orderId}` });
    await server.app.deps.jobs.drain();
  }
  const ticketIds = (await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.orderId, order.orderId))).map((t) => t.id);
  return { ...order, chargeId, ticketIds };
}
