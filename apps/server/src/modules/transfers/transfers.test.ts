import { randomUUID } from 'node:crypto';
import { CHECKIN_PATHS, M, TICKET_LINK_TOKEN_RE, TRANSFER_PATHS, type TCheckinManifest } from '@marquee/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainEvents, events, orderActions, outbox, refunds, tickets, ticketTransfers } from '../../db/schema/index.js';
import { givenHeldOrder, givenTenant, givenTenantAdmin, givenUser, inspectPdf, notFoundError, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { signTicketCode } from '../checkin/ticket-code.js';
import { FULFIL_JOB } from '../fulfilment/service.js';

let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let admin: Client;
let otherAdmin: Client;
beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenant(server, { name: 'Pass Co' });
  other = await givenTenant(server);
  admin = await givenTenantAdmin(server, tenant);
  otherAdmin = await givenTenantAdmin(server, other);
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.deps.db;
const site = () => server.client(tenant.url);
const mailsTo = async (to: string) => {
  await server.app.deps.jobs.drain();
  return (await db().select().from(outbox).where(eq(outbox.to, to))).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
};
const linkIn = (text: string, path: 'orders' | 'tickets') => {
  const m = new RegExp(`/${path}/([A-Za-z0-9_-]+)`).exec(text);
  if (!m) throw new Error(`no ${path} link in: ${text}`);
  return m[1]!;
};
const ticketsOf = (orderId: string) => db().select().from(tickets).where(eq(tickets.orderId, orderId)).orderBy(tickets.createdAt, tickets.id);

/** A paid, fulfilled order of two tickets, and its order link's token (from the tickets mail). */
async function givenOrder(opts: Parameters<typeof givenHeldOrder>[2] = {}) {
  const order = await givenHeldOrder(server, tenant.id, { lines: [{ name: 'GA', price: 2500, quantity: 2 }], ...opts, status: 'processing' });
  await server.app.deps.jobs.enqueue(db(), FULFIL_JOB, { tenantId: tenant.id, orderId: order.orderId }, { dedupeKey: `fulfil:${order.orderId}` });
  await server.app.deps.jobs.drain();
  const [mail] = await mailsTo(order.email);
  const rows = await ticketsOf(order.orderId);
  return { ...order, token: linkIn(mail!.text, 'orders'), tickets: rows };
}

let addresses = 0;
/** Each call from a client address of its own (the server believes x-forwarded-for from the test's loopback proxy), so the per-address limit stays out of the way. */
const newAddress = () => `10.24.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;
const transfer = (token: string, body: Record<string, unknown>, client = site()) => client.post(TRANSFER_PATHS.transfer(token), body, { 'x-forwarded-for': newAddress() });
const scan = (eventId: string, body: Record<string, unknown>) => admin.post(CHECKIN_PATHS.scans(tenant.id, eventId), { clientScanId: randomUUID(), deviceId: 'door-1', ...body });
const friend = () => ({ fullName: 'Grace Hopper', email: `grace.${randomUUID().slice(0, 8)}@example.com` });

/** Nothing of a refused transfer is written: the tickets as they were, no transfer, no mail to the friend. */
async function expectNothingWritten(orderId: string, before: Array<typeof tickets.$inferSelect>, to: string) {
  expect(await ticketsOf(orderId)).toEqual(before);
  expect(await db().select().from(ticketTransfers).where(eq(ticketTransfers.orderId, orderId))).toEqual([]);
  expect(await db().select().from(orderActions).where(and(eq(orderActions.orderId, orderId), eq(orderActions.action, 'transfer')))).toEqual([]);
  expect(await mailsTo(to)).toEqual([]);
}

describe('transferring a ticket from the order link', () => {
  it('gives the ticket a new holder and code: the old code is refused as transferred, the new holder gets their own link, the order shows where it went', async () => {
    const order = await givenOrder();
    const [given, kept] = order.tickets;
    const oldCode = signTicketCode(server.config.secret, order.eventId, given!.ticketUid);
    const to = friend();

    const res = await transfer(order.token, { ticketId: given!.id, fullName: `  ${to.fullName} `, email: to.email.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: M.transferDone, transferredTo: { fullName: to.fullName, email: to.email, at: expect.any(String) } });

    // The ticket row is the same (seat, price, refunds stay), with a new holder and Ticket ID.
    const [after] = (await ticketsOf(order.orderId)).filter((t) => t.id === given!.id);
    expect(after).toMatchObject({ fullName: to.fullName, email: to.email, price: given!.price, voided: false, used: false });
    expect(after!.ticketUid).not.toBe(given!.ticketUid);

    // The buyer's order page: the ticket is shown as where it went, without its code; the other as before.
    const page = await site().get(`/api/p/order-links/${order.token}`);
    expect(page.status).toBe(200);
    const shown = page.body.tickets.find((t: { ticketId: string }) => t.ticketId === given!.id);
    expect(shown).toMatchObject({ status: 'transferred', ticketUID: null, qrSvg: null, fullName: to.fullName, transferredTo: { fullName: to.fullName, email: to.email } });
    expect(page.body.tickets.find((t: { ticketId: string }) => t.ticketId === kept!.id)).toMatchObject({ status: 'valid', ticketUID: kept!.ticketUid, transferredTo: null });
    expect(page.body.canTransfer).toBe(true);
    // The buyer's PDF carries only the ticket they still hold.
    const pdf = await site().post(`/api/p/order-links/${order.token}/download`);
    const text = inspectPdf(pdf.raw).pages.map((p) => p.text).join('\n');
    expect(text).toContain(kept!.ticketUid);
    expect(text).not.toContain(after!.ticketUid);

    // The new holder's mail, with a link of their own.
    const [mail] = await mailsTo(to.email);
    expect(mail!.subject).toMatch(/^Your ticket for Concert .+, from /);
    expect(mail!.text).toContain(`http://${tenant.url}.`);
    const holderToken = linkIn(mail!.text, 'tickets');
    expect(holderToken).toMatch(TICKET_LINK_TOKEN_RE);
    expect(holderToken).not.toBe(order.token);
    const holder = await site().get(TRANSFER_PATHS.ticketLink(holderToken));
    expect(holder.status).toBe(200);
    expect(holder.headers['cache-control']).toBe('private, no-store');
    expect(holder.body.ticket).toMatchObject({ status: 'valid', ticketUID: after!.ticketUid, fullName: to.fullName, ticketTypeName: 'GA', fromName: expect.any(String) });
    expect(holder.body.ticket.qrSvg).toContain('<svg');
    const holderPdf = await site().post(TRANSFER_PATHS.ticketLinkDownload(holderToken));
    expect(holderPdf.status).toBe(200);
    expect(inspectPdf(holderPdf.raw).pages.map((p) => p.text).join('\n')).toContain(after!.ticketUid);
    // The holder's link opens only this ticket, not the order.
    expect((await site().get(`/api/p/order-links/${holderToken}`)).status).toBe(404);

    // The door: the old code answers transferred (recorded), the new code admits, once.
    const old = await scan(order.eventId, { code: oldCode });
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({ result: 'transferred', ticket: null });
    const typed = await scan(order.eventId, { ticketId: given!.ticketUid.toLowerCase() });
    expect(typed.body).toMatchObject({ result: 'transferred', ticket: null });
    const fresh = await scan(order.eventId, { code: signTicketCode(server.config.secret, order.eventId, after!.ticketUid) });
    expect(fresh.body).toMatchObject({ result: 'admitted', ticket: { id: given!.id, fullName: to.fullName } });
    expect((await scan(order.eventId, { code: oldCode })).body.result).toBe('transferred');
    expect((await site().get(TRANSFER_PATHS.ticketLink(holderToken))).body.ticket).toMatchObject({ status: 'used', qrSvg: null });

    // The console: the order's trail and each ticket's history.
    const detail = await admin.get(`/api/tenants/${tenant.id}/events/${order.eventId}/orders/${order.orderUid}`);
    expect(detail.status).toBe(200);
    expect(detail.body.actions).toContainEqual(expect.objectContaining({ action: 'transfer', ticketId: given!.id, reason: `to ${to.fullName} (${to.email})` }));
    const history = await admin.get(TRANSFER_PATHS.history(tenant.id, order.eventId, order.orderUid));
    expect(history.status).toBe(200);
    const entries = history.body.result.find((t: { ticketId: string }) => t.ticketId === given!.id).entries;
    expect(entries.map((e: { kind: string }) => e.kind)).toEqual(['sold', 'transferred', 'checked_in']);
    expect(entries[1].detail).toContain(`to ${to.fullName} (${to.email})`);
    expect(history.body.result.find((t: { ticketId: string }) => t.ticketId === kept!.id).entries.map((e: { kind: string }) => e.kind)).toEqual(['sold']);

    // The webhooks' domain event (issue 25), written in the transfer's transaction.
    const emitted = await db().select().from(domainEvents).where(and(eq(domainEvents.tenantId, tenant.id), eq(domainEvents.type, 'ticket.transferred')));
    expect(emitted).toHaveLength(1);
    expect(emitted[0]!.data).toMatchObject({ ticket: { id: given!.id, orderId: order.orderId }, to: { fullName: to.fullName, email: to.email } });
  });

  it('tells offline doors: the manifest lists the old code as revoked, and an old code admitted offline comes back from the sync as a conflict', async () => {
    const order = await givenOrder();
    const [given] = order.tickets;
    const oldCode = signTicketCode(server.config.secret, order.eventId, given!.ticketUid);
    // The device took its manifest before the transfer and went offline.
    const before = (await admin.get<TCheckinManifest>(CHECKIN_PATHS.manifest(tenant.id, order.eventId))).body;
    expect(before.tickets.find((t) => t.id === given!.id)).toMatchObject({ ticketUid: given!.ticketUid, state: 'valid' });
    expect(before.revoked).toEqual([]);

    expect((await transfer(order.token, { ticketId: given!.id, ...friend() })).status).toBe(200);

    const after = (await admin.get<TCheckinManifest>(CHECKIN_PATHS.manifest(tenant.id, order.eventId))).body;
    expect(after.revoked).toEqual([{ ticketUid: given!.ticketUid, reason: 'transferred', at: expect.any(String) }]);
    expect(after.tickets.some((t) => t.ticketUid === given!.ticketUid)).toBe(false);

    const sync = await admin.post(CHECKIN_PATHS.sync(tenant.id, order.eventId), {
      deviceId: 'door-offline',
      scans: [{ clientScanId: randomUUID(), code: oldCode, scannedAt: new Date().toISOString() }],
    });
    expect(sync.status).toBe(200);
    expect(sync.body.results).toEqual([expect.objectContaining({ result: 'transferred', ticket: null })]);
    const [row] = await db().select().from(tickets).where(eq(tickets.id, given!.id));
    expect(row!.used).toBe(false);
  });

  it('refuses the same person, a ticket already passed on, a used, a voided and a refunded ticket: each a 4xx with its code, nothing written', async () => {
    const order = await givenOrder({ email: `buyer.${randomUUID().slice(0, 6)}@example.com`, lines: [{ name: 'GA', price: 2500, quantity: 5 }] });
    const [a, b, c, d, e] = order.tickets;
    const to = friend();

    // To the buyer themselves (any case): the ticket is already theirs.
    let before = await ticketsOf(order.orderId);
    let res = await transfer(order.token, { ticketId: a!.id, fullName: 'Me Again', email: order.email.toUpperCase() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: 'BAD_REQUEST', message: M.transferSamePerson, fields: { email: M.transferSamePerson }, domainCode: 'TRANSFER_SAME_PERSON' } });
    await expectNothingWritten(order.orderId, before, order.email.toUpperCase());

    // Used at the door.
    await db().update(tickets).set({ used: true, usedAt: new Date() }).where(eq(tickets.id, b!.id));
    before = await ticketsOf(order.orderId);
    res = await transfer(order.token, { ticketId: b!.id, ...to });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: { code: 'CONFLICT', message: M.transferTicketUsed, domainCode: 'TRANSFER_TICKET_USED' } });
    // Voided by the organiser, and voided by a refund.
    await db().update(tickets).set({ voided: true, voidedAt: new Date() }).where(eq(tickets.id, c!.id));
    await db().update(tickets).set({ voided: true, voidedAt: new Date() }).where(eq(tickets.id, d!.id));
    await db().insert(refunds).values({ tenantId: tenant.id, id: randomUUID(), orderId: order.orderId, eventId: order.eventId, amount: 2500, tenantAmount: 2500, kind: 'organiser', status: 'succeeded', ticketIds: [d!.id] });
    before = await ticketsOf(order.orderId);
    res = await transfer(order.token, { ticketId: c!.id, ...to });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: { message: M.transferTicketVoided, domainCode: 'TRANSFER_TICKET_VOIDED' } });
    res = await transfer(order.token, { ticketId: d!.id, ...to });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: { message: M.transferTicketRefunded, domainCode: 'TRANSFER_TICKET_REFUNDED' } });
    await expectNothingWritten(order.orderId, before, to.email);

    // Passed on once: it is the new holder's, the buyer cannot pass it on again (nor back to themselves).
    expect((await transfer(order.token, { ticketId: e!.id, ...to })).status).toBe(200);
    const moved = await ticketsOf(order.orderId);
    for (const body of [friend(), { fullName: 'Me', email: order.email }]) {
      res = await transfer(order.token, { ticketId: e!.id, ...body });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: { message: M.transferAlreadyTransferred, domainCode: 'TRANSFER_ALREADY_TRANSFERRED' } });
    }
    expect(await ticketsOf(order.orderId)).toEqual(moved);
    expect(await db().select().from(ticketTransfers).where(eq(ticketTransfers.orderId, order.orderId))).toHaveLength(1);
  });

  it('refuses on a cancelled or past event and when the organiser switched transfers off; the order page offers none', async () => {
    const cases = [
      { set: { status: 'cancelled' }, code: 'EVENT_CANCELLED', message: M.transferEventCancelled },
      { set: { startDateTime: new Date(Date.now() - 3 * 3600_000), endDateTime: new Date(Date.now() - 3600_000) }, code: 'TRANSFER_EVENT_OVER', message: M.transferEventOver },
      { set: { startDateTime: new Date(Date.now() - 3600_000), endDateTime: null }, code: 'TRANSFER_EVENT_OVER', message: M.transferEventOver },
      { set: null, code: 'TRANSFERS_OFF', message: M.transfersOff },
    ] as const;
    for (const c of cases) {
      const order = await givenOrder();
      if (c.set) await db().update(events).set(c.set).where(eq(events.id, order.eventId));
      else expect((await admin.put(TRANSFER_PATHS.settings(tenant.id, order.eventId), { allowed: false })).body).toEqual({ allowed: false });
      const before = await ticketsOf(order.orderId);
      const to = friend();
      const res = await transfer(order.token, { ticketId: order.tickets[0]!.id, ...to });
      expect(res.status, c.code).toBe(409);
      expect(res.body).toMatchObject({ error: { code: 'CONFLICT', message: c.message, domainCode: c.code } });
      expect((await site().get(`/api/p/order-links/${order.token}`)).body.canTransfer).toBe(false);
      await expectNothingWritten(order.orderId, before, to.email);
    }
  });

  it('answers bad input with a clear 400 and another order’s ticket, a wrong link or another tenant’s host with 404; nothing written', async () => {
    const order = await givenOrder();
    const otherOrder = await givenOrder();
    const before = await ticketsOf(order.orderId);
    const t = order.tickets[0]!.id;
    const bad: Array<[Record<string, unknown>, string, string]> = [
      [{ ticketId: t, email: 'x@example.com' }, 'fullName', M.transferNameRequired],
      [{ ticketId: t, fullName: '   ', email: 'x@example.com' }, 'fullName', M.transferNameRequired],
      [{ ticketId: t, fullName: 'x'.repeat(101), email: 'x@example.com' }, 'fullName', M.transferNameTooLong],
      [{ ticketId: t, fullName: 'X' }, 'email', M.transferEmailRequired],
      [{ ticketId: t, fullName: 'X', email: 'not-an-address' }, 'email', M.emailFormat],
      [{ ticketId: 'nope', fullName: 'X', email: 'x@example.com' }, 'ticketId', M.transferTicketId],
      [{ fullName: 'X', email: 'x@example.com' }, 'ticketId', M.transferTicketId],
      [{ ticketId: t, fullName: 42, email: 'x@example.com' }, 'fullName', M.transferNameRequired],
    ];
    for (const [body, field, message] of bad) {
      const res = await transfer(order.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.fields[field]).toBe(message);
    }
    const to = friend();
    for (const [token, ticketId, client] of [
      [order.token, otherOrder.tickets[0]!.id, site()],
      [order.token, randomUUID(), site()],
      [otherOrder.token, order.tickets[0]!.id, site()],
      ['A'.repeat(43), t, site()],
      [order.orderUid, t, site()],
      [order.token, t, server.client(other.url)],
      [order.token, t, server.client()],
    ] as const) {
      const res = await transfer(token, { ticketId, ...to }, client);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFoundError);
    }
    await expectNothingWritten(order.orderId, before, to.email);
    for (const token of ['A'.repeat(43), order.token, 'x']) {
      expect((await site().get(TRANSFER_PATHS.ticketLink(token))).status).toBe(404);
      expect((await site().post(TRANSFER_PATHS.ticketLinkDownload(token))).status).toBe(404);
    }
  });

  it('is limited like the other order-link actions: 20 tries per link and 30 per client address in 10 minutes, then 429', async () => {
    const order = await givenOrder();
    for (let i = 0; i < 20; i++) expect((await transfer(order.token, { ticketId: randomUUID(), ...friend() })).status).toBe(404);
    let res = await transfer(order.token, { ticketId: order.tickets[0]!.id, ...friend() });
    expect(res.status).toBe(429);
    expect(res.body.error).toMatchObject({ code: 'RATE_LIMITED', message: M.tooManyRequests });
    expect(res.headers['retry-after']).toBeDefined();
    expect(await db().select().from(ticketTransfers).where(eq(ticketTransfers.orderId, order.orderId))).toEqual([]);
    // One address trying many links.
    const address = { 'x-forwarded-for': '10.99.0.1' };
    for (let i = 0; i < 30; i++) expect((await site().post(TRANSFER_PATHS.transfer('B'.repeat(42) + String.fromCharCode(65 + i)), { ticketId: randomUUID(), ...friend() }, address)).status).toBe(404);
    res = await site().post(TRANSFER_PATHS.transfer('C'.repeat(43)), { ticketId: randomUUID(), ...friend() }, address);
    expect(res.status).toBe(429);
  });
});

