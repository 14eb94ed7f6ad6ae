import { randomBytes, randomUUID } from 'node:crypto';
import { CHECKIN_PATHS, TRANSFER_PATHS, type TCheckinScanAnswer } from '@marquee/core';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickets, ticketTransfers } from '../../db/schema/index.js';
import { givenUser, startTenantServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { givenPaidOrder, type PaidOrder } from '../../../test/fixtures/paid-orders.js';
import { signTicketCode } from '../checkin/ticket-code.js';
import { insertOrderLink } from '../fulfilment/repository.js';
import { orderLinkHash } from '../fulfilment/service.js';

// Issue 24: a transfer changes who may be admitted, so it takes the one lock order (the order, then
// its ticket; docs/architecture.md "Lock order") and is raced here on PostgreSQL against a door scan
// of the old code, a refund and a void of the same ticket. No answer may be a 5xx, nothing may
// deadlock, and the end is one of the two serial outcomes: the old code admitted and the transfer
// refused, or the transfer made and the old code refused.

const TRIALS = 15;

let server: TestServer;
let tenant: GivenTenant;
let admin: Client;
let door: Client;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('lock-order.pg.test.ts needs TEST_DATABASE_URL');
  ({ server, tenant, admin } = await startTenantServer());
  const staff = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_staff'] } });
  door = server.client(tenant.url);
  await door.login(staff.email);
});
afterAll(() => server?.close());

const db = () => server.app.deps.db;
const ticketOf = async (id: string) => (await db().select().from(tickets).where(eq(tickets.id, id)))[0]!;
const transfersOf = (ticketId: string) => db().select().from(ticketTransfers).where(eq(ticketTransfers.ticketId, ticketId));
const jitter = () => new Promise((r) => setTimeout(r, Math.floor(Math.random() * 4)));
const after = async <T>(p: () => Promise<T>) => {
  await jitter();
  return p();
};
let addresses = 0;

/** A paid order with its tickets and a private order link, as the buyer has it. */
async function givenOrderWithLink() {
  const o = await givenPaidOrder(server, tenant.id, { rows: true });
  const token = randomBytes(32).toString('base64url');
  await insertOrderLink(db(), { tenantId: tenant.id, orderId: o.orderId, tokenHash: orderLinkHash(token) });
  return { ...o, token };
}
const transfer = (o: PaidOrder & { token: string }, ticketId: string) =>
  server
    .client(tenant.url)
    .post(TRANSFER_PATHS.transfer(o.token), { ticketId, fullName: 'Grace Hopper', email: `grace.${randomUUID().slice(0, 8)}@example.com` }, { 'x-forwarded-for': `10.77.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}` });
const scanCode = (o: PaidOrder, code: string) => door.post<TCheckinScanAnswer>(CHECKIN_PATHS.scans(tenant.id, o.eventId), { clientScanId: randomUUID(), deviceId: 'door-1', code });

function expectNoServerError(results: Array<{ status: number; body: unknown }>, what: string) {
  for (const r of results) expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(500);
}

describe('one lock order: a transfer never deadlocks with the door, a refund or a void (issue 24)', () => {
  it(`a transfer racing a scan of the ticket's old code, ${TRIALS} times: one of the two wins, never both`, async () => {
    const outcomes = new Set<string>();
    for (let i = 0; i < TRIALS; i++) {
      const o = await givenOrderWithLink();
      const t = o.ticketIds[0]!;
      const oldUid = (await ticketOf(t)).ticketUid;
      const code = signTicketCode(server.config.secret, o.eventId, oldUid);
      const [moved, scanned] = await Promise.all([after(() => transfer(o, t)), after(() => scanCode(o, code))]);
      expectNoServerError([moved, scanned], `trial ${i}`);
      const row = await ticketOf(t);
      if (scanned.body.result === 'admitted') {
        expect(moved.status, `trial ${i}`).toBe(409);
        expect(moved.body.error.domainCode).toBe('TRANSFER_TICKET_USED');
        expect(row).toMatchObject({ used: true, ticketUid: oldUid });
        expect(await transfersOf(t)).toEqual([]);
      } else {
        expect(scanned.body.result, `trial ${i}`).toBe('transferred');
        expect(moved.status).toBe(200);
        expect(row.used).toBe(false);
        expect(row.ticketUid).not.toBe(oldUid);
        expect(await transfersOf(t)).toHaveLength(1);
      }
      outcomes.add(scanned.body.result);
    }
    console.log(`transfer vs scan outcomes: ${[...outcomes].join(', ')}`);
  });

  it(`a transfer racing a full refund of the order, ${TRIALS} times`, async () => {
    for (let i = 0; i < TRIALS; i++) {
      const o = await givenOrderWithLink();
      const t = o.ticketIds[0]!;
      const [moved, refund] = await Promise.all([
        after(() => transfer(o, t)),
        after(() => admin.post(`/api/tenants/${tenant.id}/events/${o.eventId}/orders/${o.orderUid}/refunds`, { mode: 'full', reason: 'race' })),
      ]);
      expectNoServerError([moved, refund], `trial ${i}`);
      expect(refund.status).toBe(201);
      const row = await ticketOf(t);
      // The refund voids the ticket whoever holds it; a transfer after it is refused.
      expect(row.voided).toBe(true);
      if (moved.status === 200) expect(await transfersOf(t)).toHaveLength(1);
      else {
        expect(moved.body.error.domainCode, `trial ${i}`).toBe('TRANSFER_TICKET_REFUNDED');
        expect(await transfersOf(t)).toEqual([]);
      }
    }
  });

  it(`a transfer racing a void of the ticket and a scan of its old code, ${TRIALS} times`, async () => {
    for (let i = 0; i < TRIALS; i++) {
      const o = await givenOrderWithLink();
      const t = o.ticketIds[0]!;
      const oldUid = (await ticketOf(t)).ticketUid;
      const [moved, voided, scanned] = await Promise.all([
        after(() => transfer(o, t)),
        after(() => admin.post(`/api/tenants/${tenant.id}/events/${o.eventId}/tickets/void`, { ticketId: t, orderUID: o.orderUid, void: true, reason: 'race' })),
        after(() => scanCode(o, signTicketCode(server.config.secret, o.eventId, oldUid))),
      ]);
      expectNoServerError([moved, voided, scanned], `trial ${i}`);
      expect(voided.status).toBe(200);
      const row = await ticketOf(t);
      expect(row.voided).toBe(true);
      const moves = await transfersOf(t);
      if (moved.status === 200) {
        expect(moves).toHaveLength(1);
        expect(scanned.body.result).not.toBe('admitted');
      } else {
        expect(['TRANSFER_TICKET_VOIDED', 'TRANSFER_TICKET_USED'], `trial ${i}`).toContain(moved.body.error.domainCode);
        expect(moves).toEqual([]);
      }
      // Never both: an admitted old code means the ticket kept its Ticket ID.
      if (scanned.body.result === 'admitted') expect(row.ticketUid).toBe(oldUid);
    }
  });

  it('and PostgreSQL counted no deadlock in all of it', async () => {
    const res = (await db().execute(sql`select pg_stat_clear_snapshot(), deadlocks from pg_stat_database where datname = current_database()`)) as unknown as { rows: Array<{ deadlocks: number | string }> };
    expect(Number(res.rows[0]!.deadlocks)).toBe(0);
  });
});
