import { randomUUID } from 'node:crypto';
import { PAYOUT_PATHS } from '@marquee/core';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, orders, paymentSettings, payoutLines, payouts, testTransfers } from '../../db/schema/index.js';
import { givenPlatformAdmin, givenTenantWithSettings, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { signedIn } from '../../../test/actors.js';
import { syncPayoutLines } from './sync-payout-lines.js';

// Issue 23 part B on PostgreSQL: netting is exactly once under concurrency, as transfers are.
// Operators transfer overlapping sets of one tenant's orders at once while new cash orders are
// sold and their netting lines written: every netting line lands in at most one payout, every
// payout's transfer is the sum of its lines, and what was netted plus what is still owed is what
// the cash orders owe.

let server: TestServer;
let tenant: GivenTenant;
let operators: Client[];

async function paid(method: 'card' | 'cash', total: number, platform: number) {
  const db = server.app.deps.db;
  const eventId = randomUUID();
  await db.insert(events).values({ tenantId: tenant.id, id: eventId, name: 'Race', urlName: `e${eventId.slice(0, 8)}`, status: 'published' });
  const id = randomUUID();
  const orderUid = `R${id.replace(/-/g, '').slice(0, 9).toUpperCase()}`;
  const paidAt = new Date(Date.now() - 3 * 86_400_000);
  await db.insert(orders).values({
    tenantId: tenant.id,
    id,
    orderUid,
    eventId,
    status: 'completed',
    channel: method === 'card' ? 'ONLINE' : 'BACKEND',
    totalAmount: total,
    tenantTotal: total - platform,
    platformTotal: platform,
    paymentProvider: method === 'card' ? 'test' : null,
    chargeId: method === 'card' ? `pi_test_${id.slice(0, 8)}` : null,
    paymentMethod: method,
    paidAt,
  });
  return { id, orderUid };
}

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('netting-race.pg.test.ts needs TEST_DATABASE_URL');
  server = await startServer();
  tenant = await givenTenantWithSettings(server);
  await server.app.deps.db.update(paymentSettings).set({ paymentRef: 'acct_race' }).where(eq(paymentSettings.tenantId, tenant.id));
  operators = [];
  for (let i = 0; i < 4; i++) operators.push(await signedIn(server, await givenPlatformAdmin(server)));
});
afterAll(async () => {
  await server?.close();
});

describe('netting under concurrency', () => {
  it('overlapping transfers and new cash sales: each netting line in one payout at most, transfers add up, nothing owed is lost', async () => {
    const online = [];
    for (let i = 0; i < 12; i++) online.push(await paid('card', 10_000, 1_000));
    const cash = [];
    for (let i = 0; i < 6; i++) cash.push(await paid('cash', 5_000, 450));
    await syncPayoutLines({ deps: server.app.deps });

    // Four operators transfer overlapping halves at once, while six more cash orders are sold and synced.
    const uids = online.map((o) => o.orderUid);
    const picks = [uids.slice(0, 6), uids.slice(3, 9), uids.slice(6, 12), [uids[0]!, uids[11]!, uids[5]!]];
    const selling = (async () => {
      for (let i = 0; i < 6; i++) {
        cash.push(await paid('cash', 5_000, 450));
        await syncPayoutLines({ deps: server.app.deps });
      }
    })();
    const answers = await Promise.all(picks.map((p, i) => operators[i]!.post(PAYOUT_PATHS.transfer(), { orderUIDs: p })));
    await selling;
    for (const a of answers) expect(a.status).toBe(200);

    const db = server.app.deps.db;
    const lines = await db.select().from(payoutLines).where(eq(payoutLines.tenantId, tenant.id));
    const netting = lines.filter((l) => l.kind === 'netting');
    // One netting line per cash order, never two.
    expect(netting).toHaveLength(12);
    expect(new Set(netting.map((l) => l.orderId)).size).toBe(12);
    // Each online order paid once.
    const sales = lines.filter((l) => l.kind === 'sale');
    expect(sales.filter((l) => l.payoutCompletedAt).length).toBe(12);
    // Every completed payout transferred exactly the sum of its lines, once (the gateway saw one transfer per payout).
    const done = await db.select().from(payouts).where(eq(payouts.tenantId, tenant.id));
    for (const p of done.filter((d) => d.status === 'completed')) {
      const mine = lines.filter((l) => l.payoutId === p.id);
      expect(p.amount).toBe(mine.reduce((s, l) => s + l.tenantTotal, 0));
      const transfers = await db.select().from(testTransfers).where(eq(testTransfers.idempotencyKey, p.id));
      expect(transfers.map((t) => t.amount)).toEqual([p.amount]);
    }
    // Netted + still owed = what the cash orders owe: 12 x 450.
    const nettedInPayouts = netting.filter((l) => l.payoutId).reduce((s, l) => s - l.tenantTotal, 0);
    const stillOwed = netting.filter((l) => !l.payoutId).reduce((s, l) => s - l.tenantTotal, 0);
    expect(nettedInPayouts + stillOwed).toBe(12 * 450);
    // And the money: what the gateway sent is every sale's share less what was netted.
    const [sent] = await db.select({ n: sql<number>`coalesce(sum(amount), 0)::int` }).from(testTransfers).where(sql`destination = 'acct_race'`);
    expect(sent!.n).toBe(12 * 8_680 - nettedInPayouts);
  });
});
