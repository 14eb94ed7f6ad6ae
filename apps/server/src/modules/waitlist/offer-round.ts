import { randomUUID } from 'node:crypto';
import { formatMoney } from '@marquee/core';
import { publicOrigin } from '../../config.js';
import type { Deps } from '../../deps.js';
import { DomainError } from '../../platform/errors.js';
import { escapeHtml } from '../../platform/mail.js';
import { holdRequestOf, newHold, NO_BUYER } from '../checkout/order-row.js';
import { quoteCart } from '../checkout/pricing.js';
import * as checkoutRepo from '../checkout/repository.js';
import { viewTokenHash } from '../orders/public-order.js';
import * as repo from './repository.js';

// Issue 24: tickets that come back are offered to the waiting list in join order
// (docs/waiting-list.md). An offer is a draft order for the person, taken by the checkout's own hold
// statement (mq_take_holds: same locks, same checks), so offered tickets are taken for every other
// buyer, and its hold-expiry job gives them back when the offer runs out, which queues the next
// round (the trigger of migration 0021). One round per event at a time, on any node: each locks the
// event's list row first.

/** Queued by the database whenever tickets come back (migration 0021_waitlist), and by the sweep. */
export const WAITLIST_OFFER_JOB = 'waitlist.offer';
/** Every minute: rounds for events whose offers ran out or that have free tickets and people waiting. */
export const WAITLIST_SWEEP_JOB = 'waitlist.sweep';
export const SWEEP_EVERY_MS = 60_000;
/** Most offers one round makes (a round for more is queued again at once). */
const ROUND_MAX = 2000;
/** Rounds one job runs back to back while they still offer something (then it queues another job). */
const ROUNDS_PER_JOB = 20;

type Round = { deps: Deps; tenantId: string; eventId: string; entryId?: string };

/**
 * Offers what is free to the next people waiting: each gets min(asked, free) of their ticket type,
 * in join order. Answers how many offers were made. With entryId (the organiser's offer by hand)
 * only that entry is offered, out of turn, and a refusal is an error.
 */
export async function runOfferRound({ deps, tenantId, eventId, entryId }: Round): Promise<number> {
  // Prices and fees as the checkout reads them; the hold statement checks them again under its locks.
  const snapshot = await checkoutRepo.findCheckoutSnapshot(deps.db, { tenantId, eventId, discountCode: null });
  const tenant = await repo.findTenant(deps.db, tenantId);
  if (!snapshot || !tenant) return 0;
  const cannot = () => new DomainError('WAITLIST_CANNOT_OFFER', 'No ticket is free for this person now, or they are not waiting any more.');
  const made = await deps.db.transaction(async (tx) => {
    const settings = await repo.lockSettings(tx, tenantId, eventId);
    await repo.settleOffers(tx, tenantId, eventId);
    if (!settings.enabled || snapshot.event.status !== 'published') {
      if (entryId) throw cannot();
      return [];
    }
    const { event, types } = await repo.freeTickets(tx, tenantId, eventId);
    const free = new Map(types.filter((t) => t.active).map((t) => [t.id, t.remaining]));
    let capacity = event?.remainingCapacity ?? null;
    const totalFree = Math.min([...free.values()].reduce((n, r) => n + r, 0), capacity ?? Number.MAX_SAFE_INTEGER);
    if (totalFree <= 0) {
      if (entryId) throw cannot();
      return [];
    }
    const waiting = await repo.lockWaiting(tx, tenantId, eventId, Math.min(totalFree, ROUND_MAX), entryId);
    const now = new Date();
    const planned: Array<{ entry: repo.EntryRow; quantity: number; orderId: string; token: string; expiresAt: Date }> = [];
    const requests: checkoutRepo.HoldRequest[] = [];
    // One quote per ticket type and quantity: a round of a thousand offers prices a handful of carts.
    const quotes = new Map<string, ReturnType<typeof quoteCart>>();
    const quote = (ticketTypeId: string, quantity: number) => {
      const key = `${ticketTypeId}:${quantity}`;
      let q = quotes.get(key);
      if (!q) quotes.set(key, (q = quoteCart(snapshot, { lines: [{ ticketTypeId, quantity }], discountCode: null, donation: 0, donationField: 'donation', now })));
      return q;
    };
    for (const entry of waiting) {
      const left = free.get(entry.ticketTypeId) ?? 0;
      const quantity = Math.min(entry.quantity, left, capacity ?? Number.MAX_SAFE_INTEGER);
      if (quantity <= 0) continue;
      free.set(entry.ticketTypeId, left - quantity);
      if (capacity !== null) capacity -= quantity;
      const hold = newHold(now, settings.offerMinutes);
      planned.push({ entry, quantity, orderId: hold.orderId, token: hold.token, expiresAt: hold.holdExpiresAt });
      // The draft order for the person it is offered to, as every hold writes one (checkout/order-row.ts):
      // PLACE ORDER takes this hold only for this address (checkout/take-over-hold.ts). No code and no
      // donation on an offer: its price is the ticket's, as the one quote prices it.
      requests.push(
        holdRequestOf({
          tenantId,
          eventId,
          hold,
          source: 'online',
          buyer: { ...NO_BUYER, email: entry.email },
          quote: quote(entry.ticketTypeId, quantity),
          userId: null,
          admission: null,
          waitlistEntryId: entry.id,
          paymentProvider: null,
        }),
      );
    }
    if (entryId && requests.length === 0) throw cannot();
    const outcomes = await checkoutRepo.holdInTx(tx, requests);
    const taken = planned.filter((_, i) => outcomes[i]!.ok);
    if (entryId && taken.length === 0) throw cannot();
    await repo.markOffered(
      tx,
      tenantId,
      taken.map((p) => ({ entryId: p.entry.id, quantity: p.quantity, orderId: p.orderId, tokenHash: viewTokenHash(p.token), offeredAt: now, expiresAt: p.expiresAt })),
    );
    const origin = publicOrigin(deps.config, tenant.url);
    const names = new Map(snapshot.types.map((t) => [t.id, t]));
    await repo.queueMails(
      tx,
      tenantId,
      tenant.email || null,
      taken.map((p) => {
        const t = names.get(p.entry.ticketTypeId);
        const link = `${origin}/${snapshot.event.urlName}/waitlist/claim?entry=${p.entry.id}&token=${p.token}`;
        return { id: randomUUID(), to: p.entry.email, ...offerMail({ event: snapshot.event.name, ticket: t?.name ?? 'Tickets', price: t?.price ?? 0, quantity: p.quantity, link, expiresAt: p.expiresAt, tenant: tenant.name }) };
      }),
    );
    return taken;
  });
  return made.length;
}

