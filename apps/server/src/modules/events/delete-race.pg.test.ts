import { M } from '@marquee/core';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discountCodes, events, jobs, orderLines, orders, ticketTypes } from '../../db/schema/index.js';
import {
  checkoutPayload,
  givenEventOnSale,
  givenTenantAdmin,
  givenTenantWithSettings,
  startServer,
  type Client,
  type GivenEventOnSale,
  type GivenTenant,
  type Res,
  type TestServer,
} from '../../../test/harness.js';
import { HOLD_EXPIRY_JOB } from '../orders/holds.js';

// DELETE EVENT against PLACE ORDER and the console's writers of an event's ticket types and discount
// codes: exactly one wins, so there is never an order, ticket type or discount code of an event that
// no longer exists (docs/decisions.md "Deleting an event while someone buys"). A side connection
// holds a row lock to stop one side at a chosen point while the other goes on, so each interleaving
// is forced, not hoped for; then both run freely many times. PostgreSQL only: PGlite has one
// connection, so nothing there can interleave.

let server: TestServer;
let tenant: GivenTenant;
let admin: Client;
let buyer: Client;
let side: pg.Client;
/** Watches who waits; not the side connection, whose open transaction would see frozen statistics. */
let watch: pg.Client;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('delete-race.pg.test.ts needs TEST_DATABASE_URL');
  server = await startServer();
  tenant = await givenTenantWithSettings(server);
  admin = await givenTenantAdmin(server, tenant);
  buyer = server.client(tenant.url);
  side = new pg.Client({ connectionString: server.config.databaseUrl });
  await side.connect();
  watch = new pg.Client({ connectionString: server.config.databaseUrl });
  await watch.connect();
});
afterAll(async () => {
  await side?.end();
  await watch?.end();
  await server?.close();
});

const db = () => server.app.deps.db;
const eventPath = (e: { id: string }) => `/api/tenants/${tenant.id}/events/${e.id}`;
const placeOrder = (e: GivenEventOnSale, email = 'buyer@example.test') =>
  buyer.post(`/api/p/tenants/${tenant.id}/events/${e.id}/orders`, checkoutPayload([{ ticketTypeId: e.ticketTypeIds[0]!, quantity: 2 }], { email }));

/** How many sessions on this test's database wait for a lock right now. */
async function lockWaiters(): Promise<number> {
  const name = new URL(server.config.databaseUrl!).pathname.slice(1);
  const res = await watch.query(`select count(*)::int as n from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'`, [name]);
  return res.rows[0].n as number;
}

