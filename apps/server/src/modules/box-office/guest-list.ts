import { randomUUID } from 'node:crypto';
import { type TGuestListResponse, type ZGuestListRequest } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import * as repo from './repository.js';
import { quoteSale, saleSnapshot, sellInTx } from './sell.js';

/**
 * Comps from the console as a guest list (issue 23): one complimentary order per guest, their
 * tickets mailed (the fulfil job, as for any order). All or nothing, in one transaction: each
 * guest's tickets go through the same take as any sale, and the event's comp limit is checked
 * under the event's lock for the whole list. Each guest's order carries the list's key and its
 * position, so sending the same list again gives the same orders and sends nothing twice.
 */
export async function sendGuestList({ deps, ctx, eventId, input }: { deps: Deps; ctx: TenantCtx; eventId: string; input: z.output<typeof ZGuestListRequest> }): Promise<TGuestListResponse> {
  const snapshot = await saleSnapshot(deps, ctx, eventId);
  const now = new Date();
  const quotes = input.guests.map((g) => quoteSale(snapshot, { lines: [{ ticketTypeId: input.ticketTypeId, quantity: g.quantity }], paymentMethod: 'complimentary' }, now));
  const wanted = quotes.reduce((n, q) => n + q.priced.ticketCount, 0);
  const keyOf = (i: number) => `${input.idempotencyKey}:${i}`;

  const orders = await deps.db.transaction(async (tx) => {
    await repo.lockSaleKey(tx, ctx.tenantId, input.idempotencyKey);
    const out: TGuestListResponse['orders'] = [];
    for (const [i, guest] of input.guests.entries()) {
      const earlier = await repo.findOrderByKey(tx, ctx.tenantId, keyOf(i));
      if (earlier) {
        out.push({ orderUID: earlier.orderUid, email: earlier.email, tickets: earlier.ticketCount });
        continue;
      }
      const { lines, config, priced } = quotes[i]!;
      const sale = { idempotencyKey: keyOf(i), lines: [{ ticketTypeId: input.ticketTypeId, quantity: guest.quantity }], firstName: guest.firstName, lastName: guest.lastName, email: guest.email, paymentMethod: 'complimentary' as const, admit: false };
      // The first guest's take locks the event: the limit is checked for the whole list at once, so
      // the answer names how many are left for all of it rather than failing part-way.
      const sold = await sellInTx(deps, tx, {
        ctx,
        snapshot,
        input: sale,
        lines,
        discountId: null,
        discountCode: null,
        config,
        priced,
        orderId: randomUUID(),
        comp: true,
        now,
        listTickets: i === 0 ? wanted : 0,
      });
      // The list's key is locked and this guest's key was not found: nothing else can have taken it.
      if (!sold) throw new Error(`guest list ${input.idempotencyKey}: guest ${i} sold twice`);
      out.push({ orderUID: sold.order.orderUid, email: sold.order.email, tickets: sold.order.ticketCount });
    }
    return out;
  });
  return { orders };
}

