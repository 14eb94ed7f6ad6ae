import { randomUUID } from 'node:crypto';
import { M, RESENDS_PER_MEMBER_PER_HOUR, RESENDS_PER_ORDER_PER_HOUR, resendMemberLimit, resendOrderLimit } from '@marquee/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, orderActions, orders, outbox, subscribers, tickets } from '../../db/schema/index.js';
import {
  givenHeldOrder,
  givenPlatformAdmin,
  givenTenant,
  givenUser,
  inspectPdf,
  startServer,
  type GivenHeldOrder,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { FULFIL_JOB, FULFIL_RECONCILE_JOB, fulfilOrder, reconcileFulfilment } from './service.js';

let server: TestServer;
let tenant: GivenTenant;
beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenant(server);
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.deps.db;
const orderRow = async (orderId: string) => (await db().select().from(orders).where(eq(orders.id, orderId)))[0]!;
const ticketsOf = (orderId: string) => db().select().from(tickets).where(eq(tickets.orderId, orderId));
const mailsTo = (to: string) => db().select().from(outbox).where(eq(outbox.to, to));

/** A paid order, fulfilled the way the payment webhook leaves it to be: through the job. */
async function givenCompletedOrder(opts: Parameters<typeof givenHeldOrder>[2] = {}) {
  const order = await givenHeldOrder(server, tenant.id, { ...opts, status: 'processing' });
  await server.app.deps.jobs.enqueue(db(), FULFIL_JOB, { tenantId: tenant.id, orderId: order.orderId }, { dedupeKey: `fulfil:${order.orderId}` });
  await server.app.deps.jobs.drain();
  return order;
}

async function adminClient(t: GivenTenant = tenant, roles = ['tenant_admin']) {
  const user = await givenUser(server, { tenant: { id: t.id, roles } });
  const c = server.client(t.url);
  await c.login(user.email, user.password);
  return c;
}

const url = (o: GivenHeldOrder, action: 'resend' | 'download', tenantId = tenant.id) => `/api/tenants/${tenantId}/events/${o.eventId}/${action}`;

describe('fulfilment job (orders.fulfil)', () => {
  it('creates one ticket per seat, mails the PDF, subscribes an opt-in and completes the order', async () => {
    const order = await givenCompletedOrder({ optInEmail: true });
    expect((await orderRow(order.orderId)).status).toBe('completed');
    const sold = await ticketsOf(order.orderId);
    expect(sold).toHaveLength(order.seats);
    for (const t of sold) {
      expect(t.ticketUid).toMatch(/^[A-Z2-7]{26}$/);
      expect(t).toMatchObject({ tenantId: tenant.id, eventId: order.eventId, fullName: 'Ada Lovelace', email: order.email, voided: false });
    }
    const mails = await mailsTo(order.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Your tickets for Concert /);
    expect(mails[0]!.text).toContain(`Delivery: ${M.printAtHome}`);
    expect(mails[0]!.text).toContain('Doors open at 7 PM. Bring a photo ID.');
    expect(mails[0]!.text).toContain(order.orderUid);
    // 2030-06-01T00:30Z is the evening of May 31st in New York.
    expect(mails[0]!.text.replace(/\u202f/g, ' ')).toContain('Friday, May 31, 2030 at 8:30 PM EDT');
    expect(mails[0]!.html).toContain('Print At Home (Email)');
    expect(mails[0]!.attachments).toEqual([
      { filename: `tickets_${order.orderUid}.pdf`, contentType: 'application/pdf', key: expect.any(String) },
      // Issue 15: the "Add to calendar" invite (see buyer.test.ts).
      { filename: 'invite.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH', key: expect.any(String) },
    ]);
    const pdf = inspectPdf((await server.app.deps.storage.get(mails[0]!.attachments[0]!.key))!.bytes);
    expect(pdf.pages).toHaveLength(order.seats);
    expect(pdf.pages.map((p) => sold.find((t) => p.text.includes(t.ticketUid))?.id).filter(Boolean)).toHaveLength(order.seats);
    expect(pdf.pages[0]!.text).toContain('$');

    const subs = await db().select().from(subscribers).where(eq(subscribers.eventId, order.eventId));
    expect(subs.map((s) => s.email)).toEqual([order.email]);
  });

  it('is idempotent: running it again, or twice at once, makes no more tickets and no more mail', async () => {
    const order = await givenHeldOrder(server, tenant.id, { status: 'processing' });
    const results = await Promise.all([1, 2, 3].map(() => fulfilOrder({ deps: server.app.deps, tenantId: tenant.id, orderId: order.orderId })));
    expect(results.filter((r) => r === 'completed')).toHaveLength(1);
    expect(await fulfilOrder({ deps: server.app.deps, tenantId: tenant.id, orderId: order.orderId })).toBe('skipped');
    await server.app.deps.jobs.drain();
    expect(await ticketsOf(order.orderId)).toHaveLength(order.seats);
    expect(await mailsTo(order.email)).toHaveLength(1);
  });

  it('recovers when tickets exist but the order was never completed (a crash in between)', async () => {
    const order = await givenHeldOrder(server, tenant.id, { status: 'processing' });
    await fulfilOrder({ deps: server.app.deps, tenantId: tenant.id, orderId: order.orderId });
    const first = await ticketsOf(order.orderId);
    await db().update(orders).set({ status: 'processing' }).where(eq(orders.id, order.orderId));
    await fulfilOrder({ deps: server.app.deps, tenantId: tenant.id, orderId: order.orderId });
    expect((await ticketsOf(order.orderId)).map((t) => t.ticketUid).sort()).toEqual(first.map((t) => t.ticketUid).sort());
  });

  it('leaves draft, expired and cancelled orders alone', async () => {
    for (const status of ['draft', 'expired', 'cancelled']) {
      const order = await givenHeldOrder(server, tenant.id, { status });
      expect(await fulfilOrder({ deps: server.app.deps, tenantId: tenant.id, orderId: order.orderId })).toBe('skipped');
      expect(await ticketsOf(order.orderId)).toHaveLength(0);
      expect((await orderRow(order.orderId)).status).toBe(status);
    }
  });

  it('subscribes an address once per event however many orders it opts in with', async () => {
    const first = await givenCompletedOrder({ optInEmail: true, email: 'fan@example.test' });
    await givenCompletedOrder({ optInEmail: true, email: 'fan@example.test', eventId: first.eventId });
    const other = await givenCompletedOrder({ optInEmail: false, email: 'quiet@example.test', eventId: first.eventId });
    const subs = await db().select().from(subscribers).where(and(eq(subscribers.tenantId, tenant.id), eq(subscribers.eventId, first.eventId)));
    expect(subs.map((s) => s.email)).toEqual(['fan@example.test']);
    expect(other.email).toBe('quiet@example.test');
  });
});

describe('POST /api/tenants/:tenantId/events/:eventId/download', () => {
  it('answers the valid tickets of a completed order as tickets_{orderUID}.pdf', async () => {
    const order = await givenCompletedOrder();
    const c = await adminClient();
    const res = await c.post(url(order, 'download'), { orderUID: order.orderUid, email: order.email });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="tickets_${order.orderUid}.pdf"`);
    expect(res.raw.subarray(0, 5).toString()).toBe('%PDF-');
    expect(inspectPdf(res.raw).pages).toHaveLength(order.seats);

    // A voided ticket is not printed any more.
    const [voided] = await ticketsOf(order.orderId);
    await db().update(tickets).set({ voided: true }).where(eq(tickets.id, voided!.id));
    const after = await c.post(url(order, 'download'), { orderUID: order.orderUid });
    const pages = inspectPdf(after.raw).pages;
    expect(pages).toHaveLength(order.seats - 1);
    expect(pages.some((p) => p.text.includes(voided!.ticketUid))).toBe(false);
  });

  it('refuses orders that are not completed, unknown orders, and orders of another event', async () => {
    const c = await adminClient();
    const draft = await givenHeldOrder(server, tenant.id);
    const notYet = await c.post(url(draft, 'download'), { orderUID: draft.orderUid });
    expect(notYet.status).toBe(409);
    expect(notYet.body.error.message).toBe(M.ticketsOnlyForCompletedOrders);

    const done = await givenCompletedOrder();
    expect((await c.post(url(done, 'download'), { orderUID: 'NOPE' })).status).toBe(404);
    expect((await c.post(url(draft, 'download'), { orderUID: done.orderUid })).status).toBe(404);
    expect((await c.post(`/api/tenants/${tenant.id}/events/not-a-uuid/download`, { orderUID: done.orderUid })).status).toBe(404);
  });

  // The PDF renderer throws on an empty document (pdf.ts, an invariant): the routes answer first.
  it('an order whose tickets are all voided has nothing to download or resend: 409, not a 500', async () => {
    const c = await adminClient();
    const order = await givenCompletedOrder();
    await db().update(tickets).set({ voided: true }).where(eq(tickets.orderId, order.orderId));
    const mailsBefore = (await mailsTo(order.email)).length;
    for (const action of ['download', 'resend'] as const) {
      const res = await c.post(url(order, action), { orderUID: order.orderUid });
      expect(res.status, action).toBe(409);
      expect(res.body.error).toEqual({ code: 'CONFLICT', message: M.noValidTickets });
    }
    await server.app.deps.jobs.drain();
    expect(await mailsTo(order.email)).toHaveLength(mailsBefore);
  });

  it('validates the body', async () => {
    const c = await adminClient();
    const order = await givenCompletedOrder();
    const res = await c.post(url(order, 'download'), { email: order.email });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(M.invalidValue);
  });
});

describe('POST /api/tenants/:tenantId/events/:eventId/resend', () => {
  it("mails the tickets again to the order's address, or to the one given", async () => {
    const order = await givenCompletedOrder();
    const c = await adminClient();
    const res = await c.post(url(order, 'resend'), { orderUID: order.orderUid, email: order.email });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: M.resentTickets });
    await server.app.deps.jobs.drain();
    const toBuyer = await mailsTo(order.email);
    expect(toBuyer).toHaveLength(2);
    // Each mail keeps its own attachment.
    expect(new Set(toBuyer.map((m) => m.attachments[0]!.key)).size).toBe(2);

    const elsewhere = await c.post(url(order, 'resend'), { orderUID: order.orderUid, email: 'Friend@Example.test' });
    expect(elsewhere.status).toBe(200);
    await server.app.deps.jobs.drain();
    const [mail] = await mailsTo('friend@example.test');
    expect(mail?.attachments[0]?.filename).toBe(`tickets_${order.orderUid}.pdf`);
    const pdf = inspectPdf((await server.app.deps.storage.get(mail!.attachments[0]!.key))!.bytes);
    expect(pdf.pages).toHaveLength(order.seats);

    const noEmail = await c.post(url(order, 'resend'), { orderUID: order.orderUid });
    expect(noEmail.status).toBe(200);
    expect(await mailsTo(order.email)).toHaveLength(3);
  });

  it('finishes a processing order (the claim e-mail) and refuses drafts', async () => {
    const c = await adminClient();
    const processing = await givenHeldOrder(server, tenant.id, { status: 'processing' });
    const res = await c.post(url(processing, 'resend'), { orderUID: processing.orderUid, email: processing.email });
    expect(res.status).toBe(200);
    expect((await orderRow(processing.orderId)).status).toBe('completed');
    const claimed = await mailsTo(processing.email);
    expect(claimed).toHaveLength(1);
    expect(claimed[0]!.subject).toMatch(/^Claim your tickets for Concert /);
    expect(claimed[0]!.text).toContain(`Your order ${processing.orderUid} is confirmed and your tickets`);

    // To another address: the order's own mail and a claim mail to that address.
    const other = await givenHeldOrder(server, tenant.id, { status: 'processing' });
    expect((await c.post(url(other, 'resend'), { orderUID: other.orderUid, email: 'helper@example.test' })).status).toBe(200);
    expect((await mailsTo('helper@example.test')).map((m) => m.subject)).toEqual([expect.stringMatching(/^Claim your tickets/)]);

    const draft = await givenHeldOrder(server, tenant.id);
    const refused = await c.post(url(draft, 'resend'), { orderUID: draft.orderUid });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(M.ticketsOnlyForCompletedOrders);
  });

  it('validates the e-mail', async () => {
    const c = await adminClient();
    const order = await givenCompletedOrder();
    const res = await c.post(url(order, 'resend'), { orderUID: order.orderUid, email: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(M.validEmail);
  });
});

describe('resend limits and who may send elsewhere (issue 21 §3)', () => {
  const resends = async (orderId: string) => (await db().select().from(orderActions).where(eq(orderActions.orderId, orderId))).filter((a) => a.action === 'resend');

  it(`allows ${RESENDS_PER_ORDER_PER_HOUR} resends of an order an hour, then answers 429 with when, recording and mailing nothing`, async () => {
    const order = await givenCompletedOrder();
    const c = await adminClient();
    for (let i = 0; i < RESENDS_PER_ORDER_PER_HOUR; i++) {
      const to = i % 2 ? order.email : `helper${i}@example.test`;
      expect((await c.post(url(order, 'resend'), { orderUID: order.orderUid, email: to })).status).toBe(200);
    }
    const mailed = (await db().select().from(outbox)).length;
    const limited = await c.post(url(order, 'resend'), { orderUID: order.orderUid, email: order.email });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: 'RATE_LIMITED', message: resendOrderLimit(60) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    expect((await db().select().from(outbox)).length).toBe(mailed);
    // Each resend is in the trail: who, when, to which address.
    const trail = await resends(order.orderId);
    expect(trail).toHaveLength(RESENDS_PER_ORDER_PER_HOUR);
    expect(trail.map((a) => JSON.parse(a.details!).to).sort()).toEqual([order.email, order.email, 'helper0@example.test', 'helper2@example.test', 'helper4@example.test'].sort());
    expect(trail.every((a) => a.userId && a.userEmail?.includes('@') && a.createdAt)).toBe(true);

    // An hour later the order may be sent again; another order was never held up.
    await db().update(orderActions).set({ createdAt: new Date(Date.now() - 61 * 60_000) }).where(eq(orderActions.orderId, order.orderId));
    expect((await c.post(url(order, 'resend'), { orderUID: order.orderUid })).status).toBe(200);
    const another = await givenCompletedOrder();
    expect((await c.post(url(another, 'resend'), { orderUID: another.orderUid })).status).toBe(200);
  });

  it(`allows one member ${RESENDS_PER_MEMBER_PER_HOUR} resends an hour across orders`, async () => {
    const user = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } });
    const c = server.client(tenant.url);
    await c.login(user.email, user.password);
    const earlier = await givenCompletedOrder();
    // What the member sent in the last hour (the trail is what the limit counts): 30 resends of other orders.
    await db().insert(orderActions).values(
      Array.from({ length: RESENDS_PER_MEMBER_PER_HOUR }, (_, i) => ({
        tenantId: tenant.id,
        id: randomUUID(),
        orderId: earlier.orderId,
        action: 'resend',
        userId: user.id,
        userEmail: user.email,
        details: JSON.stringify({ to: earlier.email }),
        createdAt: new Date(Date.now() - (50 - i) * 60_000),
      })),
    );
    const order = await givenCompletedOrder();
    const limited = await c.post(url(order, 'resend'), { orderUID: order.orderUid });
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toBe(resendMemberLimit(10));
    expect(await resends(order.orderId)).toHaveLength(0);
    // Another member of the tenant is not held up by this one.
    expect((await (await adminClient()).post(url(order, 'resend'), { orderUID: order.orderUid })).status).toBe(200);
  });

  it('sends to an address that is not the buyer’s only for a role that can refund; anyone who may resend can send to the buyer', async () => {
    const order = await givenCompletedOrder();
    const staff = await adminClient(tenant, ['tenant_staff']);
    const manager = await givenUser(server, { event: { tenantId: tenant.id, eventId: order.eventId, roles: ['event_manager'] } });
    const mc = server.client(tenant.url);
    await mc.login(manager.email, manager.password);
    for (const c of [staff, mc]) {
      const elsewhere = await c.post(url(order, 'resend'), { orderUID: order.orderUid, email: 'outsider@example.test' });
      expect(elsewhere.status).toBe(403);
      expect(elsewhere.body.error.message).toBe(M.resendElsewhereNotAllowed);
      // The buyer's own address, whatever its case, is the buyer's.
      expect((await c.post(url(order, 'resend'), { orderUID: order.orderUid, email: order.email.toUpperCase() })).status).toBe(200);
    }
    expect(await mailsTo('outsider@example.test')).toHaveLength(0);
    expect((await resends(order.orderId)).map((a) => JSON.parse(a.details!).to.toLowerCase())).toEqual([order.email, order.email]);

    const admin = await adminClient();
    expect((await admin.post(url(order, 'resend'), { orderUID: order.orderUid, email: 'outsider@example.test' })).status).toBe(200);
    const pm = await givenUser(server, { platformRoles: ['platform_manager'] });
    const pc = server.client();
    await pc.login(pm.email, pm.password);
    expect((await pc.post(url(order, 'resend'), { orderUID: order.orderUid, email: 'second@example.test' })).status).toBe(200);
    expect(await mailsTo('outsider@example.test')).toHaveLength(1);
    expect(await mailsTo('second@example.test')).toHaveLength(1);
  });

  it('lets exactly the limit through when many resends of one order arrive at once', async () => {
    const order = await givenCompletedOrder();
    const c = await adminClient();
    const answers = await Promise.all(Array.from({ length: RESENDS_PER_ORDER_PER_HOUR + 4 }, () => c.post(url(order, 'resend'), { orderUID: order.orderUid })));
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(RESENDS_PER_ORDER_PER_HOUR).fill(200), ...Array(4).fill(429)]);
    expect(await resends(order.orderId)).toHaveLength(RESENDS_PER_ORDER_PER_HOUR);
    expect(await mailsTo(order.email)).toHaveLength(1 + RESENDS_PER_ORDER_PER_HOUR);
  });
});

describe('ticket actions: who may', () => {
  it.each(['resend', 'download'] as const)('%s: tenant admin and staff, platform managers; others get 401/403/404', async (action) => {
    const order = await givenCompletedOrder();
    const body = { orderUID: order.orderUid, email: order.email };
    const expectStatus = async (c: ReturnType<TestServer['client']>, status: number) => {
      const res = await c.post(url(order, action), body);
      expect(res.status).toBe(status);
    };

    await expectStatus(await adminClient(tenant, ['tenant_admin']), 200);
    await expectStatus(await adminClient(tenant, ['tenant_staff']), 200);

    for (const roles of [['super_user'], ['platform_manager']] as const) {
      const u = await givenUser(server, { platformRoles: [...roles] });
      const c = server.client();
      await c.login(u.email, u.password);
      await expectStatus(c, 200);
    }
    for (const roles of [['platform_report'], ['platform_user']] as const) {
      const u = await givenUser(server, { platformRoles: [...roles] });
      const c = server.client();
      await c.login(u.email, u.password);
      await expectStatus(c, 404);
    }

    const checkin = await givenUser(server, { event: { tenantId: tenant.id, eventId: order.eventId, roles: ['event_checkin'] } });
    const cc = server.client(tenant.url);
    await cc.login(checkin.email, checkin.password);
    await expectStatus(cc, 403);

    await expectStatus(server.client(tenant.url), 401);

    // Another tenant's admin cannot learn that this tenant's order exists.
    const other = await givenTenant(server);
    const otherAdmin = await adminClient(other);
    const cross = await otherAdmin.post(url(order, action, tenant.id), body);
    expect(cross.status).toBe(404);
    // ...nor reach it through their own tenant id.
    const viaOwn = await otherAdmin.post(url(order, action, other.id), body);
    expect(viaOwn.status).toBe(404);

    const admin = await givenPlatformAdmin(server);
    const pc = server.client();
    await pc.login(admin.email, admin.password);
    expect((await pc.post(url(order, action, other.id), body)).status).toBe(404);
  });
});

describe('fulfilment reconciliation (orders.reconcile-fulfilment)', () => {
  it('fulfils paid orders left processing and schedules its next run', async () => {
    const stuck = await givenHeldOrder(server, tenant.id, { status: 'processing' });
    const recent = await givenHeldOrder(server, tenant.id, { status: 'processing' });
    await db().update(orders).set({ paidAt: new Date(Date.now() - 3600_000) }).where(eq(orders.id, stuck.orderId));
    await db().update(orders).set({ paidAt: new Date() }).where(eq(orders.id, recent.orderId));

    expect(await reconcileFulfilment({ deps: server.app.deps })).toBe(1);
    expect((await orderRow(stuck.orderId)).status).toBe('completed');
    expect(await ticketsOf(stuck.orderId)).toHaveLength(stuck.seats);
    // A recent one is still in its own job's hands.
    expect((await orderRow(recent.orderId)).status).toBe('processing');

    const next = (await db().select().from(jobs).where(eq(jobs.name, FULFIL_RECONCILE_JOB))).filter((j) => !j.doneAt);
    expect(next.length).toBeGreaterThanOrEqual(1);
    expect(Math.max(...next.map((j) => j.runAt.getTime()))).toBeGreaterThan(Date.now());
  });
});
