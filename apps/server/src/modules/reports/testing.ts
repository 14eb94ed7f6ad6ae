import { randomUUID } from 'node:crypto';
import type { FigureOrderWithParts } from '@marquee/core';
import { orders, refunds, subscribers, tickets } from '../../db/schema/index.js';
import type { TestServer } from '../../../test/harness.js';

// Test support (not a test file): orders as a finished sale leaves them, with their tickets and
// refunds, written straight to the database, plus the same order in core's figure input shape.

export type TicketSeed = { price: number; voided?: boolean; used?: boolean; name?: string; typeId?: string; fullName?: string; email?: string };
export type RefundSeed = { amount: number; tenantAmount?: number; status?: 'pending' | 'succeeded' | 'failed'; reason?: string; ticketIndexes?: number[] };

export type OrderSeed = {
  status?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  phone?: string | null;
  paymentMethod?: string | null;
  createdAt?: Date;
  subtotal?: number;
  surcharge?: number;
  processingFee?: number;
  vat?: number;
  donation?: number;
  donationFee?: number;
  discount?: number;
  discountCode?: string | null;
  totalAmount?: number;
  tenantTotal?: number;
  platformTotal?: number;
  tickets?: TicketSeed[];
  refunds?: RefundSeed[];
};

export type GivenOrder = { id: string; orderUid: string; ticketUids: string[]; ticketIds: string[]; figures: FigureOrderWithParts };

let serial = 0;

export async function givenSale(server: TestServer, tenantId: string, eventId: string, seed: OrderSeed = {}): Promise<GivenOrder> {
  const db = server.app.deps.db;
  const id = randomUUID();
  serial += 1;
  const orderUid = `R${String(serial).padStart(5, '0')}${id.replace(/-/g, '').slice(0, 6).toUpperCase()}`;
  const ticketSeeds = seed.tickets ?? [{ price: 2500 }];
  const subtotal = seed.subtotal ?? ticketSeeds.reduce((s, t) => s + t.price, 0);
  const totalAmount =
    seed.totalAmount ??
    subtotal - (seed.discount ?? 0) + (seed.surcharge ?? 0) + (seed.processingFee ?? 0) + (seed.vat ?? 0) + (seed.donation ?? 0) + (seed.donationFee ?? 0);
  const tenantTotal = seed.tenantTotal ?? subtotal - (seed.discount ?? 0) + (seed.vat ?? 0);
  const createdAt = seed.createdAt ?? new Date();
  const values = {
    tenantId,
    id,
    orderUid,
    eventId,
    status: seed.status ?? 'completed',
    source: 'online',
    email: seed.email ?? `buyer-${id.slice(0, 8)}@example.test`,
    firstName: seed.firstName ?? 'Ann',
    lastName: seed.lastName ?? 'Buyer',
    phone: seed.phone === undefined ? '+16175550123' : seed.phone,
    paymentMethod: seed.paymentMethod === undefined ? 'card' : seed.paymentMethod,
    chargeId: `ch_${id.slice(0, 12)}`,
    ticketCount: ticketSeeds.length,
    subtotal,
    surcharge: seed.surcharge ?? 0,
    processingFee: seed.processingFee ?? 0,
    vat: seed.vat ?? 0,
    donation: seed.donation ?? 0,
    donationFee: seed.donationFee ?? 0,
    discount: seed.discount ?? 0,
    discountCode: seed.discountCode ?? null,
    totalAmount,
    tenantTotal,
    platformTotal: seed.platformTotal ?? totalAmount - tenantTotal,
    paidAt: createdAt,
    createdAt,
  };
  await db.insert(orders).values(values);
  const ticketIds: string[] = [];
  const ticketUids: string[] = [];
  for (const [i, t] of ticketSeeds.entries()) {
    const ticketId = randomUUID();
    const ticketUid = `TK${String(serial).padStart(5, '0')}${i}${ticketId.slice(0, 6).toUpperCase()}`;
    ticketIds.push(ticketId);
    ticketUids.push(ticketUid);
    await db.insert(tickets).values({
      tenantId,
      id: ticketId,
      ticketUid,
      orderId: id,
      eventId,
      ticketTypeId: t.typeId ?? '00000000-0000-4000-8000-000000000001',
      ticketTypeName: t.name ?? 'General Admission',
      price: t.price,
      fullName: t.fullName ?? `${values.firstName} ${values.lastName}`,
      email: t.email ?? values.email,
      contactNumber: values.phone,
      used: t.used ?? false,
      voided: t.voided ?? false,
      createdAt,
    });
  }
  for (const r of seed.refunds ?? []) {
    const tenantAmount = r.tenantAmount ?? Math.min(r.amount, tenantTotal);
    await db.insert(refunds).values({
      tenantId,
      id: randomUUID(),
      orderId: id,
      eventId,
      amount: r.amount,
      tenantAmount,
      platformAmount: r.amount - tenantAmount,
      kind: 'organiser',
      reason: r.reason ?? 'Asked by the buyer',
      status: r.status ?? 'succeeded',
      provider: 'test',
      chargeId: values.chargeId,
      ticketIds: (r.ticketIndexes ?? []).map((i) => ticketIds[i]!),
      createdAt: new Date(createdAt.getTime() + 60_000),
    });
  }
  return {
    id,
    orderUid,
    ticketIds,
    ticketUids,
    figures: {
      status: values.status,
      totalAmount,
      surcharge: values.surcharge,
      processingFee: values.processingFee,
      vat: values.vat,
      donation: values.donation,
      donationFee: values.donationFee,
      discount: values.discount,
      tenantTotal,
      refunds: (seed.refunds ?? []).map((r) => ({ status: r.status ?? 'succeeded', amount: r.amount, tenantAmount: r.tenantAmount ?? Math.min(r.amount, tenantTotal) })),
      tickets: ticketSeeds.map((t) => ({ price: t.price, voided: t.voided ?? false, used: t.used ?? false })),
    },
  };
}

export async function givenSubscriber(server: TestServer, tenantId: string, eventId: string, email: string, createdAt = new Date()) {
  await server.app.deps.db.insert(subscribers).values({ tenantId, id: randomUUID(), eventId, email, createdAt });
}

/** Parses our CSV (BOM, CRLF, quoted cells) into header-keyed rows. */
export function parseCsv(text: string): Array<Record<string, string>> {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && body[i + 1] === '\n') {
      row.push(cell);
      records.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    records.push(row);
  }
  const [header, ...rest] = records;
  return rest.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
}

/** Dollars in a CSV cell ("12.34") to cents. */
export const centsOf = (cell: string | undefined) => Math.round(Number(cell ?? '0') * 100);
