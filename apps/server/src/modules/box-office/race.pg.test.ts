import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, ticketSettings, ticketTypes } from '../../db/schema/index.js';
import { signedIn } from '../../../test/actors.js';
import { checkoutPayload, givenEventOnSale, givenTenantWithSettings, givenUser, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';

// Issue 23 "one inventory": the box office and the website take tickets through the same function
// (mq_take_holds) under the same locks, so together they never sell more than there is; comps are
// counted under the event's lock, so two sellers at once cannot pass the limit; a sale's key sells
// once however many times it is sent at once. Two app nodes on one PostgreSQL database.

let nodeA: TestServer;
let nodeB: TestServer;
let tenant: GivenTenant;
let sellers: Client[];

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('race.pg.test.ts needs TEST_DATABASE_URL');
  nodeA = await startServer();
  nodeB = await startServer({}, { peerOf: nodeA });
  tenant = await givenTenantWithSettings(nodeA);
  await nodeA.app.deps.db.update(ticketSettings).set({ maximumComplimentaryTickets: 5 }).where(eq(ticketSettings.tenantId, tenant.id));
  const users = await Promise.all([0, 1, 2, 3].map(() => givenUser(nodeA, { tenant: { id: tenant.id, roles: ['tenant_box_office'] } })));
  sellers = await Promise.all(users.map((u, i) => signedIn(i % 2 ? nodeB : nodeA, u, tenant.url)));
  // A cash sale takes the cash into the seller's open drawer (issue 23 part B, modules/cash-drawers).
  for (const c of sellers) await c.post(`/api/tenants/${tenant.id}/cash-drawers`, { details: { openingFloat: 0 } });
});
afterAll(async () => {
  await nodeB?.close();
  await nodeA?.close();
});

const db = () => nodeA.app.deps.db;
const saleBody = (ticketTypeId: string, extra: Record<string, unknown> = {}) => ({
  idempotencyKey: randomUUID(),
  lines: [{ ticketTypeId, quantity: 1 }],
  paymentMethod: 'cash',
  cashTendered: 1_000_000,
  ...extra,
});
const soldTickets = async (eventId: string) => {
  const [row] = await db()
    .select({ n: sql<number>`coalesce(sum(${orders.ticketCount}), 0)::int` })
    .from(orders)
    .where(and(eq(orders.eventId, eventId), inArray(orders.status, ['draft', 'processing', 'completed'])));
  return Number(row!.n);
};

describe('the box office and the website race on one PostgreSQL database', () => {
  it('sell exactly the 30 tickets there are, never more, whoever asks', async () => {
    const e = await givenEventOnSale(nodeA, tenant.id, { capacity: 30, ticketTypes: [{ name: 'Last', price: 2500, quantity: 30 }] });
    const t = e.ticketTypeIds[0]!;
    const web = (i: number) =>
      (i % 2 ? nodeB : nodeA).client(tenant.url).post(`/api/p/tenants/${tenant.id}/events/${e.id}/orders`, checkoutPayload([{ ticketTypeId: t, quantity: 1 }], { email: `web${i}@example.test` }));
    const door = (i: number) => sellers[i % sellers.length]!.post(`/api/tenants/${tenant.id}/events/${e.id}/box-office/sales`, saleBody(t));
    const results = await Promise.all(Array.from({ length: 80 }, (_, i) => (i % 2 ? web(i) : door(i))));
    const ok = results.filter((r) => r.status === 200 || r.status === 201);
    expect(ok).toHaveLength(30);
    expect(results.filter((r) => r.status === 409)).toHaveLength(50);
    // Both channels sold some of them.
    expect(results.some((r, i) => i % 2 === 0 && r.status === 200)).toBe(true);
    expect(results.some((r, i) => i % 2 === 1 && r.status === 201)).toBe(true);
    expect(await soldTickets(e.id)).toBe(30);
    const [type] = await db().select().from(ticketTypes).where(eq(ticketTypes.id, t));
    expect(type!.remaining).toBe(0);
  });

  it('four sellers giving comps at once never pass the limit of 5', async () => {
    const e = await givenEventOnSale(nodeA, tenant.id, { ticketTypes: [{ name: 'Guest', price: 2500, quantity: 100 }] });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        sellers[i % sellers.length]!.post(`/api/tenants/${tenant.id}/events/${e.id}/box-office/sales`, saleBody(e.ticketTypeIds[0]!, { paymentMethod: 'complimentary', cashTendered: null })),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error.domainCode === 'COMPLIMENTARY_LIMIT')).toBe(true);
    expect(await soldTickets(e.id)).toBe(5);
  });

  it('one key sent ten times at once from both nodes sells once', async () => {
    const e = await givenEventOnSale(nodeA, tenant.id, { ticketTypes: [{ name: 'Once', price: 2500, quantity: 100 }] });
    const body = saleBody(e.ticketTypeIds[0]!);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => sellers[i % sellers.length]!.post(`/api/tenants/${tenant.id}/events/${e.id}/box-office/sales`, body)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.orderUID)).size).toBe(1);
    expect(results.filter((r) => r.body.replayed === false)).toHaveLength(1);
    expect(await soldTickets(e.id)).toBe(1);
  });
});
