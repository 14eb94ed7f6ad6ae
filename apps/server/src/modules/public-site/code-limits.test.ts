import { M } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, ticketTypes } from '../../db/schema/index.js';
import {
  checkoutPayload,
  givenEventOnSale,
  givenTenantWithSettings,
  startServer,
  type GivenEventOnSale,
  type GivenTenant,
  type Res,
  type TestServer,
} from '../../../test/harness.js';

// RATE_LIMIT_CODES_PER_10_MINUTES = 3 and RATE_LIMIT_ORDERS_PER_MINUTE = 6. Every test speaks
// from its own client addresses (the server trusts X-Forwarded-For from the local proxy).
let server: TestServer;
let tenant: GivenTenant;
let event: GivenEventOnSale;

beforeAll(async () => {
  server = await startServer({ rateLimitCodesPer10Minutes: 3, rateLimitOrdersPerMinute: 6 });
  tenant = await givenTenantWithSettings(server);
  event = await givenEventOnSale(server, tenant.id, {
    ticketTypes: [{ name: 'General Admission', price: 4500, quantity: 500 }],
    discounts: [
      { code: 'RIGHT10', kind: 'percent', value: 10 },
      { code: 'USEDUP', kind: 'amount', value: 500, usageLimit: 0 },
    ],
  });
});
afterAll(async () => {
  await server.close();
});

let nextIp = 10;
const newAddress = () => ({ 'x-forwarded-for': `198.51.100.${nextIp++}` });

const site = () => server.client(tenant.url);
const ga = () => event.ticketTypeIds[0]!;
const price = (discountCode: string | undefined, ip: Record<string, string>) =>
  site().post(`/api/p/events/${event.urlName}/price`, { lines: [{ ticketTypeId: ga(), quantity: 1 }], ...(discountCode === undefined ? {} : { discountCode }) }, ip);
const ordersPath = () => `/api/p/tenants/${tenant.id}/events/${event.id}/orders`;
let buyer = 0;
const placeOrder = (discountCode: string | undefined, ip: Record<string, string>) =>
  site().post(
    ordersPath(),
    checkoutPayload([{ ticketTypeId: ga(), quantity: 1 }], { email: `limit${buyer++}@example.test`, ...(discountCode === undefined ? {} : { discountCode }) }),
    ip,
  );

function expectWrongCode(res: Res) {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ error: { code: 'BAD_REQUEST', message: M.invalidInput, fields: { discountCode: M.invalidInputBody }, domainCode: 'DISCOUNT_INVALID' } });
}

function expectLimited(res: Res, windowSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: { code: 'RATE_LIMITED', message: M.tooManyRequests } });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(windowSeconds);
}

async function remaining() {
  const [row] = await server.app.deps.db.select({ remaining: ticketTypes.remaining }).from(ticketTypes).where(eq(ticketTypes.id, ga()));
  return row!.remaining;
}

describe('wrong discount codes: 3 per address in 10 minutes', () => {
  it('price: the 4th wrong code is refused, then a right code too; requests without a code still work', async () => {
    const ip = newAddress();
    for (const code of ['NOPE1', 'nope2', 'USEDUP']) expectWrongCode(await price(code, ip));
    expectLimited(await price('NOPE4', ip), 600);
    // The limiter answers before the code is looked at, so it tells nothing about the code.
    expectLimited(await price('RIGHT10', ip), 600);
    expectLimited(await price('right10', ip), 600);

    const plain = await price(undefined, ip);
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ subtotal: 4500, discount: 0, discountCode: null });
    const cart = await site().post(`/api/p/events/${event.urlName}/cart/validate`, { lines: [{ ticketTypeId: ga(), quantity: 1 }] }, ip);
    expect(cart.status).toBe(200);
    expect(cart.body).toMatchObject({ valid: true, blocked: false });
  });

  it('another address is not affected', async () => {
    const limited = newAddress();
    for (let i = 0; i < 3; i++) expectWrongCode(await price(`WRONG${i}`, limited));
    expectLimited(await price('RIGHT10', limited), 600);

    const other = newAddress();
    const right = await price('RIGHT10', other);
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ subtotal: 4500, discount: 450, discountCode: 'RIGHT10' });
    expectWrongCode(await price('WRONG9', other));
  });

  it('right codes are not counted: a busy address keeps applying them', async () => {
    const ip = newAddress();
    for (let i = 0; i < 8; i++) expect((await price('RIGHT10', ip)).status).toBe(200);
    for (let i = 0; i < 3; i++) expectWrongCode(await price(`MISS${i}`, ip));
    expectLimited(await price('RIGHT10', ip), 600);
  });

  it('PLACE ORDER: wrong codes count together with pricing, and a refused order holds nothing', async () => {
    const ip = newAddress();
    expectWrongCode(await price('GUESS1', ip));
    expectWrongCode(await placeOrder('GUESS2', ip));
    expectWrongCode(await price('GUESS3', ip));

    const before = await remaining();
    const refused = await placeOrder('RIGHT10', ip);
    expectLimited(refused, 600);
    expect(await remaining()).toBe(before);
    expect(await server.app.deps.db.select({ id: orders.id }).from(orders).where(eq(orders.email, `limit${buyer - 1}@example.test`))).toEqual([]);
    expectLimited(await price('RIGHT10', ip), 600);

    // Without a code the order goes through, from the same address.
    const plain = await placeOrder(undefined, ip);
    expect(plain.status).toBe(201);
    expect(plain.body.breakdown).toMatchObject({ discount: 0, discountCode: null });
    // An empty code is no code.
    expect((await placeOrder('', ip)).status).toBe(201);
  });

  it('PLACE ORDER: a right code from a fresh address is applied', async () => {
    const res = await placeOrder('right10', newAddress());
    expect(res.status).toBe(201);
    expect(res.body.breakdown).toMatchObject({ discount: 450, discountCode: 'RIGHT10' });
  });

  it('a burst of concurrent guesses gets no more than the limit answered', async () => {
    const ip = newAddress();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => price(`BURST${i}`, ip)));
    expect(answers.filter((r) => r.status === 400)).toHaveLength(3);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(9);
    for (const r of answers) (r.status === 400 ? expectWrongCode : (x: Res) => expectLimited(x, 600))(r);
  });
});

describe('PLACE ORDER: 6 per address per minute', () => {
  it('the 7th order from one address is refused; another address is not', async () => {
    const ip = newAddress();
    for (let i = 0; i < 6; i++) expect((await placeOrder(undefined, ip)).status).toBe(201);
    const before = await remaining();
    expectLimited(await placeOrder(undefined, ip), 60);
    expectLimited(await placeOrder('RIGHT10', ip), 60);
    expect(await remaining()).toBe(before);

    expect((await placeOrder(undefined, newAddress())).status).toBe(201);
    // Pricing is not part of the order limit.
    expect((await price(undefined, ip)).status).toBe(200);
  });
});
