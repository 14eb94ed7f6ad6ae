import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { publicOrigin } from '../../config.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { outboxCtes, type MailMessage } from '../../platform/mail.js';
import { M, RESENDS_PER_MEMBER_PER_HOUR, RESENDS_PER_ORDER_PER_HOUR, resendMemberLimit, resendOrderLimit } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { asError, conflict, forbidden, notFound, RetryLaterError } from '../../platform/errors.js';
import { eventIcs } from './ics.js';
import { DEFAULT_BRAND_COLOR, plainVerbiage, receiptLines, ticketsFilename, ticketsMail } from './mails.js';
import { coverStorageKey } from '../events/cover-image.js';
import { renderTicketsPdf, renderTicketsPdfAndMail, venueLines, type TicketDocument, type TicketEventInfo } from './pdf.js';
import { signTicketCode } from '../checkin/ticket-code.js';
import { canMoveMoney } from '../order-admin/access.js';
import { recordOrderAction } from '../order-admin/record-order-action.js';
import { lockTenantOrder } from '../orders/repository.js';
import { attendeesForIssue } from '../questions/order-answers.js';
import * as repo from './repository.js';
import { walletPaths } from './wallet-paths.js';

/** Enqueued by the orders module when an order is paid: payload { tenantId, orderId }. */
export { FULFIL_JOB } from '../orders/payment.js';

export const FULFIL_RECONCILE_JOB = 'orders.reconcile-fulfilment';
const RECONCILE_EVERY_MS = 5 * 60_000;
/** The fulfil job retries for about 8 minutes; past this an order is considered stuck. */
const STUCK_AFTER_MS = 15 * 60_000;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** 128 random bits as 26 base32 characters: unguessable, and QR alphanumeric mode keeps it small. */
export function newTicketUid(): string {
  const bytes = randomBytes(17);
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 26) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

function eventInfo(e: NonNullable<Awaited<ReturnType<typeof repo.findEvent>>>): TicketEventInfo {
  return {
    name: e.name,
    startDateTime: e.startDateTime,
    timeZone: e.timeZone,
    venueName: e.venueName,
    address1: e.address1,
    city: e.city,
    state: e.state,
    zip: e.zip,
    country: e.country,
    emailDeliveryVerbiage: plainVerbiage(e.emailDeliveryVerbiage),
  };
}

/** The order's valid (not voided) tickets that the buyer still holds, ready to print. */
export async function orderTicketDocument(deps: Deps, order: repo.OrderRow, known?: { event: repo.EventRow }): Promise<TicketDocument> {
  const event = known?.event ?? (await repo.findEvent(deps.db, order.tenantId, order.eventId));
  if (!event) throw new Error(`event ${order.eventId} of order ${order.id} is missing`);
  // Issue 24: a ticket the buyer passed on is its new holder's: only their own link carries its code.
  const [all, transferred] = await Promise.all([repo.ticketsOf(deps.db, order.tenantId, order.id), repo.transfersOfOrder(deps.db, order.tenantId, order.id)]);
  const tickets = all.filter((t) => !t.voided && !transferred.has(t.id));
  return ticketDocument(deps, event, order.orderUid, tickets);
}

/** Tickets of one event, ready to print (the order's, or a transferred ticket's for its new holder). */
export async function ticketDocument(
  deps: Deps,
  event: NonNullable<Awaited<ReturnType<typeof repo.findEvent>>>,
  orderUid: string,
  tickets: Array<Pick<repo.TicketRow, 'ticketUid' | 'ticketTypeName' | 'price' | 'fullName'> & { id?: string; seatLabel?: string | null }>,
): Promise<TicketDocument> {
  // Issue 15: the cover's ticket crop in the header; a ticket without it is still a ticket.
  const cover = event.coverImageId ? await deps.storage.get(coverStorageKey(event.tenantId, event.id, event.coverImageId, 'ticket.jpg')) : null;
  return {
    event: { ...eventInfo(event), coverImage: cover?.bytes ?? null },
    orderUid,
    tickets: tickets.map((t) => ({
      ticketId: t.id,
      ticketUid: t.ticketUid,
      code: signTicketCode(deps.config.secret, event.id, t.ticketUid),
      ticketTypeName: t.ticketTypeName,
      seat: t.seatLabel ?? null,
      price: t.price,
      fullName: t.fullName,
    })),
  };
}

