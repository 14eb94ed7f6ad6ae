import { randomUUID } from 'node:crypto';
import { CHECKIN_PATHS, DRAWER_PATHS, type TCheckinScanAnswer } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cashDrawerMovements, tickets, ticketTypes } from '../../db/schema/index.js';
import { signedIn } from '../../../test/actors.js';
import { givenBoxOffice, type BoxOfficeSale, type BoxOfficeScene } from '../../../test/fixtures/box-office.js';
import { givenUser, startServer, type Client, type GivenEventOnSale, type GivenTenant, type TestServer } from '../../../test/harness.js';

// Issue 23 on PostgreSQL, the one lock order (docs/architecture.md "Lock order"): a box-office
// order's refund (cash from the refunder's drawer, or the terminal's reference) racing a door scan
// of its ticket and a void of it, and a cash refund racing its drawer's close. No deadlock, no 5xx,
// each end state one of the two serial outcomes, and the counters (seats left, the drawer's
// expected cash) agree with the rows. PostgreSQL only (*.pg.test.ts).

const TRIALS = 10;
const QUANTITY = 400;

let server: TestServer;
let tenant: GivenTenant;
let admin: Client;
let door: Client;
let event: GivenEventOnSale;
let sell: BoxOfficeScene['sell'];

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('refund-race.pg.test.ts needs TEST_DATABASE_URL');
  server = await startServer();
  ({ tenant, admin, event, sell } = await givenBoxOffice(server, { quantity: QUANTITY }));
  door = await signedIn(server, await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_staff'] } }), tenant.url);
});
afterAll(() => server?.close());

const db = () => server.app.deps.db;
const jitter = () => new Promise((r) => setTimeout(r, Math.floor(Math.random() * 4)));
const after = async <T>(p: () => Promise<T>) => {
  await jitter();
  return p();
};
type Sale = BoxOfficeSale;
const refund = (s: Sale, body: Record<string, unknown>) => admin.post(`/api/tenants/${tenant.id}/events/${event.id}/orders/${s.orderUID}/refunds`, { reason: 'race', ...body });
const scan = (s: Sale, i: number) => door.post<TCheckinScanAnswer>(CHECKIN_PATHS.scans(tenant.id, event.id), { clientScanId: randomUUID(), deviceId: 'door-1', code: s.tickets[i]!.code });
const ticketsOf = (orderId: string) => db().select().from(tickets).where(eq(tickets.orderId, orderId));
function expectNoServerError(results: Array<{ status: number; body: unknown }>, what: string) {
  for (const r of results) expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(500);
}
/** Seats left + seats held by tickets still valid = the ticket type's quantity: no seat lost or given twice. */
async function expectSeatsAddUp() {
  const [type] = await db().select().from(ticketTypes).where(eq(ticketTypes.id, event.ticketTypeIds[0]!));
  const valid = (await db().select().from(tickets).where(eq(tickets.ticketTypeId, event.ticketTypeIds[0]!))).filter((t) => !t.voided).length;
  expect(type!.remaining + valid).toBe(QUANTITY);
}
/** The drawer's expected cash is its float plus its movements, each counted once. */
async function expectDrawerAddsUp(drawerId: string) {
  const drawer = (await admin.get(DRAWER_PATHS.drawer(tenant.id, drawerId))).body.details;
  const moved = await db().select().from(cashDrawerMovements).where(eq(cashDrawerMovements.drawerId, drawerId));
  expect(moved.filter((m) => m.kind === 'sale')).toHaveLength(drawer.salesCount);
  expect(moved.filter((m) => m.kind === 'refund')).toHaveLength(drawer.refundsCount);
  const expected = drawer.openingFloat + moved.reduce((n, m) => n + m.amount, 0);
  if (drawer.status === 'closed') expect(drawer.expectedCash).toBe(expected);
  return { drawer, expected };
}