function offerMail(o: { event: string; ticket: string; price: number; quantity: number; link: string; expiresAt: Date; tenant: string }) {
  const what = `${o.quantity} × ${o.ticket} (${formatMoney(o.price)} each)`;
  const until = `${o.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const subject = `Tickets are available for ${o.event}`;
  const text = [
    `Good news: tickets came back for ${o.event}, and you are next on the waiting list.`,
    '',
    `They are held for you: ${what}.`,
    `Claim them before ${until}: ${o.link}`,
    '',
    'After that they go to the next person on the list.',
    '',
    o.tenant,
  ].join('\n');
  const html = `<p>Good news: tickets came back for <strong>${escapeHtml(o.event)}</strong>, and you are next on the waiting list.</p>
<p>They are held for you: ${escapeHtml(what)}.</p>
<p><a href="${escapeHtml(o.link)}" style="display:inline-block;padding:10px 18px;background:#5b3cc4;color:#fff;border-radius:6px;text-decoration:none">Claim your tickets</a></p>
<p>Claim them before ${escapeHtml(until)}. After that they go to the next person on the list.</p>
<p>${escapeHtml(o.tenant)}</p>`;
  return { subject, text, html };
}

/** Job: the sweep. Queues a round for each event whose offers ran out or with free tickets and people waiting. */
export async function sweepWaitlists({ deps }: { deps: Deps }) {
  for (const e of await repo.eventsToSweep(deps.db)) {
    await deps.jobs.enqueue(deps.db, WAITLIST_OFFER_JOB, { tenantId: e.tenantId, eventId: e.eventId });
  }
}

export async function scheduleSweep(deps: Deps, at: number) {
  const slot = Math.floor(at / SWEEP_EVERY_MS);
  await deps.jobs.enqueue(deps.db, WAITLIST_SWEEP_JOB, {}, { runAt: new Date(slot * SWEEP_EVERY_MS), dedupeKey: `${WAITLIST_SWEEP_JOB}:${slot}` });
}

export function registerWaitlistJobs(deps: Deps) {
  deps.jobs.register(WAITLIST_OFFER_JOB, async (payload: { tenantId: string; eventId: string }) => {
    // Tickets that came back while a round ran are offered by the next one at once, in this job:
    // not behind the mail jobs the round just queued.
    for (let i = 0; i < ROUNDS_PER_JOB; i++) {
      if ((await runOfferRound({ deps, tenantId: payload.tenantId, eventId: payload.eventId })) === 0) return;
    }
    await deps.jobs.enqueue(deps.db, WAITLIST_OFFER_JOB, payload);
  });
  deps.jobs.register(WAITLIST_SWEEP_JOB, async () => {
    try {
      await sweepWaitlists({ deps });
    } finally {
      await scheduleSweep(deps, Date.now() + SWEEP_EVERY_MS);
    }
  });
}
