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
import QRCode from 'qrcode';
import type { z } from 'zod';
import type { Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { AppError, DomainError, notFound } from '../../platform/errors.js';
import { takeCashIntoDrawer } from '../cash-drawers/cash-movements.js';
import { admitOnSale } from '../checkin/service.js';
import { signTicketCode } from '../checkin/ticket-code.js';
import { cartConflict, checkCart } from '../checkout/cart.js';
import { newOrderUid, priceColumnsOf } from '../checkout/order-row.js';
import { refusal } from '../checkout/place-order.js';
import { quoteCart, toBreakdown, type SaleChannel } from '../checkout/pricing.js';
import { findCheckoutSnapshot, toOutcome, type CheckoutSnapshot } from '../checkout/repository.js';
import { issueTicketsInTx } from '../fulfilment/service.js';
import { markPaidInTx } from '../orders/payment.js';
import * as repo from './repository.js';

// A sale at the box office (issue 23, docs/box-office.md): the BACKEND channel, paid at once in
// cash, on the venue's own card terminal, or complimentary. One transaction takes the tickets through
// the website's hold function (mq_take_holds, so the door and the website share one inventory),
// checks the comps against the event's limit under the event's lock it took, writes the order paid,
// issues its tickets and, if asked, admits them. The idempotency key is unique per tenant: a retry,
// or a second tap racing the first, answers the first sale and never sells twice.

type SaleInput = z.output<typeof ZBoxOfficeSaleRequest>;

/** The processor the order was paid through, as orders.payment_provider: none for comps (nothing to pay out). */
export const BOX_OFFICE_PROVIDER = 'box_office';

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

/** The answer for a sale (a new one, or the one a retried key made). */
export async function saleAnswer(deps: Deps, order: repo.OrderRow, tickets: Array<{ ticketUid: string; ticketTypeName: string; used: boolean; voided?: boolean }>, replayed: boolean): Promise<TBoxOfficeSaleResponse> {
  const breakdown = order.breakdown ? (JSON.parse(order.breakdown) as Parameters<typeof toBreakdown>[0]) : null;
  const method = (order.paymentMethod ?? 'cash') as BoxOfficePaymentMethod;
  const out = await Promise.all(
    tickets.map(async (t) => {
      const code = signTicketCode(deps.config.secret, order.eventId, t.ticketUid);
      return { ticketUid: t.ticketUid, ticketTypeName: t.ticketTypeName, code, qrSvg: await QRCode.toString(code, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }), used: t.used };
    }),
  );
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
  const earlier = await repo.findOrderByKey(deps.db, ctx.tenantId, key);
  if (earlier) {
    if (!UUID_RE.test(eventId)) throw notFound();
    return replay(deps, ctx, eventId, input, earlier);
  }
  const snapshot = await saleSnapshot(deps, ctx, eventId, input.discountCode);
  const now = new Date();
  const { lines, discount, config, priced } = quoteSale(snapshot, input, now);
  checkPayment(input, priced.totalAmount);
  const comp = input.paymentMethod === 'complimentary';
  const { event } = snapshot;
  const tenantId = ctx.tenantId;
  const orderId = randomUUID();

  let sold: Awaited<ReturnType<typeof sellInTx>> | { replay: repo.OrderRow };
  try {
    sold = await deps.db.transaction(async (tx) => {
      // The key first (lock order kind 0, docs/architecture.md): a second tap waits here for the first
      // to commit, then finds its order and answers it, taking nothing.
      await repo.lockSaleKey(tx, tenantId, key);
      const first = await repo.findOrderByKey(tx, tenantId, key);
      if (first) return { replay: first };
      return sellInTx(deps, tx, { ctx, snapshot, input, lines, discountId: discount?.id ?? null, discountCode: discount?.code ?? null, config, priced, orderId, comp, now });
    });
  } catch (err) {
    // Belt and braces: the key's unique index refused a second order with it. Answer the first.
    const first = isUniqueViolation(err) ? await repo.findOrderByKey(deps.db, tenantId, key) : null;
    if (first) return replay(deps, ctx, event.id, input, first);
    throw err;
  }
  if ('replay' in sold) return replay(deps, ctx, event.id, input, sold.replay);
  return saleAnswer(deps, sold.order, sold.tickets, false);
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
};