/** sha256 of a private order link's token: all the database keeps of it. */
export const orderLinkHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new private order link: its token's hash (all the database keeps) and its address. */
function newOrderLink(deps: Deps, tenantUrl: string): { tokenHash: string; url: string } {
  const token = randomBytes(32).toString('base64url');
  return { tokenHash: orderLinkHash(token), url: `${publicOrigin(deps.config, tenantUrl)}/orders/${token}` };
}

/**
 * A new private link to the order (issue 15): 256 random bits, not derived from anything about the
 * order, stored hashed. Each mail gets its own; every one of them opens the order.
 */
export async function mintOrderLink(tx: DbOrTx, opts: { deps: Deps; tenantId: string; tenantUrl: string; orderId: string }): Promise<string> {
  const link = newOrderLink(opts.deps, opts.tenantUrl);
  await repo.insertOrderLink(tx, { tenantId: opts.tenantId, orderId: opts.orderId, tokenHash: link.tokenHash });
  return link.url;
}

type TicketsMailInput = {
  deps: Deps;
  order: repo.OrderRow;
  doc: TicketDocument;
  pdfKey: string;
  to: string;
  claim?: boolean;
  tenant: { name: string; url: string; logoKey: string | null; brandColor: string | null };
  event: repo.EventRow;
  lines: ReadonlyArray<{ ticketName: string; unitPrice: number; quantity: number }>;
  /** The mail's own order link (its address). */
  link: string;
};

/**
 * The tickets mail of an order from what is read already (no statement): the receipt from the
 * stored order, the tenant's brand, the wallet buttons, and the calendar entry, stored beside the PDF.
 */
async function ticketsMailOf(o: TicketsMailInput) {
  return (await ticketsMailWithIcs(o)).message;
}

/** ticketsMailOf, with the calendar entry's bytes as stored (null when the event has no start). */
async function ticketsMailWithIcs(o: TicketsMailInput) {
  const { deps, order, tenant, event, link } = o;
  let icsBytes: Buffer | null = null;
  // Issue 28: each ticket's wallet buttons, through this mail's own order link (none unless the operator set a wallet up).
  const token = new URL(link).pathname.split('/').pop()!;
  const wallet = o.doc.tickets
    .map((t, i) => ({ label: `Ticket ${i + 1} of ${o.doc.tickets.length} · ${t.ticketTypeName}${t.seat ? ` · ${t.seat}` : ''}`, ...walletPaths(deps, token, t.ticketId ?? '', publicOrigin(deps.config, tenant.url)) }))
    .filter((w) => w.apple || w.google);
  let icsKey: string | undefined;
  if (event.startDateTime) {
    icsKey = `tickets/${order.tenantId}/${order.id}/${randomUUID()}.ics`;
    const origin = publicOrigin(deps.config, tenant.url);
    const ics = eventIcs({
      // One calendar entry per order: a resent invite updates it instead of adding another.
      uid: `${order.orderUid}@${new URL(origin).hostname}`,
      start: event.startDateTime,
      end: event.endDateTime,
      summary: event.name,
      location: venueLines(o.doc.event).join(', '),
      description: `Order ${order.orderUid}: ${o.doc.tickets.length} ticket${o.doc.tickets.length === 1 ? '' : 's'}. Your order and tickets: ${link}`,
      url: `${origin}/${event.urlName}/`,
    });
    icsBytes = Buffer.from(ics, 'utf8');
    await deps.storage.put(icsKey, icsBytes, 'text/calendar');
  }
  const message = ticketsMail({
    to: o.to,
    tenantId: order.tenantId,
    event: o.doc.event,
    order,
    ticketCount: o.doc.tickets.length,
    pdfKey: o.pdfKey,
    claim: o.claim,
    receipt: receiptLines(order, o.lines.map((l) => ({ ticketName: l.ticketName, unitPrice: l.unitPrice, quantity: l.quantity }))),
    orderLink: link,
    wallet,
    icsKey,
    brand: {
      name: tenant.name,
      // A mail is read long after it is sent: the logo's address lasts a year.
      logoUrl: tenant.logoKey ? deps.storage.downloadUrl(tenant.logoKey, 365 * 24 * 3600) : null,
      color: tenant.brandColor ?? DEFAULT_BRAND_COLOR,
    },
  });
  return { message, ics: icsKey && icsBytes ? { key: icsKey, bytes: icsBytes } : null };
}

