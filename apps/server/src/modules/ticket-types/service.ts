import { randomUUID } from 'node:crypto';
import {
  M,
  TICKET_TYPE_DEFAULTS,
  ticketTypeInDiscountCodes,
  ticketTypeProblems,
  salesWindowInstants,
  soldAndHeld,
  type TCreateTicketTypeRequest,
  type TTicketType,
  type TTicketTypeFields,
  type ZCreateTicketTypeRequest,
  type ZUpdateTicketTypeRequest,
} from '@marquee/core';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { compileList } from '../../platform/list-query.js';
import * as events from '../events/repository.js';
import { writableEvent } from '../events/writable.js';
import * as repo from './repository.js';

export type { TCreateTicketTypeRequest };

export function toTicketType(row: repo.TicketTypeRow, paidTickets = 0): TTicketType {
  const { sold, held } = soldAndHeld({ givenOut: row.quantity - row.remaining, paidTickets });
  return {
    id: row.id,
    details: {
      eventId: row.eventId,
      name: row.name,
      details: row.description,
      price: row.price,
      quantity: row.quantity,
      remainingQuantity: row.remaining,
      soldOrHeld: row.quantity - row.remaining,
      sold,
      held,
      minTicketPerOrder: row.minPerOrder,
      maxTicketPerOrder: row.maxPerOrder,
      salesAvailability: row.salesAvailability,
      startDate: row.startDate,
      startTime: row.startTime,
      endDate: row.endDate,
      endTime: row.endTime,
      salesStartAt: row.salesStartAt?.toISOString() ?? null,
      salesEndAt: row.salesEndAt?.toISOString() ?? null,
      otherTicketTypeId: row.otherTicketTypeId,
      sortOrder: row.sortOrder,
      active: row.active,
      soldAt: row.soldAt,
      sk: row.id,
      dateCreated: row.createdAt.toISOString(),
    },
  };
}

function fromRow(row: repo.TicketTypeRow): TTicketTypeFields {
  return {
    name: row.name,
    details: row.description,
    price: row.price,
    quantity: row.quantity,
    minTicketPerOrder: row.minPerOrder,
    maxTicketPerOrder: row.maxPerOrder,
    salesAvailability: row.salesAvailability as TTicketTypeFields['salesAvailability'],
    startDate: row.startDate,
    startTime: row.startTime,
    endDate: row.endDate,
    endTime: row.endTime,
    otherTicketTypeId: row.otherTicketTypeId,
    sortOrder: row.sortOrder,
    active: row.active,
    soldAt: row.soldAt as TTicketTypeFields['soldAt'],
  };
}

function toColumns(t: Partial<TTicketTypeFields>): Partial<repo.TicketTypeInsert> {
  const out: Partial<repo.TicketTypeInsert> = {};
  if (t.name !== undefined) out.name = t.name;
  if (t.details !== undefined) out.description = t.details;
  if (t.price !== undefined) out.price = t.price;
  if (t.quantity !== undefined) out.quantity = t.quantity;
  if (t.minTicketPerOrder !== undefined) out.minPerOrder = t.minTicketPerOrder;
  if (t.maxTicketPerOrder !== undefined) out.maxPerOrder = t.maxTicketPerOrder;
  if (t.salesAvailability !== undefined) out.salesAvailability = t.salesAvailability;
  if (t.startDate !== undefined) out.startDate = t.startDate;
  if (t.startTime !== undefined) out.startTime = t.startTime;
  if (t.endDate !== undefined) out.endDate = t.endDate;
  if (t.endTime !== undefined) out.endTime = t.endTime;
  if (t.otherTicketTypeId !== undefined) out.otherTicketTypeId = t.otherTicketTypeId;
  if (t.sortOrder !== undefined) out.sortOrder = t.sortOrder;
  if (t.active !== undefined) out.active = t.active;
  if (t.soldAt !== undefined) out.soldAt = t.soldAt;
  return out;
}

/**
 * Cross-field rules on the whole ticket type, reported like route validation (400, fields under
 * details.*). Inside the caller's transaction the OPT_3 link's target stays key-share locked until
 * the write commits, so a racing delete of it waits and then sees the link (deleteTicketType).
 */
async function assertValid(db: DbOrTx, tenantId: string, eventId: string, t: TTicketTypeFields, selfId: string | null) {
  const problems = ticketTypeProblems(t);
  if (t.salesAvailability === 'SALES_AVAILABILITY_OPT_3' && t.otherTicketTypeId && !problems.otherTicketTypeId) {
    const linked = t.otherTicketTypeId !== selfId && (await repo.lockReferenced(db, tenantId, eventId, [t.otherTicketTypeId])).has(t.otherTicketTypeId);
    if (!linked) problems.otherTicketTypeId = M.otherTicketTypeRequired;
  }
  const entries = Object.entries(problems);
  if (entries.length === 0) return;
  const fields = Object.fromEntries(entries.map(([k, v]) => [`details.${k}`, v]));
  throw new AppError('VALIDATION', entries[0]![1], fields);
}

