import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutPayload, givenEventOnSale, givenTenantWithSettings, givenUser, startServer, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { jobs, orderLines, orders, outbox, ticketTypes, waitlistEntries } from '../../db/schema/index.js';
import { expireHold } from '../orders/holds.js';

// Issue 24: the waiting list under concurrency, on two app nodes sharing one PostgreSQL database.
// Releases (holds running out), offer rounds (the jobs they queue, run by both nodes at once),
// public buyers, claims and offers running out all race; afterwards no ticket is out twice, no
// more offers are outstanding than tickets came back, each person got each offer once (one mail),
// and the offers went in join order. PostgreSQL only (vitest.config.ts: *.pg.test.ts).

let nodeA: TestServer;
let nodeB: TestServer;
let tenant: GivenTenant;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('waitlist.pg.test.ts needs TEST_DATABASE_URL');
  nodeA = await startServer();
  nodeB = await startServer({}, { peerOf: nodeA });
  tenant = await givenTenantWithSettings(nodeA);
});
afterAll(async () => {
  await nodeB?.close();
  await nodeA?.close();
});

const db = () => nodeA.app.deps.db;
const node = (i: number) => (i % 2 ? nodeB : nodeA);
const ordersPath = (eventId: string) => `/api/p/tenants/${tenant.id}/events/${eventId}/orders`;

/** No job failed (a deadlock or a broken check would show here, retried later instead of run). */
async function noFailedJobs() {
  expect(await db().select({ name: jobs.name, error: jobs.lastError }).from(jobs).where(isNotNull(jobs.lastError))).toEqual([]);
}

/** Both nodes run jobs until neither finds one. */
async function drainBoth() {
  for (let i = 0; i < 50; i++) {
    const ran = await Promise.all([nodeA.app.deps.jobs.runDue(50), nodeB.app.deps.jobs.runDue(50)]);
    if (ran[0] + ran[1] === 0) return;
  }
}

/** Held (draft), paid or offered tickets of the event, by who holds them. */
async function outstanding(eventId: string) {
  return db()
    .select({ orderId: orders.id, email: orders.email, status: orders.status, entryId: orders.waitlistEntryId, quantity: orderLines.quantity })
    .from(orders)
    .innerJoin(orderLines, and(eq(orderLines.tenantId, orders.tenantId), eq(orderLines.orderId, orders.id)))
    .where(and(eq(orders.eventId, eventId), inArray(orders.status, ['draft', 'processing', 'completed'])));
}

async function soldOutWithList(total: number, people: number) {
  const event = await givenEventOnSale(nodeA, tenant.id, { capacity: total, ticketTypes: [{ name: 'Flash', price: 2500, quantity: total }] });
  const typeId = event.ticketTypeIds[0]!;
  const holds = await Promise.all(
    Array.from({ length: total }, (_, i) =>
      node(i).client(tenant.url).post(ordersPath(event.id), checkoutPayload([{ ticketTypeId: typeId, quantity: 1 }], { email: `holder${i}@example.test` })),
    ),
  );
  expect(holds.every((h) => h.status === 201)).toBe(true);
  for (let i = 0; i < people; i++) {
    const res = await node(i).client(tenant.url).post(`/api/p/tenants/${tenant.id}/events/${event.id}/waitlist`, { ticketTypeId: typeId, email: `fan${String(i).padStart(3, '0')}@example.test`, quantity: 1 });
    expect(res.status).toBe(201);
  }
  const drafts = await db().select({ id: orders.id }).from(orders).where(and(eq(orders.eventId, event.id), eq(orders.status, 'draft')));
  return { event, typeId, drafts: drafts.map((d) => d.id) };
}

async function expireNow(orderIds: string[]) {
  await db().update(orders).set({ holdExpiresAt: new Date(Date.now() - 1000) }).where(inArray(orders.id, orderIds));
}