/**
 * The tickets mail of an order, in the caller's transaction: a fresh order link, the receipt from
 * the stored order, the tenant's brand and the calendar entry (the .ics is stored beside the PDF).
 */
export async function sendTicketsMail(
  tx: DbOrTx,
  o: Omit<TicketsMailInput, 'tenant' | 'event' | 'lines' | 'link'>,
) {
  const { deps, order } = o;
  const tenant = await repo.findTenant(tx, order.tenantId);
  const event = await repo.findEvent(tx, order.tenantId, order.eventId);
  if (!tenant || !event) throw new Error(`tenant or event of order ${order.id} is missing`);
  const link = await mintOrderLink(tx, { deps, tenantId: order.tenantId, tenantUrl: tenant.url, orderId: order.id });
  const lines = await repo.linesOf(tx, order.tenantId, order.id);
  await deps.mailer.send(tx, await ticketsMailOf({ ...o, tenant, event, lines, link }));
}

/**
 * The order's tickets, one per ticket of its lines, unless it has some already; inside the caller's
 * transaction, which holds the order (the fulfil job locks it; the box office, issue 23, issues them
 * in the transaction that sold them, so the sale screen can show their QR codes at once).
 */
export async function issueTicketsInTx(tx: Tx, o: repo.OrderRow): Promise<repo.TicketRow[]> {
  return (await issueOrderTickets(tx, o)).tickets;
}

/** issueTicketsInTx, also telling whether this call issued them (and then the order's lines it read). */
async function issueOrderTickets(tx: Tx, o: repo.OrderRow): Promise<{ tickets: repo.TicketRow[]; issued?: { lines: repo.LineRow[] } }> {
  const { tenantId, id: orderId } = o;
  const existing = await repo.ticketsOf(tx, tenantId, orderId);
  if (existing.length > 0) return { tickets: existing };
  const lines = await repo.linesOf(tx, tenantId, orderId);
  // Issue 24: each ticket carries its attendee's name and e-mail where the checkout asked them; the buyer's otherwise.
  const attendees = await attendeesForIssue(tx, tenantId, orderId);
  const rows = ticketRowsOf(o, lines, attendees.holderOf);
  await repo.insertTickets(
    tx,
    rows.map(({ position: _, ...t }) => t),
  );
  await attendees.tie(rows.map((t) => ({ ticketTypeId: t.ticketTypeId, position: t.position, ticketId: t.id })));
  return { tickets: await repo.ticketsOf(tx, tenantId, orderId), issued: { lines } };
}

/**
 * The new tickets of an order, one per ticket of its lines (with its position within its line): the
 * one place a ticket row is built, for the fulfil job above and for the box office's sale (issue 23),
 * which writes a new order's tickets in one statement before it takes them (it asks no attendee
 * questions, so the buyer holds them all).
 */
