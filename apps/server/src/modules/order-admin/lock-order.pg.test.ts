import { randomUUID } from 'node:crypto';
import { CHECKIN_PATHS, type TCheckinScanAnswer } from '@marquee/core';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickets } from '../../db/schema/index.js';
import { givenUser, startTenantServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { signTicketCode } from '../checkin/ticket-code.js';
import { refundCancelledOrder } from './refund-cancelled-order.js';
import { givenPaidOrder, type PaidOrder } from '../../../test/fixtures/paid-orders.js';

// Issue 21 §2: a refund or a void racing a door scan of the same order deadlocked (the scan locked
// the ticket, then, through the reports' trigger, its order; refunds and voids lock the order, then
// its tickets) and answered 500. Every path now takes the one lock order of docs/decisions.md
// ("Issue 21.2: one lock order"): the order first, then its tickets. Each pair of paths that can meet
// on one order is raced here many times on PostgreSQL; none may answer a 5xx, and the end state must
// be one of the two serial outcomes. PostgreSQL only (*.pg.test.ts).

const TRIALS = 20;

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
const refundUrl = (o: PaidOrder) => `/api/tenants/${tenant.id}/events/${o.eventId}/orders/${o.orderUid}/refunds`;
const voidUrl = (o: PaidOrder) => `/api/tenants/${tenant.id}/events/${o.eventId}/tickets/void`;
const ticketOf = async (id: string) => (await db().select().from(tickets).where(eq(tickets.id, id)))[0]!;
const codeOf = async (o: PaidOrder, ticketId: string) => signTicketCode(server.config.secret, o.eventId, (await ticketOf(ticketId)).ticketUid);
/** Up to 3 ms, so that each side sometimes starts first. */
const jitter = () => new Promise((r) => setTimeout(r, Math.floor(Math.random() * 4)));
const after = async <T>(p: () => Promise<T>) => {
  await jitter();
  return p();
};

async function scan(o: PaidOrder, ticketId: string) {
  return door.post<TCheckinScanAnswer>(CHECKIN_PATHS.scans(tenant.id, o.eventId), { clientScanId: randomUUID(), deviceId: 'door-1', code: await codeOf(o, ticketId) });
}

function expectNoServerError(results: Array<{ status: number; body: unknown }>, what: string) {
  for (const r of results) expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(500);
}

describe('one lock order: refunds, voids and the door never deadlock (issue 21 §2)', () => {
  it(`a full refund racing a scan of the same order, ${TRIALS} times`, async () => {
    for (let i = 0; i < TRIALS; i++) {
      const o = await givenPaidOrder(server, tenant.id, { rows: true });
      const t = o.ticketIds[0]!;
      const [refund, scanned] = await Promise.all([
        after(() => admin.post(refundUrl(o), { mode: 'full', reason: 'race' })),
        after(() => scan(o, t)),
      ]);
      expectNoServerError([refund, scanned], `trial ${i}`);
      expect(refund.status).toBe(201);
      expect(['admitted', 'refunded']).toContain(scanned.body.result);
      const row = await ticketOf(t);
      expect(row.voided).toBe(true);
      expect(row.used).toBe(scanned.body.result === 'admitted');
    }
  });

  it(`a ticket refund racing a scan of that ticket, ${TRIALS} times`, async () => {
    for (let i = 0; i < TRIALS; i++) {
      const o = await givenPaidOrder(server, tenant.id, { rows: true });
      const t = o.ticketIds[1]!;
      const [refund, scanned] = await Promise.all([
        after(() => admin.post(refundUrl(o), { mode: 'tickets', ticketIds: [t], reason: 'race' })),
        after(() => scan(o, t)),
      ]);
      expectNoServerError([refund, scanned], `trial ${i}`);
      expect(refund.status).toBe(201);
      expect(['admitted', 'refunded']).toContain(scanned.body.result);
    }
  });

  it(`a void racing a scan of that ticket, ${TRIALS} times`, async () => {
    for (let i = 0; i < TRIALS; i++) {
      const o = await givenPaidOrder(server, tenant.id, { rows: true });
      const t = o.ticketIds[0]!;
      const [voided, scanned] = await Promise.all([
        after(() => admin.post(voidUrl(o), { ticketId: t, orderUID: o.orderUid, void: true, reason: 'race' })),
        after(() => scan(o, t)),
      ]);
      expectNoServerError([voided, scanned], `trial ${i}`);
      expect(voided.status).toBe(200);
      expect(['admitted', 'voided']).toContain(scanned.body.result);
      const row = await ticketOf(t);
      expect(row.voided).toBe(true);
      expect(row.used).toBe(scanned.body.result === 'admitted');
    }
  });

  it(`a void racing a scan of another ticket of the order and an offline sync of a third, ${TRIALS} times`, async () => {
    for (let i = 0; i < TRIALS; i++) {
      const o = await givenPaidOrder(server, tenant.id, { rows: true });
      const [a, b, c] = o.ticketIds as [string, string, string];
      const sync = { deviceId: 'door-2', scans: [{ clientScanId: randomUUID(), code: await codeOf(o, c), scannedAt: new Date().toISOString() }] };
      const [voided, scanned, synced] = await Promise.all([
        after(() => admin.post(voidUrl(o), { ticketId: a, orderUID: o.orderUid, void: true, reason: 'race' })),
        after(() => scan(o, b)),
        after(() => door.post<{ results: TCheckinScanAnswer[] }>(CHECKIN_PATHS.sync(tenant.id, o.eventId), sync)),
      ]);
      expectNoServerError([voided, scanned, synced], `trial ${i}`);
      expect(scanned.body.result).toBe('admitted');
      expect(synced.body.results[0]!.result).toBe('admitted');
    }
  });

  it(`undoing an admission racing a full refund, ${TRIALS} times`, async () => {
    for (let i = 0; i < TRIALS; i++) {
      const o = await givenPaidOrder(server, tenant.id, { rows: true });
      const t = o.ticketIds[0]!;
      const admitted = await scan(o, t);
      expect(admitted.body.result).toBe('admitted');
      const [refund, undone] = await Promise.all([
        after(() => admin.post(refundUrl(o), { mode: 'full', reason: 'race' })),
        after(() => door.post(CHECKIN_PATHS.undo(tenant.id, o.eventId, admitted.body.scanId), { deviceId: 'door-1' })),
      ]);
      expectNoServerError([refund, undone], `trial ${i}`);
      expect(refund.status).toBe(201);
      expect(undone.status).toBe(200);
      expect(await ticketOf(t)).toMatchObject({ voided: true, used: false });
    }
  });

  it(`a cancelled event's refund job racing a scan of the order, ${TRIALS} times`, async () => {
    for (let i = 0; i < TRIALS; i++) {
      const o = await givenPaidOrder(server, tenant.id, { rows: true });
      const t = o.ticketIds[2]!;
      const [refunded, scanned] = await Promise.all([
        after(() => refundCancelledOrder({ deps: server.app.deps, job: { tenantId: tenant.id, orderId: o.orderId, userId: null } })),
        after(() => scan(o, t)),
      ]);
      expectNoServerError([scanned], `trial ${i}`);
      expect(refunded?.status).toBe('succeeded');
      expect(['admitted', 'refunded']).toContain(scanned.body.result);
      expect((await ticketOf(t)).voided).toBe(true);
    }
  });
  it('and PostgreSQL counted no deadlock in all of it (none hidden by a retry)', async () => {
    // Each connection reports its counters when idle, at the latest about 10 s later (PostgreSQL 15):
    // read until then, failing as soon as one shows.
    const deadlocks = async () => {
      const res = (await db().execute(sql`select pg_stat_clear_snapshot(), deadlocks from pg_stat_database where datname = current_database()`)) as unknown as { rows: Array<{ deadlocks: number | string }> };
      return Number(res.rows[0]!.deadlocks);
    };
    const until = Date.now() + 11_000;
    while (Date.now() < until) {
      expect(await deadlocks()).toBe(0);
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(await deadlocks()).toBe(0);
  }, 20_000);
});
