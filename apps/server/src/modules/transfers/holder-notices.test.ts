import { randomUUID } from 'node:crypto';
import { TRANSFER_PATHS } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickets } from '../../db/schema/index.js';
import { givenTenant, givenTenantAdmin, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { smtpSink, type Received } from '../../../test/fixtures/smtp-sink.js';
import { givenPaidOrder } from '../../../test/fixtures/paid-orders.js';

// Issue 24: the holder of a ticket the buyer passed on is told, like the buyer, when the organiser
// voids or restores it, refunds it, or cancels the event. Delivered through SMTP (SMTP_URL set) to a
// real SMTP server on loopback, as the mail tests do.

let sink: Awaited<ReturnType<typeof smtpSink>>;
let server: TestServer;
let tenant: GivenTenant;
let admin: Client;
beforeAll(async () => {
  sink = await smtpSink();
  server = await startServer({ smtpUrl: `smtp://127.0.0.1:${sink.port}` });
  tenant = await givenTenant(server, { name: 'Pass Co' });
  admin = await givenTenantAdmin(server, tenant);
});
afterAll(async () => {
  await server.close();
  await sink.close();
});

const db = () => server.app.deps.db;

/** A delivered message as text: its headers and body, quoted-printable undone. */
function decode(m: Received): string {
  const soft = m.data.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft[i] === '=' ? /^[0-9A-F]{2}/.exec(soft.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** What reached the SMTP server for `to` since `from` (an index into sink.received), after the jobs ran. */
async function delivered(to: string, from = 0): Promise<string[]> {
  await server.app.deps.jobs.drain();
  return sink.received.slice(from).filter((m) => m.to.some((r) => r.toLowerCase() === `rcpt to:<${to.toLowerCase()}>`)).map(decode);
}
const subjectOf = (mail: string) => /^Subject: (.*)$/m.exec(mail)?.[1] ?? '';

/** A paid order of two tickets whose first ticket the buyer passed on to a friend, from the order link. */
async function givenTransferredTicket() {
  // Paid through the test gateway (so it can be refunded) and fulfilled: its tickets mail carries the order link.
  const order = await givenPaidOrder(server, tenant.id, { lines: [{ name: 'GA', price: 2500, quantity: 2 }], firstName: 'Ada' });
  const [ticketsMail] = await delivered(order.email);
  const token = /\/orders\/([A-Za-z0-9_-]+)/.exec(ticketsMail!)![1]!;
  const [given, kept] = await db().select().from(tickets).where(eq(tickets.orderId, order.orderId)).orderBy(tickets.createdAt, tickets.id);
  const friend = { fullName: 'Grace Hopper', email: `grace.${randomUUID().slice(0, 8)}@example.com` };
  const res = await server.client(tenant.url).post(TRANSFER_PATHS.transfer(token), { ticketId: given!.id, ...friend });
  expect(res.status).toBe(200);
  const [passed] = await delivered(friend.email);
  expect(subjectOf(passed!)).toMatch(/^Your ticket for Concert .+, from /);
  const [now] = await db().select().from(tickets).where(eq(tickets.id, given!.id));
  return { order, friend, given: now!, kept: kept! };
}

describe("a transferred ticket's holder hears what the buyer hears", () => {
  it('when the organiser voids the ticket and restores it: one mail each, to the holder as to the buyer', async () => {
    const { order, friend, given } = await givenTransferredTicket();
    const start = sink.received.length;
    const voidUrl = `/api/tenants/${tenant.id}/events/${order.eventId}/tickets/void`;
    expect((await admin.post(voidUrl, { ticketId: given.id, orderUID: order.orderUid, void: true, reason: 'Lost ticket' })).status).toBe(200);
    const voided = await delivered(friend.email, start);
    expect(voided.map(subjectOf)).toEqual([expect.stringMatching(/^Your ticket for Concert .+ is no longer valid$/)]);
    expect(voided[0]).toContain('Hi Grace Hopper,');
    expect(voided[0]).toContain(`(ticket ID ${given.ticketUid})`);
    expect(voided[0]).toContain('will not admit anyone');
    // The buyer's own notice, as before.
    expect((await delivered(order.email, start)).map(subjectOf)).toEqual([expect.stringMatching(/is no longer valid$/)]);

    const again = sink.received.length;
    expect((await admin.post(voidUrl, { ticketId: given.id, orderUID: order.orderUid, void: false, reason: 'Found it' })).status).toBe(200);
    const restored = await delivered(friend.email, again);
    expect(restored.map(subjectOf)).toEqual([expect.stringMatching(/^Your ticket for Concert .+ is valid again$/)]);
    expect(restored[0]).toContain('admits you again');
  });

  it("when a refund voids the ticket (the money goes to the buyer); not when it voids only the buyer's own", async () => {
    const { order, friend, given, kept } = await givenTransferredTicket();
    const refunds = `/api/tenants/${tenant.id}/events/${order.eventId}/orders/${order.orderUid}/refunds`;
    const start = sink.received.length;
    expect((await admin.post(refunds, { mode: 'tickets', ticketIds: [kept.id], reason: 'Cannot come' })).status).toBe(201);
    expect(await delivered(friend.email, start)).toEqual([]);
    expect(await delivered(order.email, start)).toHaveLength(1);

    const next = sink.received.length;
    expect((await admin.post(refunds, { mode: 'tickets', ticketIds: [given.id], reason: 'Cannot come' })).status).toBe(201);
    const mails = await delivered(friend.email, next);
    expect(mails.map(subjectOf)).toEqual([expect.stringMatching(/^Your ticket for Concert .+ has been refunded$/)]);
    expect(mails[0]).toContain(`(ticket ID ${given.ticketUid})`);
    expect(mails[0]).toContain('who paid for it');
    expect(mails[0]).not.toContain('$25.00');
  });

  it("when the event is cancelled, with the organiser's message; another order's holder is not told of this one", async () => {
    const { order, friend } = await givenTransferredTicket();
    const start = sink.received.length;
    const res = await admin.post(`/api/tenants/${tenant.id}/events/${order.eventId}/cancel`, { message: 'The hall flooded.' });
    expect(res.status).toBe(200);
    await server.app.deps.jobs.drain();
    const mails = await delivered(friend.email, start);
    expect(mails.map(subjectOf)).toEqual([expect.stringMatching(/^Cancelled: Concert /)]);
    expect(mails[0]).toContain('has been cancelled by Pass Co');
    expect(mails[0]).toContain('The hall flooded.');
    expect(mails[0]).toContain('Any refund goes to');
    // The buyer's cancellation notice is theirs, as before; the holder got only their own.
    expect((await delivered(order.email, start)).map(subjectOf)).toContain(mails.map(subjectOf)[0]);
    const other = await givenTransferredTicket();
    expect(await delivered(other.friend.email, start)).toHaveLength(1); // only the transfer mail of its own
  });
});