export function ticketRowsOf(
  o: Pick<repo.OrderRow, 'tenantId' | 'id' | 'eventId' | 'firstName' | 'lastName' | 'email' | 'phone'>,
  lines: ReadonlyArray<{ ticketTypeId: string; ticketName: string; unitPrice: number; quantity: number }>,
  holderOf: (ticketTypeId: string, position: number) => { fullName: string; email: string } | null = () => null,
) {
  const fullName = `${o.firstName} ${o.lastName}`.trim();
  return lines.flatMap((line) =>
    Array.from({ length: line.quantity }, (_, position) => {
      const holder = holderOf(line.ticketTypeId, position);
      return {
        id: randomUUID(),
        position,
        tenantId: o.tenantId,
        ticketUid: newTicketUid(),
        orderId: o.id,
        eventId: o.eventId,
        ticketTypeId: line.ticketTypeId,
        ticketTypeName: line.ticketName,
        price: line.unitPrice,
        fullName: holder?.fullName || fullName,
        email: holder?.email || o.email,
        contactNumber: o.phone,
      };
    }),
  );
}

/**
 * Job orders.fulfil: tickets, the PDF, the mail, the newsletter subscription, then completed.
 * Safe to run twice or concurrently: tickets are created under the order's row lock only when none
 * exist, and only the run that moves processing -> completed writes the mail (its link, its outbox
 * row and its delivery job in the completion's own statement, so that a mail exists exactly when the
 * order completed). Issue 26 "mail2": begin, the order locked with everything it needs read, the
 * tickets written, commit; the PDF built off the main thread; then the completion in one statement.
 * One order is a batch of one (fulfilOrders).
 */
export async function fulfilOrder(opts: { deps: Deps; tenantId: string; orderId: string; claim?: boolean }): Promise<'completed' | 'skipped'> {
  const [result] = await fulfilOrders(opts.deps, [{ tenantId: opts.tenantId, orderId: opts.orderId, claim: opts.claim }]);
  if (result instanceof Error) throw result;
  return result!;
}

export type FulfilRequest = { tenantId: string; orderId: string; claim?: boolean };

/**
 * fulfilOrder for a batch of paid orders (issue 26 "mail4"), in the statements of one: begin, the
 * orders locked in order-id order with what they need, their tickets written (each order's unless it
 * has some), commit; each order's PDF and mail built (on the worker threads); then one completion
 * statement for all, with each completed order's link, mail, mail job and opt-in. Answers one result
 * per request, in order: 'completed', 'skipped' (not processing, or another run completed it first),
 * or the error that order failed with. One order's failure does not fail the others: its PDF or mail
 * failing leaves it out of the completion (its job retries it), and when a statement of the batch
 * fails, each order runs again on its own.
 */
