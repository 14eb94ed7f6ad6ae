import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickets } from '../../db/schema/index.js';
import { givenHeldOrder, givenTenant, givenUser, startServer, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { signedIn } from '../../../test/actors.js';
import type { Client } from '../../../test/harness.js';

// Issue 15: "sold" is one definition (core soldAndHeld): paid, not voided; unpaid holds apart.
let server: TestServer;
let tenant: GivenTenant;
let admin: Client;
let outsider: Client;
let eventId: string;
let heldType: string;
let paidType: string;

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenant(server);
  const other = await givenTenant(server);
  admin = await signedIn(server, await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } }), tenant.url);
  outsider = await signedIn(server, await givenUser(server, { tenant: { id: other.id, roles: ['tenant_admin'] } }), other.url);
  const held = await givenHeldOrder(server, tenant.id, { lines: [{ name: 'Held', price: 2000, quantity: 2 }] });
  eventId = held.eventId;
  heldType = held.ticketTypeIds[0]!;
  const paid = await givenHeldOrder(server, tenant.id, { eventId, status: 'completed', lines: [{ name: 'Paid', price: 3000, quantity: 3 }] });
  paidType = paid.ticketTypeIds[0]!;
  const db = server.app.deps.db;
  await db.insert(tickets).values(
    [0, 1, 2].map((i) => ({
      tenantId: tenant.id,
      id: randomUUID(),
      ticketUid: randomUUID(),
      orderId: paid.orderId,
      eventId,
      ticketTypeId: paidType,
      ticketTypeName: 'Paid',
      price: 3000,
      voided: i === 2,
    })),
  );
  // A void gives its seat back to sale.
  await db.execute(sql`update ticket_types set remaining = remaining + 1 where id = ${paidType}`);
});
afterAll(async () => {
  await server.close();
});

describe('sold = paid, held apart', () => {
  const base = () => `/api/tenants/${tenant.id}/events/${eventId}`;

  it('ticket types count paid valid tickets as sold and open checkouts as held', async () => {
    const list = await admin.get(`${base()}/ticket-types`);
    expect(list.status).toBe(200);
    const byId = new Map(list.body.result.map((t: { id: string; details: object }) => [t.id, t.details]));
    expect(byId.get(heldType)).toMatchObject({ sold: 0, held: 2, soldOrHeld: 2 });
    expect(byId.get(paidType)).toMatchObject({ sold: 2, held: 0, soldOrHeld: 2 });
    const one = await admin.get(`${base()}/ticket-types/${paidType}`);
    expect(one.body.details).toMatchObject({ sold: 2, held: 0 });
  });

  it('the event and the events list carry the same split', async () => {
    const one = await admin.get(base());
    expect(one.status).toBe(200);
    expect(one.body.sales).toEqual({ sold: 2, held: 2 });
    const list = await admin.get(`/api/tenants/${tenant.id}/events`);
    expect(list.body.result.find((e: { id: string }) => e.id === eventId).sales).toEqual({ sold: 2, held: 2 });
  });

  it("another tenant's admin gets 404, not the counts", async () => {
    expect((await outsider.get(`${base()}/ticket-types/${paidType}`)).status).toBe(404);
    expect((await outsider.get(base())).status).toBe(404);
  });
});
