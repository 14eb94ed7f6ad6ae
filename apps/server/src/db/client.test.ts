import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { insertSaleSql, snapshotUnchangedSql, takeAndPaySql } from '../modules/box-office/repository.js';
import { checkoutSnapshotVersionSql } from '../modules/checkout/repository.js';
import { paidFollowUpCtes } from '../modules/orders/payment.js';
import { escapeLiteral, inlinedByDrizzle, inlinedInOneWalk, inlinedSql } from './client.js';
import { orders, ticketTypes } from './schema/index.js';

// Issue 23 (bo3): runInOneTrip writes a sale's parameters in as literals with its own escapeLiteral
// (one native replace), which must write exactly what pg.escapeLiteral writes.
describe('escapeLiteral', () => {
  it("writes pg.escapeLiteral's text for quotes, backslashes, JSON, unicode and the empty string", () => {
    const samples = [
      '',
      'plain',
      "it's",
      "''",
      '\\',
      'a\\b',
      "O'Brien \\ co",
      '\\\'',
      JSON.stringify({ name: "Door's \"night\"", path: 'C:\\tmp', emoji: '🎟️', nul: 'x\ty\nz' }),
      '$1 $$ E\'x\'',
      'ü'.repeat(300),
    ];
    for (const s of samples) expect(escapeLiteral(s)).toBe(pg.escapeLiteral(s));
  });

  it('agrees with pg.escapeLiteral on random strings of quotes, backslashes and letters', () => {
    const alphabet = ["'", '\\', 'a', 'E', ' ', '"', '\n', 'é'];
    let seed = 23;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const s = Array.from({ length: Math.floor(next() * 20) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      expect(escapeLiteral(s)).toBe(pg.escapeLiteral(s));
    }
  });
});

// Issue 23 (bo3): inlinedSql writes a one-trip statement's text in one walk of its chunks; drizzle's
// sqlToQuery with its placeholders replaced must give the same text.
describe('inlinedSql', () => {
  const tenantId = randomUUID();
  const orderId = randomUUID();
  const order = {
    tenantId, id: orderId, orderUid: 'ABC123', eventId: randomUUID(), status: 'draft', source: 'backend', channel: 'BACKEND', email: "o'brien@example.test",
    firstName: 'Ann \\ Co', lastName: '', totalAmount: 2800, ticketCount: 1, subtotal: 2500, breakdown: JSON.stringify({ a: "it's" }), idempotencyKey: 'key-1', cashTendered: 5000,
    terminalReference: null, createdAt: new Date('2026-11-29T11:00:00Z'),
  };
  const lines = [{ ticketTypeId: randomUUID(), ticketName: "Door's GA", unitPrice: 2500, quantity: 1 }];
  const tickets = [{ tenantId, id: randomUUID(), orderId, eventId: order.eventId, ticketTypeId: lines[0]!.ticketTypeId, ticketUid: 'T1', ticketTypeName: "Door's GA", price: 2500 }];
  const item = { order: { tenant_id: tenantId, id: orderId, event_id: order.eventId, charity_id: null, waiting_room_visitor_id: null }, lines: [{ id: lines[0]!.ticketTypeId, qty: 1, price: 2500, name: "Door's GA" }], discountCodeId: null, admissionOrders: null };
  const paid = { tenantId, orderId, paidAt: new Date('2026-11-29T11:00:01Z'), provider: 'box_office', paymentMethod: 'cash' };
  const statements = {
    'the snapshot check': snapshotUnchangedSql(checkoutSnapshotVersionSql({ tenantId, eventId: order.eventId, discountCode: 'door10' }), 'abc'),
    'the snapshot check without a code': snapshotUnchangedSql(checkoutSnapshotVersionSql({ tenantId, eventId: order.eventId }), 'abc'),
    "the order's insert": insertSaleSql(order as never, lines, tickets as never, paidFollowUpCtes({ order: order as never, paidAt: paid.paidAt, provider: paid.provider }, 'o')),
    'the take with the drawer': takeAndPaySql(item, paid, { userId: randomUUID(), movementId: randomUUID(), amount: 2800 }, true),
    'the take without a drawer': takeAndPaySql(item, { ...paid, paymentMethod: 'card_terminal' }, undefined, true),
    'numbers, booleans, null and a table': sql`select ${1}, ${-2.5}, ${true}, ${null}, ${'x'} from ${orders}, ${ticketTypes}`,
  };
  for (const [name, statement] of Object.entries(statements)) {
    it(`writes drizzle's text for ${name}`, () => {
      const text = inlinedInOneWalk(statement);
      expect(text).not.toBeNull();
      expect(text).toBe(inlinedByDrizzle(statement));
      expect(inlinedSql(statement)).toBe(text);
      expect(text).not.toMatch(/\$\d/);
    });
  }

  it("leaves what it does not write (a column, an array) to drizzle's", () => {
    const q = sql`select ${orders.id} from ${orders} where ${orders.id} in ${[orderId]}`;
    expect(inlinedInOneWalk(q)).toBeNull();
    expect(inlinedSql(q)).toBe(inlinedByDrizzle(q));
    expect(inlinedSql(q)).toContain(`"orders"."id" in ('${orderId}')`);
  });
});
