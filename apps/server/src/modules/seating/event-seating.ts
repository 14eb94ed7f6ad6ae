import { generateSeats, seatLabelOf, seatScores, SM, type TEventSeating, type TSectionSpec, type ZEventSeatingInput } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { badRequest, DomainError, notFound } from '../../platform/errors.js';
import * as eventsRepo from '../events/repository.js';
import { loadLayout } from './layouts.js';
import * as repo from './repository.js';

// Issue 27.1: an event takes a layout by copying its seats (docs/decisions.md "Issue 27.1"), each
// category selling as one of the event's ticket types. The copy changes only while no seat is held
// or sold; after that the plan is the event's own record of who sits where.

class InUse extends Error {}

async function eventOf(deps: Deps, ctx: TenantCtx, eventId: string) {
  const event = await eventsRepo.findEvent(deps.db, ctx.tenantId, eventId);
  if (!event) throw notFound();
  return event;
}

export async function getEventSeating({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TEventSeating> {
  await eventOf(deps, ctx, eventId);
  const found = await repo.findEventSeating(deps.db, ctx.tenantId, eventId);
  if (!found) return { layoutId: null, layoutName: null, categories: [], seatCount: 0, held: 0, sold: 0 };
  return { layoutId: found.seating.layoutId, layoutName: found.seating.layoutName, categories: found.categories, seatCount: found.seats, held: found.held, sold: found.sold };
}

export async function setEventSeating(opts: { deps: Deps; ctx: TenantCtx; eventId: string; input: z.output<typeof ZEventSeatingInput> }): Promise<TEventSeating> {
  const { deps, ctx, eventId, input } = opts;
  await eventOf(deps, ctx, eventId);
  const found = await loadLayout(deps, ctx.tenantId, input.layoutId);
  if (!found) throw notFound(SM.layoutNotFound);
  const types = new Set((await repo.eventTicketTypes(deps.db, ctx.tenantId, eventId)).map((t) => t.id));
  const specs = found.wire.details.sections;
  const categories = [...new Set(specs.map((s) => s.category))];
  const mapping = new Map(input.categories.map((c) => [c.category, c.ticketTypeId]));
  for (const c of input.categories) {
    if (!categories.includes(c.category)) throw badRequest(SM.unknownCategory(c.category), { categories: SM.unknownCategory(c.category) });
    if (!types.has(c.ticketTypeId)) throw badRequest(SM.ticketTypeNotFound, { categories: SM.ticketTypeNotFound });
  }
  const unmapped = categories.find((c) => !mapping.has(c));
  if (unmapped) throw badRequest(SM.categoryUnmapped(unmapped), { categories: SM.categoryUnmapped(unmapped) });

  const rows = eventSeatRowsOf(specs, found.flags, mapping);
  try {
    await deps.db.transaction(async (tx) => {
      if (!(await repo.clearEventSeats(tx, ctx.tenantId, eventId))) throw new InUse();
      await repo.insertEventSeating(tx, {
        tenantId: ctx.tenantId,
        eventId,
        layoutId: found.layout.id,
        layoutName: found.layout.name,
        categories: categories.map((category) => ({ category, ticketTypeId: mapping.get(category)! })),
        seats: rows,
      });
    });
  } catch (err) {
    if (err instanceof InUse) throw new DomainError('SEATING_IN_USE', SM.seatingInUse);
    throw err;
  }
  // The seats are in: the planner learns of them now, not when autovacuum comes round (the holds'
  // statement looks seats up by key only when it knows the table; repository analyzeSeating).
  await repo.analyzeSeating(deps.db).catch((err: unknown) => deps.log.warn({ err }, 'analyze after the seats copy failed'));
  return getEventSeating({ deps, ctx, eventId });
}

export async function clearEventSeating({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TEventSeating> {
  await eventOf(deps, ctx, eventId);
  try {
    await deps.db.transaction(async (tx) => {
      if (!(await repo.clearEventSeats(tx, ctx.tenantId, eventId))) throw new InUse();
    });
  } catch (err) {
    if (err instanceof InUse) throw new DomainError('SEATING_IN_USE', SM.seatingInUse);
    throw err;
  }
  return getEventSeating({ deps, ctx, eventId });
}

/** The event's copy of a layout's seats: generated from its sections (core generateSeats), with the house's flags, scores and ticket types. */
export function eventSeatRowsOf(specs: TSectionSpec[], flagRows: Array<Pick<repo.FlagRow, 'seatKey' | 'status' | 'accessible' | 'companion'>>, mapping: ReadonlyMap<string, string>) {
  const seats = generateSeats(specs);
  const scores = seatScores(seats);
  const flags = new Map(flagRows.map((f) => [f.seatKey, f]));
  return seats.map((s, n) => {
    const f = flags.get(s.key);
    return {
      n,
      section: s.section,
      rowLabel: s.row,
      seatLabel: s.seat,
      label: seatLabelOf(s.section, s.row, s.seat),
      rowKey: s.rowKey,
      seatIndex: s.seatIndex,
      x: s.x,
      y: s.y,
      category: s.category,
      ticketTypeId: mapping.get(s.category) ?? null,
      accessible: f?.accessible ?? false,
      companion: f?.companion ?? false,
      status: f?.status ?? 'open',
      score: scores[n]!,
    };
  });
}
