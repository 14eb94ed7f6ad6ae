import { randomUUID } from 'node:crypto';
import { CHECKIN_PATHS, REPORT_PATHS, type TCheckinScanAnswer } from '@marquee/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkinScans, tickets } from '../../db/schema/index.js';
import { givenEvent, givenTenant, givenUser, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { givenPaidTickets } from '../../../test/fixtures/paid-tickets.js';
import { signTicketCode } from './ticket-code.js';

// issue 11 "Exactly once": two doors scanning one ticket at the same moment admit it once; the other
// sees already used. Two app nodes (their own pools) on one PostgreSQL database, requests really
// concurrent, so the conditional UPDATE is contended. PostgreSQL only (vitest.config.ts: *.pg.test.ts
// run when TEST_DATABASE_URL names a server, as CI's PostgreSQL stage does).

const TICKETS = 60;

let nodeA: TestServer;
let nodeB: TestServer;
let tenant: GivenTenant;
let doorA: Client;
let doorB: Client;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('race.pg.test.ts needs TEST_DATABASE_URL');
  nodeA = await startServer();
  nodeB = await startServer({}, { peerOf: nodeA });
  tenant = await givenTenant(nodeA);
  const staff = await givenUser(nodeA, { tenant: { id: tenant.id, roles: ['tenant_staff'] } });
  doorA = nodeA.client(tenant.url);
  doorB = nodeB.client(tenant.url);
  await doorA.login(staff.email);
  await doorB.login(staff.email);
});
afterAll(async () => {
  await nodeB?.close();
  await nodeA?.close();
});

const db = () => nodeA.app.deps.db;

describe('two doors on two app nodes, one PostgreSQL database', () => {
  it(`admit each of ${TICKETS} tickets exactly once when both scan it at the same moment`, async () => {
    const event = await givenEvent(nodeA, tenant.id);
    const sale = await givenPaidTickets(nodeA, tenant.id, event.id, { lines: [{ name: 'GA', price: 2500, quantity: TICKETS }] });
    const scans = CHECKIN_PATHS.scans(tenant.id, event.id);
    const answers = await Promise.all(
      sale.tickets.flatMap((t) => {
        const code = signTicketCode(nodeA.config.secret, event.id, t.ticketUid);
        return [
          doorA.post<TCheckinScanAnswer>(scans, { clientScanId: randomUUID(), deviceId: 'door-a', code }),
          doorB.post<TCheckinScanAnswer>(scans, { clientScanId: randomUUID(), deviceId: 'door-b', code }),
        ];
      }),
    );
    expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
    for (const t of sale.tickets) {
      const mine = answers.filter((a) => a.body.ticket?.id === t.id).map((a) => a.body);
      expect(mine).toHaveLength(2);
      const admitted = mine.filter((a) => a.result === 'admitted');
      const refused = mine.filter((a) => a.result === 'already_used');
      expect(admitted).toHaveLength(1);
      expect(refused).toHaveLength(1);
      // The refused door is told which door let the ticket in.
      expect(refused[0]!.previous).toMatchObject({ deviceId: admitted[0]!.ticket!.usedBy!.deviceId, usedAt: admitted[0]!.ticket!.usedAt });
    }
    // Both doors won some: the race really ran across both nodes.
    const winners = new Set(answers.filter((a) => a.body.result === 'admitted').map((a) => a.body.ticket!.usedBy!.deviceId));
    expect(winners).toEqual(new Set(['door-a', 'door-b']));

    const rows = await db().select().from(tickets).where(eq(tickets.orderId, sale.orderId));
    expect(rows.filter((r) => r.used)).toHaveLength(TICKETS);
    const recorded = await db().select().from(checkinScans).where(and(eq(checkinScans.tenantId, tenant.id), eq(checkinScans.eventId, event.id)));
    expect(recorded.filter((r) => r.result === 'admitted')).toHaveLength(TICKETS);
    expect(recorded.filter((r) => r.result === 'already_used')).toHaveLength(TICKETS);
    // The reports' rollup (row triggers on orders and event_sales_totals) counted every admission once.
    const admin = await givenUser(nodeA, { tenant: { id: tenant.id, roles: ['tenant_admin'] } });
    const organiser = nodeA.client(tenant.url);
    await organiser.login(admin.email);
    expect((await organiser.get(REPORT_PATHS.eventDashboard(tenant.id, event.id))).body.ticket_used).toBe(TICKETS);
  });

  it('record one scan when a device retries the same clientScanId on both nodes at once, and one undo when two doors undo at once', async () => {
    const event = await givenEvent(nodeA, tenant.id);
    const sale = await givenPaidTickets(nodeA, tenant.id, event.id, { lines: [{ name: 'GA', price: 2500, quantity: 20 }] });
    const scans = CHECKIN_PATHS.scans(tenant.id, event.id);
    const retries = await Promise.all(
      sale.tickets.flatMap((t) => {
        const body = { clientScanId: randomUUID(), deviceId: 'door-a', code: signTicketCode(nodeA.config.secret, event.id, t.ticketUid) };
        return [doorA.post<TCheckinScanAnswer>(scans, body), doorB.post<TCheckinScanAnswer>(scans, body)];
      }),
    );
    for (let i = 0; i < retries.length; i += 2) {
      expect(retries[i]!.body.result).toBe('admitted');
      expect(retries[i + 1]!.body).toEqual(retries[i]!.body);
    }
    const recorded = await db().select().from(checkinScans).where(eq(checkinScans.eventId, event.id));
    expect(recorded).toHaveLength(sale.tickets.length);

    const undos = await Promise.all(
      retries
        .filter((_, i) => i % 2 === 0)
        .flatMap((r) => [
          doorA.post(CHECKIN_PATHS.undo(tenant.id, event.id, r.body.scanId), { deviceId: 'door-a' }),
          doorB.post(CHECKIN_PATHS.undo(tenant.id, event.id, r.body.scanId), { deviceId: 'door-b' }),
        ]),
    );
    for (let i = 0; i < undos.length; i += 2) expect([undos[i]!.status, undos[i + 1]!.status].sort()).toEqual([200, 409]);
    const after = await db().select().from(checkinScans).where(and(eq(checkinScans.eventId, event.id), eq(checkinScans.kind, 'undo')));
    expect(after).toHaveLength(sale.tickets.length);
    const rows = await db().select().from(tickets).where(eq(tickets.orderId, sale.orderId));
    expect(rows.filter((r) => r.used)).toHaveLength(0);
  });
});