export async function fulfilOrders(deps: Deps, requests: ReadonlyArray<FulfilRequest>): Promise<Array<'completed' | 'skipped' | Error>> {
  if (requests.length === 0) return [];
  let locked: Array<repo.FulfilmentRead & { issued: Array<repo.NewTicket & { seatLabel: string | null }> | null }>;
  try {
    locked = await deps.db.transaction(async (tx) => {
      const reads = (await repo.lockManyForFulfilment(tx, requests)).filter((r) => r.order.status === 'processing');
      const plans = reads.map((read) => {
        // Issue 24: each ticket carries its attendee's name and e-mail where the checkout asked them; the buyer's otherwise.
        const bySlot = new Map(read.attendees.map((a) => [`${a.ticketTypeId}:${a.position}`, a]));
        const rows = ticketRowsOf(read.order, read.lines, (ticketTypeId, position) => bySlot.get(`${ticketTypeId}:${position}`) ?? null);
        const ties = rows.filter((t) => bySlot.has(`${t.ticketTypeId}:${t.position}`)).map((t) => ({ ticketTypeId: t.ticketTypeId, position: t.position, ticketId: t.id }));
        return { read, rows, ties };
      });
      const seats = await repo.issueManyTicketsOnce(
        tx,
        plans.map(({ read, rows, ties }) => ({ tenantId: read.order.tenantId, orderId: read.order.id, rows: rows.map(({ position: _, ...t }) => t), ties })),
      );
      return plans.map(({ read, rows }) => {
        const issuedSeats = seats.get(read.order.id) ?? null;
        // Tickets this run just issued are all valid and still the buyer's (none voided or passed on
        // yet): the document is made from them, in the order ticketsOf reads them (type name, then uid).
        const issued = issuedSeats
          ? rows
              .map(({ position: _, ...t }) => ({ ...t, seatLabel: issuedSeats.get(t.id) ?? null }))
              .sort((a, b) => (a.ticketTypeName === b.ticketTypeName ? (a.ticketUid < b.ticketUid ? -1 : 1) : a.ticketTypeName < b.ticketTypeName ? -1 : 1))
          : null;
        return { ...read, issued };
      });
    });
  } catch (err) {
    if (requests.length === 1) return [asError(err)];
    deps.log.warn({ err, orders: requests.length }, 'a fulfilment batch failed: its orders run one by one');
    return Promise.all(requests.map(async (r) => (await fulfilOrders(deps, [r]))[0]!));
  }
  // By tenant and order (a request for another tenant's order is answered 'skipped', as alone).
  const keyOf = (tenantId: string, orderId: string) => `${tenantId}:${orderId}`.toLowerCase();
  const claimOf = new Map(requests.map((r) => [keyOf(r.tenantId, r.orderId), r.claim]));
  // Each order's PDF and mail, built at once (on the worker threads); one failing fails only its order.
  const built = await Promise.all(
    locked.map(async (l) => {
      try {
        return await prepareFulfilment(deps, l, claimOf.get(keyOf(l.order.tenantId, l.order.id)) ?? undefined);
      } catch (err) {
        return asError(err);
      }
    }),
  );
  const ready = built.filter((b): b is PreparedFulfilment => !(b instanceof Error));
  const completed = await completeFulfilments(deps, ready);
  const byOrder = new Map<string, 'completed' | 'skipped' | Error>();
  locked.forEach((l, i) => {
    const b = built[i]!;
    const result = b instanceof Error ? b : (completed.get(l.order.id) ?? 'skipped');
    byOrder.set(keyOf(l.order.tenantId, l.order.id), result);
    if (!(result instanceof Error)) deps.log.info({ orderId: l.order.id, tickets: (b as PreparedFulfilment).tickets, completed: result === 'completed' }, 'order fulfilled');
  });
  return requests.map((r) => byOrder.get(keyOf(r.tenantId, r.orderId)) ?? 'skipped');
}

/**
 * The fulfil job's batches (issue 26 "mail4"): the orders asked for in the same turn of the event loop
 * (a lane starts every job it claimed at once) are fulfilled together, up to `max` a batch, each
 * request answered with its own order's result (its own error rejects only its own job, which retries it).
 */
export function fulfilmentBatches(deps: Deps, max: number): (request: FulfilRequest) => Promise<'completed' | 'skipped'> {
  let waiting: Array<{ request: FulfilRequest; resolve: (r: 'completed' | 'skipped') => void; reject: (err: unknown) => void }> = [];
  const flush = () => {
    const all = waiting;
    waiting = [];
    for (let i = 0; i < all.length; i += max) {
      const batch = all.slice(i, i + max);
      fulfilOrders(
        deps,
        batch.map((w) => w.request),
      ).then(
        (results) => batch.forEach((w, j) => (results[j] instanceof Error ? w.reject(results[j]) : w.resolve(results[j] as 'completed' | 'skipped'))),
        (err) => batch.forEach((w) => w.reject(err)),
      );
    }
  };
  return (request) =>
    new Promise((resolve, reject) => {
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ request, resolve, reject });
    });
}

type PreparedFulfilment = { completion: repo.Completion; mail: { id: string; message: MailMessage } | null; preparedId: string | null; tickets: number };