describe('the event’s transfer setting and the tickets’ history in the console', () => {
  it('is allowed by default; the organiser switches it off and on; bad input 400, a cancelled event 409, another tenant’s event 404, check-in staff read only', async () => {
    const order = await givenOrder();
    const path = TRANSFER_PATHS.settings(tenant.id, order.eventId);
    expect((await admin.get(path)).body).toEqual({ allowed: true });
    expect((await admin.put(path, { allowed: false })).body).toEqual({ allowed: false });
    expect((await admin.get(path)).body).toEqual({ allowed: false });
    expect((await admin.put(path, { allowed: true })).body).toEqual({ allowed: true });
    for (const body of [{}, { allowed: 'no' }, { allowed: null }]) {
      const res = await admin.put(path, body);
      expect(res.status).toBe(400);
      expect(res.body.error.fields.allowed).toBeDefined();
    }
    // Another tenant's admin, on their own tenant's path with this event, or on this tenant's path.
    expect((await otherAdmin.get(TRANSFER_PATHS.settings(other.id, order.eventId))).status).toBe(404);
    expect((await otherAdmin.put(TRANSFER_PATHS.settings(other.id, order.eventId), { allowed: false })).status).toBe(404);
    expect((await otherAdmin.get(path)).status).toBe(404);
    expect((await admin.get(TRANSFER_PATHS.settings(tenant.id, 'not-a-uuid'))).status).toBe(404);
    expect((await admin.get(TRANSFER_PATHS.settings(tenant.id, randomUUID()))).status).toBe(404);
    expect((await admin.get(path)).body).toEqual({ allowed: true });

    const checkinUser = await givenUser(server, { event: { tenantId: tenant.id, eventId: order.eventId, roles: ['event_checkin'] } });
    const door = server.client(tenant.url);
    await door.login(checkinUser.email, checkinUser.password);
    expect((await door.get(path)).status).toBe(200);
    expect((await door.put(path, { allowed: false })).status).toBe(403);

    await db().update(events).set({ status: 'cancelled' }).where(eq(events.id, order.eventId));
    const res = await admin.put(path, { allowed: false });
    expect(res.status).toBe(409);
    expect(res.body.error.domainCode).toBe('EVENT_CANCELLED');
  });

  it('shows each ticket’s history to those who see the order; another tenant’s order or event is 404', async () => {
    const order = await givenOrder();
    const res = await admin.get(TRANSFER_PATHS.history(tenant.id, order.eventId, order.orderUid));
    expect(res.status).toBe(200);
    expect(res.body.result).toHaveLength(2);
    expect(res.body.result[0]).toMatchObject({ ticketTypeName: 'GA', entries: [{ kind: 'sold', by: null, detail: expect.stringContaining(order.email) }] });
    expect((await otherAdmin.get(TRANSFER_PATHS.history(other.id, order.eventId, order.orderUid))).status).toBe(404);
    expect((await otherAdmin.get(TRANSFER_PATHS.history(tenant.id, order.eventId, order.orderUid))).status).toBe(404);
    expect((await admin.get(TRANSFER_PATHS.history(tenant.id, order.eventId, 'NOPE'))).status).toBe(404);
    expect((await admin.get(TRANSFER_PATHS.history(tenant.id, randomUUID(), order.orderUid))).status).toBe(404);
    expect((await admin.get(TRANSFER_PATHS.history(tenant.id, 'x', order.orderUid))).status).toBe(404);
  });
});
