import { randomUUID } from 'node:crypto';
import {
  BOX_OFFICE_MESSAGES as BM,
  COMPLIMENTARY_UNLIMITED,
  complimentaryLimitMessage,
  M,
  type BoxOfficePaymentMethod,
  type PriceOrderPaymentMethod,
  type TBoxOfficeSaleResponse,
  type ZBoxOfficeSaleRequest,
} from '@marquee/core';
import type { z } from 'zod';
import { runInOneTrip, type Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { createBatcher, type Batcher } from '../../platform/batcher.js';
import { AppError, DomainError, notFound } from '../../platform/errors.js';
import { drawerNotOpen, takeCashIntoDrawer } from '../cash-drawers/cash-movements.js';
import { admitOnSale } from '../checkin/service.js';
import { signTicketCode } from '../checkin/ticket-code.js';
import { cartConflict, checkCart } from '../checkout/cart.js';
import { NO_BUYER, newOrderUid, orderColumnsOf } from '../checkout/order-row.js';
import { refusal } from '../checkout/place-order.js';
import { quoteCart, toBreakdown, type SaleChannel } from '../checkout/pricing.js';
import { checkoutSnapshotVersionSql, findCheckoutSnapshot, toOutcome, type CheckoutSnapshot } from '../checkout/repository.js';
import { issueTicketsInTx, ticketRowsOf } from '../fulfilment/service.js';
import { checkCartSeats, type CartSeats } from '../seating/cart-seats.js';
import { sellHeldSeats } from '../seating/sell-seats.js';
import { BOX_OFFICE_PROVIDER, paidFollowUpCtes } from '../orders/payment.js';
import { forgetSnapshot, keepSnapshot, keptSnapshot } from './kept-snapshots.js';
import * as repo from './repository.js';

// A sale at the box office (issue 23, docs/box-office.md): the BACKEND channel, paid at once in
// cash, on the venue's own card terminal, or complimentary. One transaction takes the tickets through
// the website's hold function (mq_take_holds, so the door and the website share one inventory),
// checks the comps against the event's limit under the event's lock it took, writes the order paid,
// issues its tickets and, if asked, admits them. The idempotency key is unique per tenant: a retry,
// or a second tap racing the first, answers the first sale and never sells twice.

type SaleInput = z.output<typeof ZBoxOfficeSaleRequest>;

/** The processor the order was paid through, as orders.payment_provider (none for comps: nothing to pay out). */
export { BOX_OFFICE_PROVIDER };

const priceMethod: Record<BoxOfficePaymentMethod, PriceOrderPaymentMethod> = { cash: 'cash', card_terminal: 'terminal', complimentary: 'terminal' };

/** The event as the box office may sell it: this tenant's, not cancelled, published (404 / EVENT_CANCELLED / EVENT_NOT_ON_SALE). */
export async function saleSnapshot(deps: Deps, ctx: TenantCtx, eventId: string, discountCode?: string | null): Promise<CheckoutSnapshot> {
  if (!UUID_RE.test(eventId)) throw notFound();
  const snapshot = await findCheckoutSnapshot(deps.db, { tenantId: ctx.tenantId, eventId: eventId.toLowerCase(), discountCode: discountCode ?? null });
  if (!snapshot) throw notFound();
  if (snapshot.event.status === 'cancelled') throw new DomainError('EVENT_CANCELLED', M.eventCancelledReadOnly);
  if (snapshot.event.status !== 'published') throw new DomainError('EVENT_NOT_ON_SALE', M.eventNotOnSale);
  return snapshot;
}

/** Every line names an active ticket type of the event sold at the box office. */
export function assertSoldHere(snapshot: CheckoutSnapshot, lines: ReadonlyArray<{ ticketTypeId: string }>) {
  for (const [i, line] of lines.entries()) {
    const t = snapshot.types.find((x) => x.id === line.ticketTypeId.toLowerCase());
    if (!t || !t.active) throw new AppError('BAD_REQUEST', M.invalidInput, { [`lines.${i}.ticketTypeId`]: M.invalidInputBody });
    if (t.soldAt === 'ONLINE') throw new DomainError('TICKET_TYPE_NOT_AT_BOX_OFFICE', BM.notAtBoxOffice, { fields: { [`lines.${i}.ticketTypeId`]: BM.notAtBoxOffice } });
  }
}

/** The complimentary limit of the tenant's settings, or null when unlimited. */
export function complimentaryLimitOf(snapshot: CheckoutSnapshot): number | null {
  const max = snapshot.pricing?.settings.maximumComplimentaryTickets ?? COMPLIMENTARY_UNLIMITED;
  return max >= COMPLIMENTARY_UNLIMITED ? null : max;
}

export const complimentaryLimit = (limit: number, left: number) =>
  new DomainError('COMPLIMENTARY_LIMIT', complimentaryLimitMessage(limit, left), { payload: { complimentary: { limit, left } } });

/**
 * Prices the sale as the checkout does (checkout/pricing.ts quoteCart: the BACKEND pass-along
 * option, the box-office and cash charges), after the box office's own checks.
 */
export function quoteSale(snapshot: CheckoutSnapshot, input: { lines: SaleInput['lines']; discountCode?: string | null; paymentMethod: BoxOfficePaymentMethod }, now: Date) {
  assertSoldHere(snapshot, input.lines);
  const lines = input.lines.map((l) => ({ ticketTypeId: l.ticketTypeId.toLowerCase(), quantity: l.quantity }));
  const check = checkCart(snapshot.event, snapshot.types, lines, now);
  if (check.blocked) throw cartConflict(check);
  const comp = input.paymentMethod === 'complimentary';
  const sale: SaleChannel = { channel: 'backend', paymentMethod: priceMethod[input.paymentMethod] };
  return quoteCart(snapshot, { lines, discountCode: comp ? null : input.discountCode, donation: 0, donationField: 'donation', now, sale, complimentary: comp });
}

/** Cash must cover the total; a terminal payment needs its reference. Checked before anything is written. */
function checkPayment(input: SaleInput, total: number) {
  if (input.paymentMethod === 'cash') {
    if (input.cashTendered === undefined || input.cashTendered === null) throw new AppError('VALIDATION', BM.cashRequired, { cashTendered: BM.cashRequired });
    if (input.cashTendered < total) throw new DomainError('CASH_TENDERED_SHORT', BM.cashShort, { fields: { cashTendered: BM.cashShort } });
  }
  if (input.paymentMethod === 'card_terminal' && !input.terminalReference?.trim()) {
    throw new DomainError('TERMINAL_REFERENCE_REQUIRED', BM.referenceRequired, { fields: { terminalReference: BM.referenceRequired } });
  }
}

/** What a sale's answer reads of its order: the row a retried key finds, or the one a new sale wrote. */
export type SaleOrder = Pick<
  repo.OrderRow,
  | 'id' | 'orderUid' | 'eventId' | 'email' | 'paymentMethod' | 'totalAmount' | 'cashTendered' | 'terminalReference' | 'breakdown' | 'discountCode'
  | 'ticketCount' | 'subtotal' | 'surcharge' | 'processingFee' | 'gatewayProcessingFee' | 'discount' | 'vat'
>;
export type SaleTicket = { ticketUid: string; ticketTypeName: string; used: boolean; seatLabel: string | null };

/**
 * The answer for a sale (a new one, or the one a retried key made), built after the transaction.
 * Each ticket carries its signed code; the console draws the QR code from it (issue 23, boxbench:
 * drawing them here cost the server's one thread a few ms a ticket, and a burst of sales queued
 * behind it).
 */
export function saleAnswer(deps: Deps, order: SaleOrder, tickets: SaleTicket[], replayed: boolean): TBoxOfficeSaleResponse {
  const breakdown = order.breakdown ? (JSON.parse(order.breakdown) as Parameters<typeof toBreakdown>[0]) : null;
  const method = (order.paymentMethod ?? 'cash') as BoxOfficePaymentMethod;
  const out = tickets.map((t) => ({
    ticketUid: t.ticketUid,
    ticketTypeName: t.ticketTypeName,
    code: signTicketCode(deps.config.secret, order.eventId, t.ticketUid),
    used: t.used,
    seat: t.seatLabel,
  }));
  return {
    orderId: order.id,
    orderUID: order.orderUid,
    paymentMethod: method,
    totalAmount: order.totalAmount,
    cashTendered: order.cashTendered,
    changeDue: order.cashTendered === null ? null : order.cashTendered - order.totalAmount,
    terminalReference: order.terminalReference,
    email: order.email,
    replayed,
    breakdown: breakdown
      ? toBreakdown(breakdown, order.discountCode)
      : { ticketCount: order.ticketCount, subtotal: order.subtotal, surcharge: order.surcharge, processingFee: order.processingFee, gatewayProcessingFee: order.gatewayProcessingFee, discount: order.discount, vat: order.vat, donation: 0, donationFee: 0, channelCharge: 0, totalAmount: order.totalAmount, discountCode: order.discountCode, orderDetails: [] },
    tickets: out,
  };
}

async function replay(deps: Deps, ctx: TenantCtx, eventId: string, input: SaleInput, order: repo.OrderRow): Promise<TBoxOfficeSaleResponse> {
  // The same key names one sale: of this event, paid this way. Anything else is another sale reusing it.
  if (order.eventId !== eventId.toLowerCase() || order.paymentMethod !== input.paymentMethod || order.channel !== 'BACKEND') {
    throw new DomainError('IDEMPOTENCY_KEY_REUSED', BM.keyReused);
  }
  const tickets = await deps.db.transaction(async (tx) => issueTicketsInTx(tx, order));
  return saleAnswer(deps, order, tickets, true);
}

/** One sale at the box office; see the module comment. */
export async function sellTickets({ deps, ctx, eventId, input }: { deps: Deps; ctx: TenantCtx; eventId: string; input: SaleInput }): Promise<TBoxOfficeSaleResponse> {
  const key = input.idempotencyKey;
  const tenantId = ctx.tenantId;
  // Issue 23 (bo3): a sale in one trip priced from the event's kept snapshot, when there is one and
  // it is still the database's; anything else (none kept, out of date, any refusal) goes on below.
  if (oneTripAllowed(deps, input) && UUID_RE.test(eventId)) {
    const fast = await sellFromKeptSnapshot(deps, ctx, eventId, input);
    if (fast) return fast;
  }
  // The sale's key is looked up only when the sale is refused before its transaction (the event was
  // cancelled or sold out since a first try that was answered but not heard): the retry answers the
  // sale it made. A new sale does not pay for the read; its insert finds the key taken (below).
  let prepared: ReturnType<typeof prepareSale> extends Promise<infer T> ? T : never;
  try {
    prepared = await prepareSale(deps, ctx, eventId, input);
  } catch (err) {
    const earlier = err instanceof AppError && UUID_RE.test(eventId) ? await repo.findOrderByKey(deps.db, tenantId, key) : null;
    if (earlier) return replay(deps, ctx, eventId, input, earlier);
    throw err;
  }
  const { snapshot, quote, now, seats } = prepared;
  const { event } = snapshot;
  const { lines, discount, config, priced } = quote;
  const comp = input.paymentMethod === 'complimentary';

  let sold: Awaited<ReturnType<typeof sellInTx>>;
  const sale: SellInTx = { ctx, snapshot, input, lines, discountId: discount?.id ?? null, discountCode: discount?.code ?? null, config, priced, orderId: randomUUID(), comp, now, seats };
  try {
    // A cash or card sale without seats or admission, on PostgreSQL: the whole transaction in one
    // message (issue 23 perreq); otherwise (and on PGlite) statement by statement.
    const oneTrip = oneTripAllowed(deps, input) && !seats;
    const inOneTrip = oneTrip ? await sellInOneTrip(deps, sale) : undefined;
    if (inOneTrip === STALE) throw new Error(`box-office sale ${sale.orderId}: a fresh snapshot found stale`);
    sold = inOneTrip !== undefined ? inOneTrip : await deps.db.transaction((tx) => sellInTx(deps, tx, sale));
  } catch (err) {
    // Belt and braces: a unique index refused a second order with the key. Answer the first.
    const first = isUniqueViolation(err) ? await repo.findOrderByKey(deps.db, tenantId, key) : null;
    if (first) return replay(deps, ctx, event.id, input, first);
    throw err;
  }
  if (!sold) {
    // The key's sale was made first (a retry, or a second tap that waited for the first to commit).
    const first = await repo.findOrderByKey(deps.db, tenantId, key);
    if (!first) throw new Error(`box-office sale key ${key}: taken, but no order`);
    return replay(deps, ctx, event.id, input, first);
  }
  return saleAnswer(deps, sold.order, sold.tickets, false);
}

/** A cash or card-terminal sale without seats or admission, on PostgreSQL, may be sent in one message (issue 23 perreq). */
function oneTripAllowed(deps: Deps, input: SaleInput): boolean {
  return deps.database.kind === 'postgres' && input.paymentMethod !== 'complimentary' && !input.admit;
}

/**
 * Issue 23 (bo3): the sale priced from the event's snapshot kept on this node (kept-snapshots.ts),
 * in one trip whose first statement checks that snapshot's version against the database's. Null
 * when it cannot answer for sure: no snapshot kept, a seat hold, the kept one out of date, or any
 * refusal (priced, checked or taken): nothing was written, the snapshot is forgotten, and the caller
 * makes the sale from a fresh read as before, so every refusal is the fresh one's.
 */
async function sellFromKeptSnapshot(deps: Deps, ctx: TenantCtx, eventId: string, input: SaleInput): Promise<TBoxOfficeSaleResponse | null> {
  if (input.seatHold) return null;
  const snapshot = keptSnapshot(deps, ctx.tenantId, eventId, input.discountCode);
  if (!snapshot) return null;
  const forget = () => forgetSnapshot(deps, ctx.tenantId, eventId, input.discountCode);
  let sold: Awaited<ReturnType<typeof sellInOneTrip>>;
  try {
    const now = new Date();
    const quote = quoteSale(snapshot, input, now);
    checkPayment(input, quote.priced.totalAmount);
    if (quote.lines.some((l) => snapshot.seatedTypeIds.has(l.ticketTypeId))) return null;
    const { lines, discount, config, priced } = quote;
    const sale: SellInTx = { ctx, snapshot, input, lines, discountId: discount?.id ?? null, discountCode: discount?.code ?? null, config, priced, orderId: randomUUID(), comp: false, now };
    sold = await sellInOneTrip(deps, sale, snapshot.version);
  } catch (err) {
    if (err instanceof AppError) {
      forget();
      return null;
    }
    if (isUniqueViolation(err)) return null;
    throw err;
  }
  if (sold === STALE) {
    forget();
    return null;
  }
  if (sold === undefined) return null;
  if (!sold) {
    // The key's sale was made first (a retry, or a second tap that waited for the first to commit).
    const first = await repo.findOrderByKey(deps.db, ctx.tenantId, input.idempotencyKey);
    if (!first) throw new Error(`box-office sale ${input.idempotencyKey}: taken, but no order`);
    return replay(deps, ctx, snapshot.event.id, input, first);
  }
  return saleAnswer(deps, sold.order, sold.tickets, false);
}

/** The event as sold now, the sale priced and its payment checked: everything before the transaction. */
async function prepareSale(deps: Deps, ctx: TenantCtx, eventId: string, input: SaleInput) {
  const snapshot = await saleSnapshot(deps, ctx, eventId, input.discountCode);
  // Issue 23 (bo3): the next one-trip sale of the event on this node is priced from it, if it is still the database's.
  if (oneTripAllowed(deps, input)) keepSnapshot(deps, ctx.tenantId, eventId, input.discountCode, snapshot);
  const now = new Date();
  const quote = quoteSale(snapshot, input, now);
  checkPayment(input, quote.priced.totalAmount);
  // Issue 27: a seated ticket type's tickets are the seats the seller holds (the checkout's one check).
  const seats = await checkCartSeats({ deps, tenantId: ctx.tenantId, eventId: snapshot.event.id, lines: quote.lines, seatHold: input.seatHold, seated: snapshot.seatedTypeIds });
  return { snapshot, quote, now, seats };
}

type SellInTx = {
  ctx: TenantCtx;
  snapshot: CheckoutSnapshot;
  input: SaleInput;
  lines: Array<{ ticketTypeId: string; ticketName: string; unitPrice: number; quantity: number }>;
  discountId: string | null;
  discountCode: string | null;
  config: ReturnType<typeof quoteSale>['config'];
  priced: ReturnType<typeof quoteSale>['priced'];
  orderId: string;
  comp: boolean;
  now: Date;
  /** A guest list: the tickets of the whole list, checked against the comp limit with its first order (0 for the others). */
  listTickets?: number;
  /** Issue 27: the seat hold whose seats the sale's seated tickets get (checked against the lines before the transaction). */
  seats?: CartSeats;
};

/**
 * The sale's transaction, in the one lock order (docs/architecture.md). First what no other sale
 * waits for: the order (its key: a second sale with the same key waits here, then writes nothing and
 * answers null), its lines and tickets, and what a paid order queues (its fulfil and payout-lines
 * jobs, the order.paid event) in one statement, the admission if asked, the cash into the seller's
 * drawer. Then, as late as possible, the take (mq_take_holds: ticket types, discount code, event,
 * each locked until the commit) with the order turned paid in the same statement (which moves the
 * report rollup by trigger), and the comp limit under the event's lock. So the rows every sale of the
 * event shares are held for one statement and the commit.
 */
export async function sellInTx(deps: Deps, tx: Tx, p: SellInTx): Promise<{ order: SaleOrder; tickets: SaleTicket[] } | null> {
  const { ctx, snapshot, input, lines, priced, orderId, comp } = p;
  const { event } = snapshot;
  const tenantId = ctx.tenantId;
  const method = input.paymentMethod;
  const { order, soldLines, ticketRows, paidAt, provider } = saleRows(p);
  // What a paid order queues (its fulfil and payout-lines jobs, the order.paid event) is written by
  // the order's own statement: nothing of it when the key was taken, all of it rolled back with a refused sale.
  if (!(await repo.insertSale(tx, order, soldLines, ticketRows, paidFollowUpCtes({ order, paidAt, provider }, 'o')))) return null;

  if (input.admit) {
    const admitted = await admitOnSale(tx, { tenantId, eventId: event.id, ticketIds: ticketRows.map((t) => t.id), userId: ctx.user.id, at: p.now });
    if (admitted !== ticketRows.length) throw new Error(`box-office sale ${orderId}: admitted ${admitted} of ${ticketRows.length} new tickets`);
  }
  // Cash goes into the seller's open drawer (issue 23 part B); without one the sale is refused
  // (DRAWER_NOT_OPEN) and this transaction takes nothing. The drawer comes after the order's rows and
  // before the ticket types and the event (the lock order); only its owner's sales and refunds lock it.
  // With no seats between them, the drawer's lock and movement are the take's own statement, first in
  // it (issue 23 box: one round trip fewer); with seats, the drawer's statement comes before the seats'.
  const cash = method === 'cash';
  const drawerInTake = cash && !p.seats;
  if (cash && !drawerInTake) await takeCashIntoDrawer(tx, { tenantId, userId: ctx.user.id, orderId, amount: priced.totalAmount });
  // The seats (lock order 2b: after the drawer, before the take's ticket types and event).
  const seatOf = p.seats ? await sellHeldSeats(tx, { tenantId, eventId: event.id, orderId, holdId: p.seats.holdId }) : null;

  const verdict = await repo.takeAndPay(
    tx,
    takeItemOf(p),
    { tenantId, orderId, paidAt, provider, paymentMethod: method },
    drawerInTake ? { userId: ctx.user.id, movementId: randomUUID(), amount: priced.totalAmount } : undefined,
  );
  if (verdict === repo.NO_DRAWER) throw drawerNotOpen();
  const outcome = toOutcome(verdict);
  if (!outcome.ok) throw refusal(outcome, snapshot, lines, p.now);

  if (comp) {
    // Under the event's lock the take holds: two comps at once are counted one after the other.
    const limit = complimentaryLimitOf(snapshot);
    if (limit !== null) {
      const given = await repo.complimentaryTicketsOf(tx, tenantId, event.id, orderId);
      const left = Math.max(0, limit - given);
      if ((p.listTickets ?? priced.ticketCount) > left) throw complimentaryLimit(limit, left);
    }
  }
  return {
    order: { ...order, paymentMethod: method },
    tickets: inSeatOrder(ticketRows, seatOf).map((t) => ({ ticketUid: t.ticketUid, ticketTypeName: t.ticketTypeName, used: input.admit, seatLabel: seatOf?.get(t.id) ?? null })),
  };
}

/** The sale's rows: its draft order, its lines as sold (a comp's at 0), its tickets, when it is paid and through whom. */
function saleRows(p: SellInTx) {
  const { ctx, snapshot, input, lines, priced, config, orderId, comp } = p;
  const { event } = snapshot;
  const tenantId = ctx.tenantId;
  const method = input.paymentMethod;
  // A comp's tickets are priced 0, so every report counts them as complimentary.
  const soldLines = lines.map((l) => ({ ...l, unitPrice: comp ? 0 : l.unitPrice }));
  const order = {
    ...orderColumnsOf({
      tenantId,
      id: orderId,
      orderUid: newOrderUid(),
      eventId: event.id,
      source: 'backend',
      channel: 'BACKEND',
      buyer: { ...NO_BUYER, email: input.email, firstName: input.firstName, lastName: input.lastName },
      discount: p.discountId && p.discountCode ? { id: p.discountId, code: p.discountCode } : null,
      priced,
      config,
      userId: null,
    }),
    soldBy: ctx.user.id,
    terminalReference: method === 'card_terminal' ? input.terminalReference!.trim() : null,
    cashTendered: method === 'cash' ? input.cashTendered! : null,
    idempotencyKey: input.idempotencyKey,
  };
  const ticketRows = ticketRowsOf(order, soldLines).map(({ position: _, ...t }) => t);
  const paidAt = new Date();
  const provider = comp || priced.totalAmount === 0 ? 'none' : BOX_OFFICE_PROVIDER;
  return { order, soldLines, ticketRows, paidAt, provider };
}

/** The order as mq_take_holds takes it. */
function takeItemOf(p: SellInTx): repo.TakeItem {
  return {
    order: { tenant_id: p.ctx.tenantId, id: p.orderId, event_id: p.snapshot.event.id, charity_id: null, waiting_room_visitor_id: null },
    lines: p.lines.map((l) => ({ id: l.ticketTypeId, qty: l.quantity, price: l.unitPrice, name: l.ticketName })),
    discountCodeId: p.discountId,
    admissionOrders: null,
  };
}

/**
 * Issue 23 (perreq): a cash or card-terminal sale without seats or admission, on PostgreSQL, as one
 * message: BEGIN, the order with its lines, tickets, jobs and event (sellInTx's first statement),
 * the drawer, the take and the order paid (its last, takeAndPaySql), COMMIT (db/client.ts
 * runInOneTrip). The same statements in the same lock order as sellInTx; what changes is that the
 * ticket types' and the event's locks, which every sale of the event waits for, are released by
 * PostgreSQL right after the take, not after its answer has waited its turn on the server's event
 * loop and a COMMIT has come back. A refusal raises in the statement (mq_sale_verdict), so nothing
 * of it is committed. Null when the key's sale was made first (as sellInTx); undefined when the
 * database is not a pg pool (the caller runs sellInTx).
 */
async function sellInOneTrip(deps: Deps, p: SellInTx, keptVersion?: string): Promise<OneTripResult> {
  let batcher = tripBatchers.get(deps.db);
  if (!batcher) {
    batcher = createBatcher<OneTripSale, OneTripResult>(async (_key, batch) =>
      batch.length === 1 ? [await sellAloneInOneTrip(deps, batch[0]!.sale, batch[0]!.keptVersion)] : sellBatchInOneTrip(deps, batch),
    );
    tripBatchers.set(deps.db, batcher);
  }
  // The lane of the event with the fewest sales in it (under way or waiting).
  const event = oneTripKey(p.ctx.tenantId, p.snapshot.event.id);
  let counts = laneCounts.get(deps.db);
  if (!counts) laneCounts.set(deps.db, (counts = new Map()));
  let key = `${event}/0`;
  for (let lane = 1; lane < ONE_TRIP_LANES; lane++) {
    const k = `${event}/${lane}`;
    if ((counts.get(k) ?? 0) < (counts.get(key) ?? 0)) key = k;
  }
  counts.set(key, (counts.get(key) ?? 0) + 1);
  try {
    return await batcher.submit(key, { sale: p, keptVersion });
  } finally {
    const left = counts.get(key)! - 1;
    if (left > 0) counts.set(key, left);
    else counts.delete(key);
  }
}

/**
 * How many one-trip messages of one event may be under way on a node at once, each with the sales
 * that waited for it: two, so that PostgreSQL's work of a burst is on two backends (their inserts
 * at once, their takes one after the other on the rows' locks) rather than one.
 */
const ONE_TRIP_LANES = 2;
const laneCounts = new WeakMap<object, Map<string, number>>();

type OneTripResult = { order: SaleOrder; tickets: SaleTicket[] } | null | undefined | typeof STALE;
type OneTripSale = { sale: SellInTx; keptVersion?: string };

/**
 * Issue 23 (bo4): the one-trip sales of an event that reach this node while one of its messages is
 * under way wait for it and go together in the next (platform/batcher.ts): a burst of sales at the
 * door is a few messages, each one transaction that takes the ticket types' and the event's locks
 * once, instead of one transaction per sale queueing on those locks, each with a pooled connection.
 * A sale that finds none under way goes at once, alone, as before.
 */
const tripBatchers = new WeakMap<object, Batcher<OneTripSale, OneTripResult>>();
const oneTripKey = (tenantId: string, eventId: string) => `${tenantId}/${eventId}`;

/** How many one-trip sales of the event wait on this node for its message under way (for tests). */
export function oneTripSalesWaiting(deps: Deps, tenantId: string, eventId: string): number {
  const batcher = tripBatchers.get(deps.db);
  let n = 0;
  for (let lane = 0; lane < ONE_TRIP_LANES; lane++) n += batcher?.waiting(`${oneTripKey(tenantId, eventId.toLowerCase())}/${lane}`) ?? 0;
  return n;
}

/**
 * Issue 23 (bo4): several one-trip sales of one event in ONE message: BEGIN, the check of each kept
 * snapshot they were priced from (once per snapshot), each sale's order with its lines, tickets, jobs
 * and event (in the order of their keys, so that two batches never wait for each other's keys
 * crosswise), the sellers' drawers, ONE take of them all and their orders paid
 * (repository.ts takeAndPayBatchSql), COMMIT. All or nothing: any refusal of any of them (a kept
 * snapshot out of date, a key taken, no open drawer, sold out) raises, nothing is written, and the
 * batcher makes each sale again alone (sellAloneInOneTrip), whose answer is then each one's.
 */
async function sellBatchInOneTrip(deps: Deps, batch: OneTripSale[]): Promise<OneTripResult[]> {
  const first = batch[0]!.sale;
  const tenantId = first.ctx.tenantId;
  const sales = batch.map((b, i) => ({ ...b, i, rows: saleRows(b.sale) }));
  sales.sort((a, b) => (a.sale.input.idempotencyKey < b.sale.input.idempotencyKey ? -1 : a.sale.input.idempotencyKey > b.sale.input.idempotencyKey ? 1 : a.i - b.i));
  const checks = new Map<string, ReturnType<typeof repo.snapshotUnchangedSql>>();
  for (const { sale, keptVersion } of sales) {
    if (keptVersion === undefined) continue;
    const code = sale.input.discountCode ?? null;
    const key = `${code ?? ''}\u0000${keptVersion}`;
    if (!checks.has(key)) checks.set(key, repo.snapshotUnchangedSql(checkoutSnapshotVersionSql({ tenantId, eventId: sale.snapshot.event.id, discountCode: code }), keptVersion));
  }
  const ran = await runInOneTrip(deps.db, [
    ...checks.values(),
    ...sales.map(({ rows: { order, soldLines, ticketRows, paidAt, provider } }) => repo.insertSaleSql(order, soldLines, ticketRows, paidFollowUpCtes({ order, paidAt, provider }, 'o'))),
    repo.takeAndPayBatchSql(
      tenantId,
      sales.map(({ sale, rows: { paidAt, provider } }) => ({
        item: takeItemOf(sale),
        paid: { tenantId, orderId: sale.orderId, paidAt, provider, paymentMethod: sale.input.paymentMethod },
        drawer: sale.input.paymentMethod === 'cash' ? { userId: sale.ctx.user.id, movementId: randomUUID(), amount: sale.priced.totalAmount } : undefined,
      })),
    ),
  ]);
  if (!ran) return batch.map(() => undefined);
  return batch.map(({ sale }, i) => {
    const { order, ticketRows } = sales.find((x) => x.i === i)!.rows;
    return {
      order: { ...order, paymentMethod: sale.input.paymentMethod },
      tickets: ticketRows.map((t) => ({ ticketUid: t.ticketUid, ticketTypeName: t.ticketTypeName, used: false, seatLabel: null })),
    };
  });
}

/** One sale in one trip (issue 23 perreq, bo3): sellInOneTrip for a sale that goes alone. */
async function sellAloneInOneTrip(deps: Deps, p: SellInTx, keptVersion?: string): Promise<OneTripResult> {
  const { ctx, snapshot, input, lines, priced, orderId } = p;
  const method = input.paymentMethod;
  const { order, soldLines, ticketRows, paidAt, provider } = saleRows(p);
  const drawer = method === 'cash' ? { userId: ctx.user.id, movementId: randomUUID(), amount: priced.totalAmount } : undefined;
  // Issue 23 (bo3): priced from a kept snapshot, the message first checks that it is still the
  // database's (it reads, locks nothing); when not, it raises and nothing after it runs.
  const where = { tenantId: ctx.tenantId, eventId: snapshot.event.id, discountCode: input.discountCode };
  const check = keptVersion === undefined ? [] : [repo.snapshotUnchangedSql(checkoutSnapshotVersionSql(where), keptVersion)];
  try {
    const ran = await runInOneTrip(deps.db, [
      ...check,
      repo.insertSaleSql(order, soldLines, ticketRows, paidFollowUpCtes({ order, paidAt, provider }, 'o')),
      repo.takeAndPaySql(takeItemOf(p), { tenantId: ctx.tenantId, orderId, paidAt, provider, paymentMethod: method }, drawer, true),
    ]);
    if (!ran) return undefined;
  } catch (err) {
    const refused = repo.saleVerdictOf(err);
    if (!refused) throw err;
    // The key's sale was made first: answered by the caller as a retry (nothing was written here).
    if (refused.verdict === repo.KEY_TAKEN) return null;
    if (refused.verdict === repo.SNAPSHOT_STALE) return STALE;
    if (refused.verdict === repo.NO_DRAWER) throw drawerNotOpen();
    const outcome = toOutcome(refused.verdict);
    if (!outcome.ok) throw refusal(outcome, snapshot, lines, p.now);
    throw new Error(`box-office sale ${orderId}: taken but not paid`);
  }
  return {
    order: { ...order, paymentMethod: method },
    tickets: ticketRows.map((t) => ({ ticketUid: t.ticketUid, ticketTypeName: t.ticketTypeName, used: false, seatLabel: null })),
  };
}

/** sellInOneTrip's answer when the kept snapshot it was priced from is not the database's any more (nothing written). */
const STALE = Symbol('stale snapshot');

/** Seated tickets in seat order (the receipt lists seats as the row runs), then the others as they were. */
function inSeatOrder<T extends { id: string }>(rows: T[], seatOf: Map<string, string> | null): T[] {
  if (!seatOf) return rows;
  const rank = new Map([...seatOf.keys()].map((id, i) => [id, i]));
  return [...rows].sort((a, b) => (rank.get(a.id) ?? rank.size) - (rank.get(b.id) ?? rank.size));
}