/** One locked order's PDF (stored), its .ics and its mail (composed ahead when it can be), and what its completion writes. */
async function prepareFulfilment(
  deps: Deps,
  locked: repo.FulfilmentRead & { issued: Array<repo.NewTicket & { seatLabel: string | null }> | null },
  claim: boolean | undefined,
): Promise<PreparedFulfilment> {
  const { order, event, tenant } = locked;
  const { tenantId, id: orderId } = order;
  if (!event) throw new Error(`event ${order.eventId} of order ${order.id} is missing`);
  if (!tenant) throw new Error(`tenant of order ${order.id} is missing`);
  // A run that found them issued (an earlier run died before completing) reads them as a resend does.
  const doc = locked.issued ? await ticketDocument(deps, event, order.orderUid, locked.issued) : await orderTicketDocument(deps, order, { event });
  // Rendering is the slow part: outside any transaction (on a worker thread), to a fixed key a retry overwrites.
  const pdfKey = `tickets/${tenantId}/${orderId}/tickets.pdf`;
  const completion: repo.Completion = { tenantId, orderId };
  let mail: PreparedFulfilment['mail'] = null;
  // Issue 26 "mail3": the tickets mail is composed with its PDF in the same worker task, and handed to
  // this process's mail job (which then neither reads the attachments back nor composes them again).
  // The outbox row is written as before (its attachments stored), so a job run elsewhere composes it.
  let preparedId: string | null = null;
  if (doc.tickets.length > 0 && order.email) {
    const link = newOrderLink(deps, tenant.url);
    const { message, ics } = await ticketsMailWithIcs({ deps, order, doc, pdfKey, to: order.email, claim, tenant, event, lines: locked.lines, link: link.url });
    // The reply-to as the outbox statement would default it (the tenant's contact e-mail, read with the order).
    message.replyTo ??= tenant.email || null;
    const id = randomUUID();
    const attachments = message.attachments ?? [];
    const pdfAt = attachments.findIndex((a) => a.key === pdfKey);
    const bytes = attachments.map((a) => (a.key === pdfKey ? new Uint8Array(0) : a.key === ics?.key ? ics.bytes : null));
    const input = pdfAt >= 0 && bytes.every((b) => b !== null) ? deps.mailer.composeInputOf(id, message, bytes as Uint8Array[]) : null;
    const { pdf, composed } = await renderTicketsPdfAndMail({ doc, mail: input, pdfAt });
    await deps.storage.put(pdfKey, pdf, 'application/pdf');
    if (composed) {
      deps.mailer.prepare(id, composed);
      preparedId = id;
    }
    completion.link = { tokenHash: link.tokenHash };
    mail = { id, message };
  } else if (doc.tickets.length > 0) {
    await deps.storage.put(pdfKey, await renderTicketsPdf(doc), 'application/pdf');
  }
  // Issue 21: the text opt-in needs the mobile number it was given with (the checkout requires one).
  const optInText = order.optInText && !!order.phone;
  if ((order.optInEmail || optInText) && order.email) {
    completion.subscriber = { eventId: order.eventId, email: order.email, optInEmail: order.optInEmail, optInText, phone: order.phone };
  }
  return { completion, mail, preparedId, tickets: doc.tickets.length };
}

/**
 * The completions of prepared orders in one statement (completeMany, with their mails); when it
 * fails, each order's alone, so that one cannot fail the others. A message composed ahead for an
 * order this run did not complete (another run did: its mail is the order's; or the statement failed)
 * is forgotten. Answers, by order id, 'completed' or 'skipped', or the error of its own statement.
 */
