import { and, eq, sql } from 'drizzle-orm';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, ticketTypes } from '../../db/schema/index.js';
import { checkoutPayload, givenEventOnSale, givenTenantWithSettings, startServer, type GivenEventOnSale, type GivenTenant, type TestServer } from '../../../test/harness.js';

// Issue 26 (reads4): ORDERS_IN_FLIGHT orders at most are past their first checks at once on a node
// (platform/in-flight.ts); the others wait for their turn before anything is read or held for them,
// and then run as before. Through HTTP, on the database the suite runs on. The gateway's checkout is
// held open (a gate in front of the test driver's createCheckout) so that the first orders stay in
// flight while the others arrive; the metrics say when every order has reached the server.

const TOKEN = 'metrics-token-0123456789abcdef';
const LIMIT = 2;

let server: TestServer;
let tenant: GivenTenant;
let gate: { open: () => void; wait: Promise<void> };
let atCheckout = 0;

const newGate = () => {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { open, wait };
};

beforeAll(async () => {
  server = await startServer({ ordersInFlight: LIMIT, metrics: { host: '127.0.0.1', token: TOKEN, cacheMs: 0 } });
  tenant = await givenTenantWithSettings(server);
  const payments = server.app.deps.payments;
  const createCheckout = payments.createCheckout.bind(payments);
  gate = newGate();
  gate.open();
  payments.createCheckout = async (input) => {
    atCheckout += 1;
    await gate.wait;
    return createCheckout(input);
  };
});
afterAll(async () => {
  gate.open();
  await server.close();
});

const ordersPath = (e: GivenEventOnSale) => `/api/p/tenants/${tenant.id}/events/${e.id}/orders`;

async function gauge(name: string): Promise<number | undefined> {
  const res = await server.client().get('/metrics', { authorization: `Bearer ${TOKEN}` });
  expect(res.status).toBe(200);
  const line = String(res.body)
    .split('\n')
    .find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

/** Polls until `check` is true (each poll an HTTP scrape), failing after 20 s. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function drafts(e: GivenEventOnSale): Promise<number> {
  const [row] = await server.app.deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(eq(orders.eventId, e.id), eq(orders.status, 'draft')));
  return Number(row?.n);
}

describe('ORDERS_IN_FLIGHT', () => {
  it('runs at most ORDERS_IN_FLIGHT orders at once: the others hold nothing until a turn is free, then all are answered', async () => {
    const e = await givenEventOnSale(server, tenant.id, { capacity: 10, ticketTypes: [{ name: 'Flash', price: 2500, quantity: 10 }] });
    gate = newGate();
    atCheckout = 0;
    const buyers = Array.from({ length: 5 }, (_, i) => i);
    const answers = Promise.all(
      buyers.map((i) => server.client(tenant.url).post(ordersPath(e), checkoutPayload([{ ticketTypeId: e.ticketTypeIds[0]!, quantity: 1 }], { email: `queued${i}@example.test` }))),
    );

    // Every order has reached the server: LIMIT running (held at the gateway), the rest waiting.
    await until(async () => (await gauge('marquee_orders_waiting')) === buyers.length - LIMIT, `${buyers.length - LIMIT} orders waiting`);
    expect(await gauge('marquee_orders_running')).toBe(LIMIT);
    await until(async () => atCheckout === LIMIT, `${LIMIT} orders at the gateway`);
    // Only the running orders took tickets; the waiting ones have read and written nothing.
    expect(await drafts(e)).toBe(LIMIT);
    const [stock] = await server.app.deps.db.select({ remaining: ticketTypes.remaining }).from(ticketTypes).where(eq(ticketTypes.id, e.ticketTypeIds[0]!));
    expect(stock?.remaining).toBe(10 - LIMIT);

    gate.open();
    const results = await answers;
    expect(results.map((r) => r.status)).toEqual(buyers.map(() => 201));
    expect(atCheckout).toBe(buyers.length);
    expect(await drafts(e)).toBe(buyers.length);
    expect(await gauge('marquee_orders_running')).toBe(0);
    expect(await gauge('marquee_orders_waiting')).toBe(0);
  });

  it('a waiting order whose client goes away is never run, and its turn goes to the next', async () => {
    const e = await givenEventOnSale(server, tenant.id, { capacity: 10, ticketTypes: [{ name: 'Flash', price: 2500, quantity: 10 }] });
    gate = newGate();
    atCheckout = 0;
    const client = server.client(tenant.url);
    const order = (i: number) => client.post(ordersPath(e), checkoutPayload([{ ticketTypeId: e.ticketTypeIds[0]!, quantity: 1 }], { email: `gone${i}@example.test` }));
    const first = Array.from({ length: LIMIT }, (_, i) => order(i));
    await until(async () => (await gauge('marquee_orders_running')) === LIMIT, `${LIMIT} orders running`);

    // A raw request that waits, then closes its connection.
    const body = JSON.stringify(checkoutPayload([{ ticketTypeId: e.ticketTypeIds[0]!, quantity: 1 }], { email: 'leaver@example.test' }));
    const leaver = http.request({
      host: '127.0.0.1',
      port: server.port,
      method: 'POST',
      path: ordersPath(e),
      headers: { host: `${tenant.url}.${server.config.baseDomain}:${server.port}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    leaver.on('error', () => {});
    leaver.end(body);
    await until(async () => (await gauge('marquee_orders_waiting')) === 1, 'the leaver waiting');
    const last = order(99);
    await until(async () => (await gauge('marquee_orders_waiting')) === 2, 'the leaver and the last waiting');
    leaver.destroy();
    await until(async () => (await gauge('marquee_orders_waiting')) === 1, 'the leaver gone from the list');

    gate.open();
    const results = await Promise.all([...first, last]);
    expect(results.map((r) => r.status)).toEqual([...first.map(() => 201), 201]);
    // The leaver's order was never run: three drafts, none of them its.
    expect(atCheckout).toBe(LIMIT + 1);
    expect(await drafts(e)).toBe(LIMIT + 1);
    const [left] = await server.app.deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.eventId, e.id), eq(orders.email, 'leaver@example.test')));
    expect(Number(left?.n)).toBe(0);
    expect(await gauge('marquee_orders_running')).toBe(0);
  });
});
