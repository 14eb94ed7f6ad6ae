import { eq } from 'drizzle-orm';
import { tickets } from '../../db/schema/index.js';
import { givenHeldOrder, type TestServer } from '../../../test/harness.js';
import { fulfilOrder } from '../fulfilment/service.js';

// Test support (not a test file): a paid order fulfilled by the real fulfilment (its tickets and
// their PDF, as the buyer gets them).

export type PaidTickets = Awaited<ReturnType<typeof givenHeldOrder>> & {
  tickets: Array<typeof tickets.$inferSelect>;
  pdfKey: string;
};

export async function givenPaidTickets(
  server: TestServer,
  tenantId: string,
  eventId: string,
  opts: Omit<Parameters<typeof givenHeldOrder>[2], 'eventId' | 'status'> = {},
): Promise<PaidTickets> {
  const order = await givenHeldOrder(server, tenantId, { ...opts, eventId, status: 'processing' });
  await fulfilOrder({ deps: server.app.deps, tenantId, orderId: order.orderId });
  const rows = await server.app.deps.db.select().from(tickets).where(eq(tickets.orderId, order.orderId));
  rows.sort((a, b) => a.ticketTypeName.localeCompare(b.ticketTypeName) || a.ticketUid.localeCompare(b.ticketUid));
  return { ...order, tickets: rows, pdfKey: `tickets/${tenantId}/${order.orderId}/tickets.pdf` };
}