export async function listTicketTypes({ deps, ctx, eventId, query }: { deps: Deps; ctx: TenantCtx; eventId: string; query: unknown }) {
  const q = compileList(repo.TICKET_TYPE_LIST, query);
  if (!(await events.findEvent(deps.db, ctx.tenantId, eventId))) throw notFound();
  const { rows, total } = await repo.listTicketTypes(deps.db, ctx.tenantId, eventId, q);
  const paid = await repo.paidTicketsByType(deps.db, ctx.tenantId, eventId);
  return q.page(rows, total, ({ row }) => toTicketType(row, paid.get(row.id)));
}

export async function getTicketType({ deps, ctx, eventId, ticketTypeId }: { deps: Deps; ctx: TenantCtx; eventId: string; ticketTypeId: string }) {
  const row = await repo.findTicketType(deps.db, ctx.tenantId, eventId, ticketTypeId);
  if (!row) throw notFound();
  return toTicketType(row, (await repo.paidTicketsByType(deps.db, ctx.tenantId, eventId)).get(row.id));
}

export async function createTicketType({
  deps,
  ctx,
  eventId,
  input,
}: {
  deps: Deps;
  ctx: TenantCtx;
  eventId: string;
  input: z.output<typeof ZCreateTicketTypeRequest>['details'];
}): Promise<TTicketType> {
  const event = await writableEvent(deps.db, ctx.tenantId, eventId);
  const merged: TTicketTypeFields = { ...TICKET_TYPE_DEFAULTS, ...input } as TTicketTypeFields;
  const row = await deps.db.transaction(async (tx) => {
    await assertValid(tx, ctx.tenantId, eventId, merged, null);
    // A delete of the event under way first: nothing of it may be left behind (events/repository keepEvent).
    if (!(await events.keepEvent(tx, ctx.tenantId, eventId))) throw notFound();
    return repo.insertTicketType(tx, {
      tenantId: ctx.tenantId,
      id: randomUUID(),
      eventId,
      ...(toColumns(merged) as Required<Pick<repo.TicketTypeInsert, 'name' | 'price' | 'quantity'>>),
      remaining: merged.quantity,
      ...salesWindowInstants(merged, event.timeZone),
    });
  });
  return toTicketType(row);
}

export async function updateTicketType({
  deps,
  ctx,
  eventId,
  ticketTypeId,
  changes,
}: {
  deps: Deps;
  ctx: TenantCtx;
  eventId: string;
  ticketTypeId: string;
  changes: z.output<typeof ZUpdateTicketTypeRequest>['details'];
}): Promise<TTicketType> {
  const event = await writableEvent(deps.db, ctx.tenantId, eventId);
  const current = await repo.findTicketType(deps.db, ctx.tenantId, eventId, ticketTypeId);
  if (!current) throw notFound();
  const merged: TTicketTypeFields = { ...fromRow(current), ...changes } as TTicketTypeFields;
  const row = await deps.db.transaction(async (tx) => {
    await assertValid(tx, ctx.tenantId, eventId, merged, ticketTypeId);
    return repo.updateTicketType(tx, ctx.tenantId, eventId, ticketTypeId, {
      ...toColumns(changes),
      ...salesWindowInstants(merged, event.timeZone),
    });
  });
  if (!row) {
    // Gone meanwhile, or the quantity fell below what is sold or held (checked in the update itself).
    if (!(await repo.findTicketType(deps.db, ctx.tenantId, eventId, ticketTypeId))) throw notFound();
    throw new AppError('CONFLICT', M.quantityBelowSold, { 'details.quantity': M.quantityBelowSold });
  }
  return toTicketType(row, (await repo.paidTicketsByType(deps.db, ctx.tenantId, eventId)).get(row.id));
}

/**
 * Deletes a ticket type that never sold and that nothing points at: another ticket type's
 * availability (OPT_3) or a discount code limited to it (docs/decisions.md, "Deleting a ticket
 * type a discount code applies to"). One transaction: the row is locked first, so no discount code
 * write (which key-share locks the ticket types it names) can start to name it before this commits.
 */
export async function deleteTicketType({ deps, ctx, eventId, ticketTypeId }: { deps: Deps; ctx: TenantCtx; eventId: string; ticketTypeId: string }) {
  await writableEvent(deps.db, ctx.tenantId, eventId);
  await deps.db.transaction(async (tx) => {
    const row = await repo.findTicketType(tx, ctx.tenantId, eventId, ticketTypeId, true);
    if (!row) throw notFound();
    // Sold or held first: such a ticket type can never be deleted, whatever points at it.
    if (row.remaining !== row.quantity) throw conflict(M.ticketTypeHasSales);
    if ((await repo.countLinksTo(tx, ctx.tenantId, eventId, ticketTypeId)) > 0) throw conflict(M.ticketTypeLinked);
    const codes = await repo.discountCodesNaming(tx, ctx.tenantId, eventId, ticketTypeId);
    if (codes.length > 0) throw conflict(ticketTypeInDiscountCodes(codes));
    if (!(await repo.deleteUnsoldTicketType(tx, ctx.tenantId, eventId, ticketTypeId))) throw conflict(M.ticketTypeHasSales);
  });
  return { success: true as const };
}
