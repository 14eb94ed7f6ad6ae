import { randomUUID } from 'node:crypto';
import type { TBoxOfficeSaleResponse } from '@marquee/core';
import { and, eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cashDrawerMovements, cashDrawers, eventSalesTotals, orders, tickets, ticketTypes } from '../../db/schema/index.js';
import { signedIn } from '../../../test/actors.js';
import { givenEventOnSale, givenTenantWithSettings, givenUser, startServer, type Client, type GivenEventOnSale, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { BOX_OFFICE_PROVIDER, oneTripSalesWaiting } from './sell.js';

// Issue 23 (bo4): the box-office sales of an event that reach a node while its one-trip messages
// are under way (two lanes an event) go together in the next message of their lane (sell.ts
// sellBatchInOneTrip): one transaction, one take of them all. Each is written as it is alone; a refusal of any of them makes
// each sale again alone, so each answers as it would have alone. PostgreSQL only (one trip is).

let server: TestServer;
let tenant: GivenTenant;
let sellers: Array<{ client: Client; id: string }>;
let noDrawer: Client;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('batch.pg.test.ts needs TEST_DATABASE_URL');
  server = await startServer();
  tenant = await givenTenantWithSettings(server, { name: 'Batch Door' });
  sellers = [];
  for (let i = 0; i < 3; i++) {
    const user = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_box_office'] } });
    const client = await signedIn(server, user, tenant.url);
    expect((await client.post(`/api/tenants/${tenant.id}/cash-drawers`, { details: { openingFloat: 0 } })).status).toBeLessThan(300);
    sellers.push({ client, id: user.id });
  }
  // A seller whose shift has no open drawer: a cash sale of theirs is DRAWER_NOT_OPEN.
  noDrawer = await signedIn(server, await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_box_office'] } }), tenant.url);
});
afterAll(() => server?.close());

const db = () => server.app.deps.db;
const pool = () => (db() as unknown as { $client: pg.Pool }).$client;
type Sale = TBoxOfficeSaleResponse & { error?: { domainCode?: string } };
const sell = (c: Client, e: GivenEventOnSale, body: Record<string, unknown> = {}) =>
  c.post<Sale>(`/api/tenants/${tenant.id}/events/${e.id}/box-office/sales`, {
    idempotencyKey: randomUUID(),
    lines: [{ ticketTypeId: e.ticketTypeIds[0], quantity: 1 }],
    paymentMethod: 'cash',
    cashTendered: 100_000,
    ...body,
  });