/**
 * The sale's transaction, in the one lock order (docs/architecture.md): the new order, its lines and
 * its tickets first (a draft: rows no other transaction can see, and no report rollup yet), admitted
 * if asked; then the take (mq_take_holds: ticket types, discount code, event, each locked until the
 * commit) and the comp limit under the event's lock; last the order paid, which moves the report
 * rollup by trigger. So the shared rows are held only for the take, the payment and the commit.
 */
export async function sellInTx(deps: Deps, tx: Tx, p: SellInTx) {
  const { ctx, snapshot, input, lines, priced, config, orderId, comp } = p;
  const { event } = snapshot;
  const tenantId = ctx.tenantId;

  await repo.insertSaleOrder(
    tx,
    {
      tenantId,
      id: orderId,
      orderUid: newOrderUid(),
      eventId: event.id,
      status: 'draft',
      source: 'backend',
      channel: 'BACKEND',
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      discountCode: p.discountCode,
      discountCodeId: p.discountId,
      ...priceColumnsOf(priced, config),
      userId: null,
      soldBy: ctx.user.id,
      terminalReference: input.paymentMethod === 'card_terminal' ? input.terminalReference!.trim() : null,
      cashTendered: input.paymentMethod === 'cash' ? input.cashTendered! : null,
      idempotencyKey: input.idempotencyKey,
    },
    // A comp's tickets are priced 0, so every report counts them as complimentary.
    lines.map((l) => ({ ...l, unitPrice: comp ? 0 : l.unitPrice })),
  );
  const draft = (await repo.findOrder(tx, tenantId, orderId))!;
  let tickets = await issueTicketsInTx(tx, draft);
  if (input.admit) {
    await admitOnSale(tx, { tenantId, eventId: event.id, ticketIds: tickets.map((t) => t.id), userId: ctx.user.id, at: p.now });
    tickets = await issueTicketsInTx(tx, draft);
  }

  const verdict = await repo.takeTickets(tx, {
    order: { tenant_id: tenantId, id: orderId, event_id: event.id, charity_id: null, waiting_room_visitor_id: null },
    lines: lines.map((l) => ({ id: l.ticketTypeId, qty: l.quantity, price: l.unitPrice, name: l.ticketName })),
    discountCodeId: p.discountId,
    admissionOrders: null,
  });
  const outcome = toOutcome(verdict);
  if (!outcome.ok) throw refusal(outcome, snapshot, lines, p.now);

  if (comp) {
    // Under the event's lock mq_take_holds holds: two comps at once are counted one after the other.
    const limit = complimentaryLimitOf(snapshot);
    if (limit !== null) {
      const given = await repo.complimentaryTicketsOf(tx, tenantId, event.id);
      const left = Math.max(0, limit - given);
      if ((p.listTickets ?? priced.ticketCount) > left) throw complimentaryLimit(limit, left);
    }
  }

  // Cash goes into the seller's open drawer (issue 23 part B); without one the sale is refused
  // (DRAWER_NOT_OPEN) and this transaction takes nothing. The drawer's lock comes after the tickets,
  // ticket types and event the take locked, before the order turns paid (the rollup).
  if (input.paymentMethod === 'cash') await takeCashIntoDrawer(tx, { tenantId, userId: ctx.user.id, orderId, amount: priced.totalAmount });
  const paidAt = new Date();
  const provider = comp || priced.totalAmount === 0 ? 'none' : BOX_OFFICE_PROVIDER;
  await markPaidInTx(deps, tx, { tenantId, orderId, provider, sessionId: null, chargeId: null, paymentMethod: input.paymentMethod });
  const order: repo.OrderRow = { ...draft, status: 'processing', paidAt, paymentMethod: input.paymentMethod, paymentProvider: provider };
  return { order, tickets };
}