describe('box-office refunds racing the door, a void and the drawer close (PostgreSQL)', () => {
  it(`a cash refund racing a scan of the order's ticket, ${TRIALS} times`, async () => {
    const drawerId: string = (await admin.post(DRAWER_PATHS.list(tenant.id), { details: { openingFloat: 5_000 } })).body.id;
    let refunded = 0;
    for (let i = 0; i < TRIALS; i++) {
      const s = await sell({});
      const [r, scanned] = await Promise.all([after(() => refund(s, { mode: 'full', refundMethod: 'cash' })), after(() => scan(s, 0))]);
      expectNoServerError([r, scanned], `trial ${i}`);
      expect(r.status).toBe(201);
      refunded += s.totalAmount;
      expect(['admitted', 'refunded', 'voided']).toContain(scanned.body.result);
      const [t] = (await ticketsOf(s.orderId)).filter((x) => x.ticketUid === s.tickets[0]!.ticketUid);
      expect(t!.voided).toBe(true);
      expect(t!.used).toBe(scanned.body.result === 'admitted');
    }
    await expectSeatsAddUp();
    const { drawer, expected } = await expectDrawerAddsUp(drawerId);
    expect(drawer).toMatchObject({ salesCount: TRIALS, refundsCount: TRIALS, cashRefunds: refunded });
    expect(expected).toBe(5_000);
    expect((await admin.post(DRAWER_PATHS.close(tenant.id, drawerId), { details: { countedAmount: 5_000 } })).body.details).toMatchObject({ expectedCash: 5_000, difference: 0 });
  });

  it(`a card-terminal refund of one ticket racing a void of that ticket, ${TRIALS} times`, async () => {
    for (let i = 0; i < TRIALS; i++) {
      const s = await sell({ paymentMethod: 'card_terminal', cashTendered: null, terminalReference: `T-${i}` });
      const [t0] = (await ticketsOf(s.orderId)).filter((x) => x.ticketUid === s.tickets[0]!.ticketUid);
      const [r, voided] = await Promise.all([
        after(() => refund(s, { mode: 'tickets', ticketIds: [t0!.id], refundMethod: 'card_terminal', terminalReference: `RF-${i}` })),
        after(() => admin.post(`/api/tenants/${tenant.id}/events/${event.id}/tickets/void`, { ticketId: t0!.id, orderUID: s.orderUID, void: true, reason: 'race' })),
      ]);
      expectNoServerError([r, voided], `trial ${i}`);
      // Whichever came first voided the ticket; the other was told it is voided already, or went through.
      expect([201, 409]).toContain(r.status);
      expect([200, 409]).toContain(voided.status);
      expect(r.status === 201 || voided.status === 200).toBe(true);
      expect((await ticketsOf(s.orderId)).find((x) => x.id === t0!.id)!.voided).toBe(true);
    }
    await expectSeatsAddUp();
  });

  it(`a cash refund racing its drawer's close, ${TRIALS} times: counted before the close, or refused after it; never lost`, async () => {
    for (let i = 0; i < TRIALS; i++) {
      const drawerId: string = (await admin.post(DRAWER_PATHS.list(tenant.id), { details: { openingFloat: 1_000 } })).body.id;
      const s = await sell({});
      const [r, closed] = await Promise.all([
        after(() => refund(s, { mode: 'full', refundMethod: 'cash' })),
        after(() => admin.post(DRAWER_PATHS.close(tenant.id, drawerId), { details: { countedAmount: 1_000 + s.totalAmount } })),
      ]);
      expectNoServerError([r, closed], `trial ${i}`);
      expect(closed.status).toBe(200);
      const { drawer } = await expectDrawerAddsUp(drawerId);
      if (r.status === 201) {
        // The refund came first: the close counted it (the cash handed back is not in the drawer).
        expect(drawer).toMatchObject({ refundsCount: 1, expectedCash: 1_000, difference: s.totalAmount });
      } else {
        expect(r.status).toBe(409);
        expect(r.body.error.domainCode).toBe('DRAWER_NOT_OPEN');
        expect(drawer).toMatchObject({ refundsCount: 0, expectedCash: 1_000 + s.totalAmount, difference: 0 });
        expect((await ticketsOf(s.orderId)).every((t) => !t.voided)).toBe(true);
      }
    }
    await expectSeatsAddUp();
  });
});