/** Resolves once `n` sessions wait for a lock; fails after 10 s. */
async function untilWaiting(n: number): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if ((await lockWaiters()) >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no ${n} sessions waited for a lock`);
}

/** Either the request answered, or it waits for a lock (as the n-th waiter). */
async function answeredOrWaiting(request: Promise<Res>, n: number): Promise<void> {
  let answered = false;
  void request.then(() => (answered = true));
  for (let i = 0; i < 1000 && !answered; i++) {
    if ((await lockWaiters()) >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (!answered) throw new Error('the request neither answered nor waited for a lock');
}

/** Runs `sql` on the side connection, in a transaction that stays open until the returned release. */
async function sideLock(sql: string, params: unknown[]): Promise<() => Promise<void>> {
  await side.query('begin');
  const res = await side.query(sql, params);
  expect(res.rowCount).toBe(1);
  return async () => void (await side.query('commit'));
}

/** What is left of the event: the event row, and its orders, lines, expiry jobs, ticket types and codes. */
async function leftOf(e: { id: string }) {
  const [event] = await db().select().from(events).where(eq(events.id, e.id));
  const own = await db().select().from(orders).where(and(eq(orders.tenantId, tenant.id), eq(orders.eventId, e.id)));
  const lines = [];
  const expiryJobs = [];
  for (const o of own) {
    lines.push(...(await db().select().from(orderLines).where(eq(orderLines.orderId, o.id))));
    expiryJobs.push(...(await db().select().from(jobs).where(eq(jobs.dedupeKey, `${HOLD_EXPIRY_JOB}:${o.id}`))));
  }
  const types = await db().select().from(ticketTypes).where(eq(ticketTypes.eventId, e.id));
  const codes = await db().select().from(discountCodes).where(eq(discountCodes.eventId, e.id));
  return { event, orders: own, lines, expiryJobs, types, codes };
}

/**
 * Exactly one of the two won: the delete was refused (409) and the order was placed, or the event
 * was deleted and the buyer was told it is not on sale (or not found), with nothing written.
 */
async function expectOneWinner(e: GivenEventOnSale, deleted: Res, placed: Res) {
  const left = await leftOf(e);
  if (deleted.status === 200) {
    expect({ placed: placed.status, code: placed.body?.error?.domainCode }).toMatchObject(
      placed.status === 404 ? { placed: 404 } : { placed: 409, code: 'EVENT_NOT_ON_SALE' },
    );
    expect(left).toEqual({ event: undefined, orders: [], lines: [], expiryJobs: [], types: [], codes: [] });
  } else {
    expect(deleted.status).toBe(409);
    expect(deleted.body.error.message).toBe(M.eventHasOrders);
    expect(placed.status).toBe(201);
    expect(left.event).toBeDefined();
    expect(left.orders.map((o) => o.orderUid)).toEqual([placed.body.orderUID]);
    expect(left.lines).toHaveLength(1);
    expect(left.expiryJobs).toHaveLength(1);
  }
}

describe('DELETE EVENT racing PLACE ORDER on PostgreSQL', () => {
  it('a hold that comes while the delete is under way finds the event gone: 409 not on sale, nothing written', async () => {
    const e = await givenEventOnSale(server, tenant.id, { discounts: [{ code: 'STALL', kind: 'percent', value: 10 }] });
    // The delete stops at the event's discount code, after it has looked for orders.
    const release = await sideLock('select 1 from discount_codes where id = $1 for update', [e.discountCodeIds[0]]);
    const deleting = admin.delete(eventPath(e));
    await untilWaiting(1);
    // The order (without the code) comes now: it must wait for the delete, not slip in under it.
    const placing = placeOrder(e);
    await answeredOrWaiting(placing, 2);
    await release();
    const [deleted, placed] = await Promise.all([deleting, placing]);
    expect(deleted.status).toBe(200);
    // Refused by the hold itself (mq_take_holds found the event gone after its wait), not by the
    // checkout's first read, which still saw the event.
    expect(placed.status).toBe(409);
    await expectOneWinner(e, deleted, placed);
  });

  it('a delete that comes while a hold is under way waits for it and sees its order: 409', async () => {
    const e = await givenEventOnSale(server, tenant.id);
    // The hold stops at the event's row, with its ticket types already taken under lock.
    const release = await sideLock('select 1 from events where id = $1 for share', [e.id]);
    const placing = placeOrder(e);
    await untilWaiting(1);
    const deleting = admin.delete(eventPath(e));
    await answeredOrWaiting(deleting, 2);
    await release();
    const [deleted, placed] = await Promise.all([deleting, placing]);
    expect(deleted.status).toBe(409);
    await expectOneWinner(e, deleted, placed);
  });

  it('exactly one wins each of 20 free races (no deadlock, no 500)', async () => {
    for (let round = 0; round < 20; round++) {
      const e = await givenEventOnSale(server, tenant.id, { capacity: 50 });
      // Started together; the order sometimes a little before, sometimes a little after.
      const [deleted, placed] = await Promise.all([
        (async () => {
          if (round % 2) await new Promise((resolve) => setTimeout(resolve, round % 4));
          return admin.delete(eventPath(e));
        })(),
        placeOrder(e, `racer${round}@example.test`),
      ]);
      await expectOneWinner(e, deleted, placed);
    }
  });
});

describe('DELETE EVENT racing a new ticket type or discount code on PostgreSQL', () => {
  const writers = [
    ['ticket type', (e: { id: string }) => admin.post(`${eventPath(e)}/ticket-types`, { details: { name: 'Late', price: 1000, quantity: 5 } })],
    ['discount code', (e: { id: string }) => admin.post(`${eventPath(e)}/discount-codes`, { details: { code: 'LATE', kind: 'percent', value: 10 } })],
  ] as const;

  for (const [what, create] of writers) {
    it(`a ${what} created while the delete is under way is deleted with the event or refused (404), never left behind`, async () => {
      const e = await givenEventOnSale(server, tenant.id, { status: 'draft' });
      // The delete stops at the event's row (a share lock a foreign key check would also take).
      const release = await sideLock('select 1 from events where id = $1 for key share', [e.id]);
      const deleting = admin.delete(eventPath(e));
      await untilWaiting(1);
      const creating = create(e);
      await answeredOrWaiting(creating, 2);
      await release();
      const [deleted, created] = await Promise.all([deleting, creating]);
      expect(deleted.status).toBe(200);
      expect([201, 404]).toContain(created.status);
      const left = await leftOf(e);
      expect(left).toEqual({ event: undefined, orders: [], lines: [], expiryJobs: [], types: [], codes: [] });
    });
  }
});

describe('DELETE EVENT racing the page editor on PostgreSQL', () => {
  it('a draft saved while the delete is under way answers 404 (not a 500 from the page foreign key) and leaves no page', async () => {
    const e = await givenEventOnSale(server, tenant.id, { status: 'draft' });
    // Stands in for the delete that has locked the event row: the side connection deletes it below.
    await side.query('begin');
    expect((await side.query('select 1 from events where id = $1 for update', [e.id])).rowCount).toBe(1);
    const saving = admin.put(`${eventPath(e)}/page/draft`, { project: '{}', html: '<h1>Late</h1>', css: '' });
    await answeredOrWaiting(saving, 1);
    await side.query('delete from ticket_types where event_id = $1', [e.id]);
    await side.query('delete from events where id = $1', [e.id]);
    await side.query('commit');
    const saved = await saving;
    expect(saved.status).toBe(404);
    const pages = await db().execute(sql`select count(*)::int as n from event_pages where event_id = ${e.id}`);
    expect((pages as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
  });
});