async function completeFulfilments(deps: Deps, ready: PreparedFulfilment[]): Promise<Map<string, 'completed' | 'skipped' | Error>> {
  const out = new Map<string, 'completed' | 'skipped' | Error>();
  const write = (batch: PreparedFulfilment[]) => {
    const mails = batch.flatMap((p) => (p.mail ? [{ ...p.mail, when: p.completion.orderId }] : []));
    return repo.completeMany(
      deps.db,
      batch.map((p) => p.completion),
      mails.length ? [outboxCtes(mails, 'done', 'id')] : [],
    );
  };
  const settle = (p: PreparedFulfilment, result: 'completed' | 'skipped' | Error) => {
    out.set(p.completion.orderId, result);
    if (result !== 'completed' && p.preparedId) deps.mailer.forget(p.preparedId);
  };
  if (ready.length === 0) return out;
  try {
    const done = await write(ready);
    for (const p of ready) settle(p, done.has(p.completion.orderId) ? 'completed' : 'skipped');
  } catch (err) {
    if (ready.length === 1) {
      settle(ready[0]!, asError(err));
      return out;
    }
    deps.log.warn({ err, orders: ready.length }, 'a fulfilment batch could not complete: its orders complete one by one');
    await Promise.all(
      ready.map(async (p) => {
        try {
          settle(p, (await write([p])).has(p.completion.orderId) ? 'completed' : 'skipped');
        } catch (own) {
          settle(p, asError(own));
        }
      }),
    );
  }
  return out;
}

async function orderOfEvent(opts: { deps: Deps; ctx: TenantCtx; eventId: string; orderUid: string }) {
  if (!UUID_RE.test(opts.eventId)) throw notFound();
  const order = await repo.findOrderOfEvent(opts.deps.db, opts.ctx.tenantId, opts.eventId, opts.orderUid);
  if (!order) throw notFound();
  return order;
}

const HOUR_MS = 60 * 60_000;

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The resend limits (docs/decisions.md "Issue 21.3: resending tickets"): at most
 * RESENDS_PER_ORDER_PER_HOUR resends of one order and RESENDS_PER_MEMBER_PER_HOUR by one member of
 * the tenant in any hour; the answer says when the next one may go (429 with Retry-After).
 */
async function checkResendLimits(db: DbOrTx, ctx: TenantCtx, orderId: string, now: number) {
  const since = new Date(now - HOUR_MS);
  const limits = [
    { rows: await repo.staffResendsSince(db, ctx.tenantId, { orderId }, since), max: RESENDS_PER_ORDER_PER_HOUR, message: resendOrderLimit },
    { rows: await repo.staffResendsSince(db, ctx.tenantId, { userId: ctx.user.id }, since), max: RESENDS_PER_MEMBER_PER_HOUR, message: resendMemberLimit },
  ];
  for (const { rows, max, message } of limits) {
    if (rows.length < max) continue;
    // Below the limit again once all but max - 1 of them are an hour old.
    const nextAt = rows[rows.length - max]!.getTime() + HOUR_MS;
    throw new RetryLaterError(message(Math.max(1, Math.ceil((nextAt - now) / 60_000))), (nextAt - now) / 1000);
  }
}

/**
 * Mails the order's valid tickets again, to the given address or the order's own. Each mail carries
 * a fresh private link to the order, so sending it to an address that is not the buyer's needs a
 * role that can move the tenant's money (issue 21 §3); resends are limited per order and per member,
 * and each is recorded in the order's trail (who, when, to which address).
 */