async function until(what: string, check: () => Promise<boolean> | boolean) {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never: ${what}`);
}

/**
 * Holds the event's ticket type's row lock from another connection, sends two first sales (each
 * goes at once, alone, in one of the event's two lanes, and waits for the lock in its take), then
 * `more` sales (which wait on the node for those messages to end), and lets go once they all wait:
 * they go together, a message per lane. Answers the first two sales' answers, the others' answers,
 * and how many one-trip messages were sent after the first two.
 */
async function burst(e: GivenEventOnSale, more: Array<() => Promise<{ status: number; body: Sale }>>) {
  const holder = await pool().connect();
  let messages = 0;
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const query = proto.query;
  try {
    await holder.query('begin');
    await holder.query('select 1 from ticket_types where id = $1 for update', [e.ticketTypeIds[0]]);
    const firsts = [sell(sellers[0]!.client, e), sell(sellers[1]!.client, e)];
    await until('the first two sales wait for the lock', async () => {
      // The holder's transaction would otherwise see the activity as it was at its first read.
      await holder.query('select pg_stat_clear_snapshot()');
      const r = await holder.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
      return r.rows[0].n === 2;
    });
    proto.query = function (this: unknown, ...a: unknown[]) {
      if (typeof a[0] === 'string' && a[0].startsWith('begin;')) messages++;
      return query.apply(this, a);
    };
    const rest = more.map((m) => m());
    await until(`${more.length} sales wait for the first`, () => oneTripSalesWaiting(server.app.deps, tenant.id, e.id) === more.length);
    await holder.query('rollback');
    const answers = await Promise.all(rest);
    return { firsts: await Promise.all(firsts), answers, messages };
  } finally {
    proto.query = query;
    await holder.query('rollback').catch(() => undefined);
    holder.release();
  }
}

const ordersOf = (eventId: string) => db().select().from(orders).where(and(eq(orders.tenantId, tenant.id), eq(orders.eventId, eventId)));
const movementsOf = async (orderIds: string[]) =>
  orderIds.length ? db().select({ orderId: cashDrawerMovements.orderId, amount: cashDrawerMovements.amount, userId: cashDrawers.userId }).from(cashDrawerMovements).innerJoin(cashDrawers, eq(cashDrawers.id, cashDrawerMovements.drawerId)).where(inArray(cashDrawerMovements.orderId, orderIds)) : [];

describe('box-office sales that arrive together (issue 23, bo4)', () => {
  it('go in one message a lane, and each is written as it is alone: paid, its tickets, its cash in its seller\'s drawer, the counts', async () => {
    const e = await givenEventOnSale(server, tenant.id, { capacity: 100, ticketTypes: [{ name: 'Door', price: 2500, quantity: 100 }] });
    // The event's snapshot kept on the node, as at a box office at work.
    expect((await sell(sellers[0]!.client, e)).status).toBe(200);
    const [s0, s1, s2] = sellers;
    const { firsts, answers, messages } = await burst(e, [
      () => sell(s1!.client, e),
      () => sell(s2!.client, e, { paymentMethod: 'card_terminal', cashTendered: null, terminalReference: 'T-1' }),
      () => sell(s0!.client, e, { lines: [{ ticketTypeId: e.ticketTypeIds[0], quantity: 3 }] }),
      () => sell(s1!.client, e),
    ]);
    expect(firsts.map((f) => f.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    // The four that waited went in two messages, one per lane (one each before).
    expect(messages).toBe(2);
    const sold = [...firsts, ...answers].map((a) => a.body);
    expect(sold.every((s) => s.replayed === false)).toBe(true);
    expect(new Set(sold.map((s) => s.orderId)).size).toBe(6);
    expect(sold.map((s) => s.tickets.length)).toEqual([1, 1, 1, 1, 3, 1]);
    expect(sold[3]!.paymentMethod).toBe('card_terminal');
    expect(sold[3]!.terminalReference).toBe('T-1');

    const rows = await ordersOf(e.id);
    expect(rows).toHaveLength(7);
    for (const s of sold) {
      const o = rows.find((r) => r.id === s.orderId)!;
      expect(o).toMatchObject({ status: 'processing', channel: 'BACKEND', paymentMethod: s.paymentMethod, totalAmount: s.totalAmount, paymentProvider: BOX_OFFICE_PROVIDER });
      expect(o.paidAt).not.toBeNull();
      expect(await db().select().from(tickets).where(eq(tickets.orderId, o.id))).toHaveLength(s.tickets.length);
    }
    // Cash into each cash sale's own seller's drawer, once; nothing for the card sale.
    const moved = await movementsOf(sold.map((s) => s.orderId));
    expect(moved).toHaveLength(5);
    const sellerOf = [s0!, s1!, s1!, s2!, s0!, s1!].map((s) => s.id);
    for (const [i, s] of sold.entries()) {
      const m = moved.filter((x) => x.orderId === s.orderId);
      if (s.paymentMethod === 'cash') expect(m).toEqual([{ orderId: s.orderId, amount: s.totalAmount, userId: sellerOf[i] }]);
      else expect(m).toEqual([]);
    }
    // The inventory and the event's report rollup moved by exactly what was sold (1 before + 8).
    const [type] = await db().select().from(ticketTypes).where(eq(ticketTypes.id, e.ticketTypeIds[0]!));
    expect(type!.remaining).toBe(100 - 9);
    const [totals] = await db().select().from(eventSalesTotals).where(eq(eventSalesTotals.eventId, e.id));
    expect(totals).toMatchObject({ orders: 7, ticketsSold: 9 });
  });

  it('with a refusal among them, each sale answers as it would alone: a key sent twice sells once, no drawer is refused, the others sell', async () => {
    const e = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'Door', price: 2500, quantity: 100 }] });
    expect((await sell(sellers[0]!.client, e)).status).toBe(200);
    const [s0, s1, s2] = sellers;
    const twice = randomUUID();
    const refusedKey = randomUUID();
    const { firsts, answers } = await burst(e, [
      () => sell(s1!.client, e, { idempotencyKey: twice }),
      () => sell(s2!.client, e, { idempotencyKey: twice }),
      () => sell(noDrawer, e, { idempotencyKey: refusedKey }),
      () => sell(s0!.client, e),
    ]);
    expect(firsts.map((f) => f.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 409, 200]);
    const [a, b, refused, other] = answers.map((x) => x.body);
    expect(b!.orderUID).toBe(a!.orderUID);
    expect([a!.replayed, b!.replayed].sort()).toEqual([false, true]);
    expect(refused!.error?.domainCode).toBe('DRAWER_NOT_OPEN');
    expect(other!.replayed).toBe(false);
    const rows = await ordersOf(e.id);
    // The warm-up, the first two, the key's one sale and the other: nothing of the refused sale.
    expect(rows).toHaveLength(5);
    expect(rows.filter((r) => r.idempotencyKey === twice)).toHaveLength(1);
    expect(rows.filter((r) => r.idempotencyKey === refusedKey)).toHaveLength(0);
    expect(rows.every((r) => r.status === 'processing')).toBe(true);
    const [type] = await db().select().from(ticketTypes).where(eq(ticketTypes.id, e.ticketTypeIds[0]!));
    expect(type!.remaining).toBe(100 - 5);
    expect(await movementsOf(rows.map((r) => r.id))).toHaveLength(5);
  });

  it('the last tickets: those that fit are sold, the others are refused with what is left, never more than there is', async () => {
    const e = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'Last', price: 2500, quantity: 5 }] });
    expect((await sell(sellers[0]!.client, e)).status).toBe(200);
    const { firsts, answers } = await burst(
      e,
      [0, 1, 2, 0, 1].map((i) => () => sell(sellers[i]!.client, e)),
    );
    expect(firsts.map((f) => f.status)).toEqual([200, 200]);
    // 5 tickets: the warm-up, the first two and two of the five that waited; the other three sold out.
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => [a.status, (a.body as { error?: { domainCode?: string } }).error?.domainCode])).toEqual(Array(3).fill([409, 'CART_CONFLICT']));
    const [type] = await db().select().from(ticketTypes).where(eq(ticketTypes.id, e.ticketTypeIds[0]!));
    expect(type!.remaining).toBe(0);
    expect((await ordersOf(e.id)).filter((o) => o.status === 'processing')).toHaveLength(5);
  });
});
