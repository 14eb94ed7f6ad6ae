import { randomUUID } from 'node:crypto';
import {
  M,
  discountCodeProblems,
  type DiscountKind,
  type PriceOrderDiscount,
  type TDiscountCode,
  type TDiscountCodeFields,
  type ZCreateDiscountCodeRequest,
  type ZUpdateDiscountCodeRequest,
} from '@marquee/core';
import type { z } from 'zod';
import type { DbOrTx, Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { isCheckViolation, isUniqueViolation } from '../../platform/db-errors.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { compileList } from '../../platform/list-query.js';
import * as events from '../events/repository.js';
import { writableEvent } from '../events/writable.js';
import * as ticketTypes from '../ticket-types/repository.js';
import * as repo from './repository.js';

// A percentage is stored as basis points (12.5% = 1250), an amount as cents.
const toStored = (kind: DiscountKind, value: number) => (kind === 'percent' ? Math.round(value * 100) : value);
const fromStored = (kind: string, value: number) => (kind === 'percent' ? value / 100 : value);

export function toDiscountCode(row: repo.DiscountCodeRow): TDiscountCode {
  return {
    id: row.id,
    details: {
      eventId: row.eventId,
      code: row.code,
      kind: row.kind as DiscountKind,
      value: fromStored(row.kind, row.value),
      usageLimit: row.usageLimit,
      usedCount: row.usedCount,
      startsAt: row.startsAt?.toISOString() ?? null,
      endsAt: row.endsAt?.toISOString() ?? null,
      ticketTypeIds: row.ticketTypeIds,
      active: row.active,
      dateCreated: row.createdAt.toISOString(),
    },
  };
}

/** The pricing engine's discount: an empty ticket type list means every ticket type of the event. */
export function toPriceDiscount(row: repo.DiscountCodeRow): PriceOrderDiscount {
  return {
    kind: row.kind as DiscountKind,
    value: fromStored(row.kind, row.value),
    ...(row.ticketTypeIds.length > 0 ? { appliesTo: row.ticketTypeIds } : {}),
  };
}

function fromRow(row: repo.DiscountCodeRow): TDiscountCodeFields {
  return {
    code: row.code,
    kind: row.kind as DiscountKind,
    value: fromStored(row.kind, row.value),
    usageLimit: row.usageLimit,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    ticketTypeIds: row.ticketTypeIds,
    active: row.active,
  };
}

function toColumns(d: Partial<TDiscountCodeFields>, merged: TDiscountCodeFields): Partial<repo.DiscountCodeInsert> {
  const out: Partial<repo.DiscountCodeInsert> = {};
  if (d.code !== undefined) out.code = d.code;
  if (d.kind !== undefined || d.value !== undefined) {
    out.kind = merged.kind;
    out.value = toStored(merged.kind, merged.value);
  }
  if (d.usageLimit !== undefined) out.usageLimit = d.usageLimit;
  if (d.startsAt !== undefined) out.startsAt = d.startsAt === null ? null : new Date(d.startsAt);
  if (d.endsAt !== undefined) out.endsAt = d.endsAt === null ? null : new Date(d.endsAt);
  if (d.ticketTypeIds !== undefined) out.ticketTypeIds = [...new Set(d.ticketTypeIds)];
  if (d.active !== undefined) out.active = d.active;
  return out;
}

/**
 * Run inside the write's transaction: the ticket types the code names are key-share locked until it
 * commits, so none of them can be deleted in between (ticket-types/service.ts deleteTicketType).
 */
async function assertValid(tx: Tx, tenantId: string, eventId: string, d: TDiscountCodeFields) {
  const problems = discountCodeProblems(d);
  if (!problems.ticketTypeIds && d.ticketTypeIds.length > 0) {
    const own = await ticketTypes.lockReferenced(tx, tenantId, eventId, d.ticketTypeIds);
    if (d.ticketTypeIds.some((id) => !own.has(id))) problems.ticketTypeIds = M.discountTicketTypes;
  }
  const entries = Object.entries(problems);
  if (entries.length === 0) return;
  throw new AppError('VALIDATION', entries[0]![1], Object.fromEntries(entries.map(([k, v]) => [`details.${k}`, v])));
}

const codeTaken = () => new AppError('CONFLICT', M.discountCodeTaken, { 'details.code': M.discountCodeTaken });

async function eventOrThrow(db: DbOrTx, tenantId: string, eventId: string, write: boolean) {
  if (write) return writableEvent(db, tenantId, eventId);
  const event = await events.findEvent(db, tenantId, eventId);
  if (!event) throw notFound();
  return event;
}

export async function listDiscountCodes({ deps, ctx, eventId, query }: { deps: Deps; ctx: TenantCtx; eventId: string; query: unknown }) {
  const q = compileList(repo.DISCOUNT_CODE_LIST, query);
  await eventOrThrow(deps.db, ctx.tenantId, eventId, false);
  const { rows, total } = await repo.listDiscountCodes(deps.db, ctx.tenantId, eventId, q);
  return q.page(rows, total, ({ row }) => toDiscountCode(row));
}

export async function getDiscountCode({ deps, ctx, eventId, discountCodeId }: { deps: Deps; ctx: TenantCtx; eventId: string; discountCodeId: string }) {
  const row = await repo.findDiscountCode(deps.db, ctx.tenantId, eventId, discountCodeId);
  if (!row) throw notFound();
  return toDiscountCode(row);
}

export async function createDiscountCode({
  deps,
  ctx,
  eventId,
  input,
}: {
  deps: Deps;
  ctx: TenantCtx;
  eventId: string;
  input: z.output<typeof ZCreateDiscountCodeRequest>['details'];
}): Promise<TDiscountCode> {
  await eventOrThrow(deps.db, ctx.tenantId, eventId, true);
  const merged: TDiscountCodeFields = { usageLimit: null, startsAt: null, endsAt: null, ticketTypeIds: [], active: true, ...input };
  try {
    const row = await deps.db.transaction(async (tx) => {
      await assertValid(tx, ctx.tenantId, eventId, merged);
      // A delete of the event under way first: nothing of it may be left behind (events/repository keepEvent).
      if (!(await events.keepEvent(tx, ctx.tenantId, eventId))) throw notFound();
      if (await repo.findByCode(tx, ctx.tenantId, eventId, merged.code)) throw codeTaken();
      return repo.insertDiscountCode(tx, {
        tenantId: ctx.tenantId,
        id: randomUUID(),
        eventId,
        ...(toColumns(merged, merged) as Required<Pick<repo.DiscountCodeInsert, 'code' | 'kind' | 'value'>>),
      });
    });
    return toDiscountCode(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw codeTaken();
    throw err;
  }
}

export async function updateDiscountCode({
  deps,
  ctx,
  eventId,
  discountCodeId,
  changes,
}: {
  deps: Deps;
  ctx: TenantCtx;
  eventId: string;
  discountCodeId: string;
  changes: z.output<typeof ZUpdateDiscountCodeRequest>['details'];
}): Promise<TDiscountCode> {
  await eventOrThrow(deps.db, ctx.tenantId, eventId, true);
  const current = await repo.findDiscountCode(deps.db, ctx.tenantId, eventId, discountCodeId);
  if (!current) throw notFound();
  const merged: TDiscountCodeFields = { ...fromRow(current), ...changes };
  try {
    const row = await deps.db.transaction(async (tx) => {
      await assertValid(tx, ctx.tenantId, eventId, merged);
      if (changes.code && changes.code !== current.code) {
        const other = await repo.findByCode(tx, ctx.tenantId, eventId, changes.code);
        if (other && other.id !== discountCodeId) throw codeTaken();
      }
      const updated = await repo.updateDiscountCode(tx, ctx.tenantId, eventId, discountCodeId, toColumns(changes, merged));
      if (!updated) throw notFound();
      return updated;
    });
    return toDiscountCode(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw codeTaken();
    // The usage limit may not go below the uses already made (the row's check constraint).
    if (isCheckViolation(err, 'discount_codes_usage_within_limit')) throw conflict(M.usageLimitBelowUsed);
    throw err;
  }
}

export async function deleteDiscountCode({ deps, ctx, eventId, discountCodeId }: { deps: Deps; ctx: TenantCtx; eventId: string; discountCodeId: string }) {
  await eventOrThrow(deps.db, ctx.tenantId, eventId, true);
  if (!(await repo.deleteDiscountCode(deps.db, ctx.tenantId, eventId, discountCodeId))) throw notFound();
  return { success: true as const };
}