export async function resendTickets(opts: { deps: Deps; ctx: TenantCtx; eventId: string; orderUid: string; email?: string | null }) {
  const { deps, ctx } = opts;
  let order = await orderOfEvent(opts);
  const to = opts.email || order.email;
  if (!sameAddress(to, order.email) && !canMoveMoney(ctx)) throw forbidden(M.resendElsewhereNotAllowed);
  // Checked before the slow part, and again under the order's lock as the resend is recorded.
  await checkResendLimits(deps.db, ctx, order.id, Date.now());
  const claim = order.status === 'processing';
  if (claim) {
    // spec §4: a processing order's resend is the claim e-mail; finishing its fulfilment sends it.
    await fulfilOrder({ deps, tenantId: ctx.tenantId, orderId: order.id, claim: true });
    order = (await repo.findOrder(deps.db, ctx.tenantId, order.id)) ?? order;
    if (order.status === 'completed' && sameAddress(to, order.email)) {
      await deps.db.transaction(async (tx) => {
        await lockTenantOrder(tx, ctx.tenantId, order.id);
        await recordOrderAction(tx, { ctx, orderId: order.id, action: 'resend', details: { to, claim: true } });
      });
      return { success: true as const, message: M.resentTickets };
    }
  }
  if (order.status !== 'completed') throw conflict(M.ticketsOnlyForCompletedOrders);
  const doc = await orderTicketDocument(deps, order);
  if (doc.tickets.length === 0) throw conflict(M.noValidTickets);
  // A new key per resend: the earlier mail keeps the attachment it was sent with.
  const pdfKey = `tickets/${ctx.tenantId}/${order.id}/${randomUUID()}.pdf`;
  await deps.storage.put(pdfKey, await renderTicketsPdf(doc), 'application/pdf');
  await deps.db.transaction(async (tx) => {
    // Two resends at once cannot both pass the limit: they queue on the order's row.
    await lockTenantOrder(tx, ctx.tenantId, order.id);
    await checkResendLimits(tx, ctx, order.id, Date.now());
    await sendTicketsMail(tx, { deps, order, doc, pdfKey, to, claim });
    await recordOrderAction(tx, { ctx, orderId: order.id, action: 'resend', details: claim ? { to, claim } : { to } });
  });
  return { success: true as const, message: M.resentTickets };
}

/** The order's valid tickets as one PDF; completed orders only (spec §6 Download Tickets). */
export async function downloadTickets(opts: { deps: Deps; ctx: TenantCtx; eventId: string; orderUid: string }) {
  const order = await orderOfEvent(opts);
  if (order.status !== 'completed') throw conflict(M.ticketsOnlyForCompletedOrders);
  const doc = await orderTicketDocument(opts.deps, order);
  if (doc.tickets.length === 0) throw conflict(M.noValidTickets);
  const bytes = await renderTicketsPdf(doc);
  await recordOrderAction(opts.deps.db, { ctx: opts.ctx, orderId: order.id, action: 'download', details: { tickets: doc.tickets.length } });
  return { filename: ticketsFilename(order.orderUid), bytes };
}

/**
 * Job: paid orders left processing (their fulfilment job died or exhausted its retries) are
 * fulfilled here; then it runs again in five minutes. One run per slot across all nodes.
 */
export async function reconcileFulfilment({ deps }: { deps: Deps }): Promise<number> {
  let repaired = 0;
  try {
    for (const o of await repo.stuckProcessingOrders(deps.db, new Date(Date.now() - STUCK_AFTER_MS), 100)) {
      try {
        if ((await fulfilOrder({ deps, tenantId: o.tenantId, orderId: o.id })) === 'completed') repaired++;
      } catch (err) {
        deps.log.error({ err, orderId: o.id }, 'could not fulfil a stuck order');
      }
    }
    if (repaired > 0) deps.log.warn({ repaired }, 'fulfilled stuck orders');
  } finally {
    await scheduleFulfilmentReconcile(deps, Date.now() + RECONCILE_EVERY_MS);
  }
  return repaired;
}

export async function scheduleFulfilmentReconcile(deps: Deps, at: number) {
  // The slot boundary at or after `at`, so a run is never scheduled into the past.
  const slot = Math.ceil(at / RECONCILE_EVERY_MS);
  await deps.jobs.enqueue(deps.db, FULFIL_RECONCILE_JOB, {}, { runAt: new Date(slot * RECONCILE_EVERY_MS), dedupeKey: `${FULFIL_RECONCILE_JOB}:${slot}` });
}
