import { createHash, timingSafeEqual } from 'node:crypto';
import { spreadOrderDiscount, type TPublicOrder } from '@marquee/core';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { SiteCtx } from '../../platform/auth/context.js';
import { notFound } from '../../platform/errors.js';
import * as eventsRepo from '../events/repository.js';
import * as repo from './repository.js';

/** What an order keeps of the token answered at PLACE ORDER: the success page must show it. */
export const viewTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

const ZStoredCharges = z.object({ donationFee: z.number().int().nonnegative(), channelCharge: z.number().int().nonnegative() });

/**
 * The donation fee and the channel charge of a placed order. They have no columns of their own:
 * they are read from the engine's result stored with the order (orders.breakdown), 0 if absent.
 */
export function storedCharges(breakdown: string | null): { donationFee: number; channelCharge: number } {
  if (!breakdown) return { donationFee: 0, channelCharge: 0 };
  try {
    const parsed = ZStoredCharges.safeParse(JSON.parse(breakdown));
    return parsed.success ? parsed.data : { donationFee: 0, channelCharge: 0 };
  } catch {
    return { donationFee: 0, channelCharge: 0 };
  }
}

const ZStoredLines = z.object({ orderDetails: z.array(z.object({ ticketId: z.string(), discount: z.number().int().nonnegative() })) });

/**
 * What the discount took off each line of a placed order, by ticket type (issue 21.8): as the
 * pricing engine answered it (stored with the order), or, for an order placed before the engine
 * answered it per line, the order's discount shared over its lines in proportion to their price.
 */
export function lineDiscounts(
  order: { discount: number; breakdown: string | null },
  lines: ReadonlyArray<{ ticketTypeId: string; unitPrice: number; quantity: number }>,
): Map<string, number> {
  if (order.discount <= 0) return new Map(lines.map((l) => [l.ticketTypeId, 0]));
  try {
    const parsed = ZStoredLines.safeParse(order.breakdown ? JSON.parse(order.breakdown) : null);
    if (parsed.success) {
      const stored = new Map(parsed.data.orderDetails.map((d) => [d.ticketId, d.discount]));
      if (lines.every((l) => stored.has(l.ticketTypeId)) && lines.reduce((n, l) => n + stored.get(l.ticketTypeId)!, 0) === order.discount) return stored;
    }
  } catch {
    // An unreadable breakdown: shared as below.
  }
  const shares = spreadOrderDiscount(lines, order.discount);
  return new Map(lines.map((l, i) => [l.ticketTypeId, shares[i] ?? 0]));
}

export function tokenMatches(hash: string | null, token: string): boolean {
  if (!hash) return false;
  const a = Buffer.from(hash, 'hex');
  const b = Buffer.from(viewTokenHash(token), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** spec §2 success page: 'processing' until the payment is confirmed, then the order. Needs the order's token. */
export async function getPublicOrder(opts: { deps: Deps; site: SiteCtx; orderUid: string; token: string }): Promise<TPublicOrder> {
  const { deps, site } = opts;
  const order = await repo.findOrderByUid(deps.db, site.tenant.id, opts.orderUid);
  if (!order || !tokenMatches(order.viewTokenHash, opts.token)) throw notFound();
  return toPublicOrder(deps, order);
}

/** An order as the buyer sees it (the success page, and the private order page of issue 15). */
export async function toPublicOrder(deps: Deps, order: NonNullable<Awaited<ReturnType<typeof repo.findOrderByUid>>>): Promise<TPublicOrder> {
  const event = await eventsRepo.findEvent(deps.db, order.tenantId, order.eventId);
  const paymentStatus =
    order.status === 'processing' || order.status === 'completed' ? 'paid' : order.status === 'draft' ? 'processing' : order.status === 'expired' ? 'expired' : 'cancelled';
  const lines = paymentStatus === 'paid' ? await repo.findLines(deps.db, order.tenantId, order.id) : [];
  const discounts = lineDiscounts(order, lines);
  const charged = paymentStatus === 'cancelled' && order.chargeId !== null && order.paymentMethod !== 'free';
  return {
    orderUID: order.orderUid,
    paymentStatus,
    refund: !charged ? 'none' : order.refunded ? 'refunded' : 'pending',
    eventName: event?.name ?? '',
    details:
      paymentStatus === 'paid'
        ? {
            email: order.email,
            fullName: `${order.firstName} ${order.lastName}`.trim(),
            ticketCount: order.ticketCount,
            subtotal: order.subtotal,
            surcharge: order.surcharge,
            processingFee: order.processingFee,
            discount: order.discount,
            discountCode: order.discountCode,
            vat: order.vat,
            donation: order.donation,
            charityName: order.donation > 0 ? order.charityName : null,
            ...storedCharges(order.breakdown),
            totalAmount: order.totalAmount,
            orderDetails: lines.map((l) => ({
              order: { ticketId: l.ticketTypeId },
              ticketName: l.ticketName,
              price: l.unitPrice,
              quantity: l.quantity,
              discount: discounts.get(l.ticketTypeId) ?? 0,
            })),
            dateCreated: order.createdAt.toISOString(),
          }
        : null,
  };
}