describe('the waiting list on two nodes', () => {
  it('releases, offer rounds on both nodes and public buyers race: no ticket out twice, one offer and one mail per person, in join order', async () => {
    const total = 30;
    const { event, typeId, drafts } = await soldOutWithList(total, 60);
    await expireNow(drafts);
    // Every hold runs out on one node or the other while both run the offer rounds the releases
    // queue, and 40 strangers try to buy the tickets coming back.
    await Promise.all([
      ...drafts.map((orderId, i) => expireHold({ deps: node(i).app.deps, orderId })),
      ...Array.from({ length: 40 }, (_, i) =>
        node(i).client(tenant.url).post(ordersPath(event.id), checkoutPayload([{ ticketTypeId: typeId, quantity: 1 }], { email: `stranger${i}@example.test` })),
      ),
      drainBoth(),
      drainBoth(),
    ]);
    await drainBoth();

    const [type] = await db().select().from(ticketTypes).where(eq(ticketTypes.id, typeId));
    const out = await outstanding(event.id);
    const taken = out.reduce((n, o) => n + o.quantity, 0);
    // Every ticket is free, held by a stranger, or offered: never two of these at once.
    expect(type!.remaining + taken).toBe(total);
    const offers = out.filter((o) => o.entryId !== null);
    const entries = await db().select().from(waitlistEntries).where(eq(waitlistEntries.eventId, event.id));
    const offered = entries.filter((e) => e.state === 'offered');
    // With people still waiting, nothing came back without being offered (or bought by a stranger).
    expect(type!.remaining).toBe(0);
    expect(offers).toHaveLength(offered.length);
    // One offer per person, each its own entry, and the first ones in join order.
    expect(new Set(offers.map((o) => o.entryId)).size).toBe(offers.length);
    const bySeq = [...entries].sort((a, b) => a.seq - b.seq);
    expect(bySeq.slice(0, offered.length).every((e) => e.state === 'offered')).toBe(true);
    expect(bySeq.slice(offered.length).every((e) => e.state === 'waiting')).toBe(true);
    const mails = await db()
      .select({ to: outbox.to, n: sql<number>`count(*)::int` })
      .from(outbox)
      .where(and(eq(outbox.tenantId, tenant.id), sql`${outbox.subject} = ${`Tickets are available for ${event.name}`}`))
      .groupBy(outbox.to);
    expect(mails.filter((m) => m.n !== 1)).toEqual([]);
    expect(mails.map((m) => m.to).sort()).toEqual(offered.map((e) => e.email).sort());
    await noFailedJobs();
  });

  it('claims race their offers running out on the other node: each offer is bought or passed on, never both', async () => {
    const total = 12;
    const { event, typeId, drafts } = await soldOutWithList(total, 30);
    await expireNow(drafts);
    await Promise.all(drafts.map((orderId, i) => expireHold({ deps: node(i).app.deps, orderId })));
    await drainBoth();
    const offerDrafts = await db()
      .select({ id: orders.id, orderUid: orders.orderUid, email: orders.email })
      .from(orders)
      .where(and(eq(orders.eventId, event.id), eq(orders.status, 'draft'), isNotNull(orders.waitlistEntryId)));
    expect(offerDrafts).toHaveLength(total);
    await expireNow(offerDrafts.map((o) => o.id));

    const placed = await Promise.all(
      offerDrafts.flatMap((o, i) => [
        node(i)
          .client(tenant.url)
          .post(ordersPath(event.id), { ...checkoutPayload([{ ticketTypeId: typeId, quantity: 1 }], { email: o.email }), draftOrderUID: o.orderUid }),
        expireHold({ deps: node(i + 1).app.deps, orderId: o.id }).then(() => null),
      ]),
    );
    await drainBoth();
    const answers = placed.filter((p) => p !== null);
    expect(answers.every((a) => a!.status === 201 || a!.status === 409)).toBe(true);

    const [type] = await db().select().from(ticketTypes).where(eq(ticketTypes.id, typeId));
    const out = await outstanding(event.id);
    expect(type!.remaining + out.reduce((n, o) => n + o.quantity, 0)).toBe(total);
    // No person holds two of the tickets: an offer taken over by its order, or passed to the next.
    const perEmail = new Map<string, number>();
    for (const o of out) perEmail.set(o.email, (perEmail.get(o.email) ?? 0) + o.quantity);
    expect([...perEmail.values()].every((n) => n === 1)).toBe(true);
    const entries = await db().select().from(waitlistEntries).where(eq(waitlistEntries.eventId, event.id));
    const live = await db()
      .select({ entryId: orders.waitlistEntryId, n: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.eventId, event.id), eq(orders.status, 'draft'), isNotNull(orders.waitlistEntryId)))
      .groupBy(orders.waitlistEntryId);
    expect(live.every((l) => l.n === 1)).toBe(true);
    expect(entries.filter((e) => e.state === 'offered').length).toBeGreaterThanOrEqual(live.length);
    await noFailedJobs();
  });

  it("the organiser's removals race claims and rounds: every answer clear, no ticket out twice, no deadlock", async () => {
    const total = 10;
    const { event, typeId, drafts } = await soldOutWithList(total, 25);
    await expireNow(drafts);
    await Promise.all(drafts.map((orderId, i) => expireHold({ deps: node(i).app.deps, orderId })));
    await drainBoth();
    const offerDrafts = await db()
      .select({ orderUid: orders.orderUid, email: orders.email, entryId: orders.waitlistEntryId })
      .from(orders)
      .where(and(eq(orders.eventId, event.id), eq(orders.status, 'draft'), isNotNull(orders.waitlistEntryId)));
    expect(offerDrafts).toHaveLength(total);
    const u = await givenUser(nodeA, { tenant: { id: tenant.id, roles: ['tenant_admin'] } });
    const admins = [nodeA.client(tenant.url), nodeB.client(tenant.url)];
    for (const c of admins) await c.login(u.email);
    const list = `/api/tenants/${tenant.id}/events/${event.id}/waitlist`;

    // Each offered person pays while the organiser removes them (the other node), and rounds run.
    const answers = await Promise.all([
      ...offerDrafts.flatMap((o, i) => [
        node(i).client(tenant.url).post(ordersPath(event.id), { ...checkoutPayload([{ ticketTypeId: typeId, quantity: 1 }], { email: o.email }), draftOrderUID: o.orderUid }),
        admins[(i + 1) % 2]!.delete(`${list}/entries/${o.entryId}`),
      ]),
      drainBoth(),
    ]);
    await drainBoth();
    const statuses = answers.flatMap((a) => (a ? [a.status] : []));
    expect(statuses.every((s) => [200, 201, 409].includes(s))).toBe(true);

    const [type] = await db().select().from(ticketTypes).where(eq(ticketTypes.id, typeId));
    const out = await outstanding(event.id);
    expect(type!.remaining + out.reduce((n, o) => n + o.quantity, 0)).toBe(total);
    // The removed people's offers went to the next in line: nobody holds two, and tickets did not sit free while people waited.
    const perEmail = new Map<string, number>();
    for (const o of out) perEmail.set(o.email, (perEmail.get(o.email) ?? 0) + o.quantity);
    expect([...perEmail.values()].every((n) => n === 1)).toBe(true);
    expect(type!.remaining).toBe(0);
    await noFailedJobs();
  });
});
