import { adjacentRuns, isOneSeatChoice, M, SM, type TSeatHold, type ZSeatHoldRequest } from '@marquee/core';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import type { SiteCtx } from '../../platform/auth/context.js';
import { badRequest, DomainError, notFound } from '../../platform/errors.js';
import * as repo from './repository.js';
import { bestRunDone, nextBestRun } from './best-window.js';
import { queueSeatHoldExpiry, seatHoldExpiryJob } from './seat-hold-jobs.js';
import { newSeatToken, seatTokenMatches } from './seat-token.js';
import { takeInBatch } from './take-batch.js';

// Issue 27.2: a buyer's seats, held for the checkout. The hot path is one statement, shared with the
// other holds of the same turn (take-batch.ts, repository takeSeatsBatch): picked seats are locked
// and taken when each is open, for sale and free (a pick racing another buyer's take is tried again
// alone, waiting for it: takeSeatsAtOnce); "best available: N together" takes the node's next run of
// N adjacent seats (best-window.ts) the same way, trying a few runs. When the window has none
// left, or a hold replaces another, the transaction below reads the best free seats afresh, finds
// runs of N adjacent seats in one row (core adjacentRuns) and takes the first run whose seats it can
// lock (a savepoint per run). Either way the whole hold is taken or nothing is written. The
// database keeps a seat in one hold or one order at most (db/schema/seating.ts).

class Refused extends Error {
  constructor(readonly error: DomainError) {
    super(error.message);
  }
}
class Short extends Error {}

/** How many of the best free seats best-available looks at before it reads them all. */
const BEST_WINDOW = 400;
/** How many runs it tries before it gives up (each skipped run was being taken by someone else). */
const BEST_TRIES = 40;
/** How many times it reads the best free seats again when every run it tried was taken meanwhile. */
const BEST_ROUNDS = 5;

/** How many runs of the node's best-available window a hold tries before it reads the free seats afresh. */
const WINDOW_TRIES = 8;

/** How long a node answers holds from its last read of an event's sale (status, ticket types, seated types). */
const SALE_MS = 1000;
const sales = new WeakMap<object, Map<string, { at: number; sale: repo.SeatSale | null }>>();
/** The read of a sale under way for the hot path (issue 27 seats3): the holds that find the remembered read too old share one. */
const reading = new WeakMap<object, Map<string, Promise<repo.SeatSale | null>>>();

/**
 * The event's sale as this node read it within SALE_MS (`fresh`: read now). Only the hot path's
 * checks use a remembered read, and the take checks again in SQL what they rely on (the event on
 * sale, each seat for sale, the per-order limits): a refusal is always confirmed on a fresh read.
 * When the remembered read is too old, the holds arriving meanwhile wait for one read together
 * (before, under a rush each of them read the sale: ~35 reads a second instead of one).
 */
async function saleOf(db: Deps['db'], tenantId: string, eventId: string, fresh: boolean): Promise<repo.SeatSale | null> {
  let byKey = sales.get(db);
  if (!byKey) sales.set(db, (byKey = new Map()));
  const key = `${tenantId}|${eventId}`;
  const kept = byKey.get(key);
  if (!fresh && kept && Date.now() - kept.at < SALE_MS) return kept.sale;
  const read = async () => {
    const sale = await repo.seatSale(db, tenantId, eventId);
    if (byKey.size >= 1024) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, { at: Date.now(), sale });
    return sale;
  };
  if (fresh) return read();
  let under = reading.get(db);
  if (!under) reading.set(db, (under = new Map()));
  let pending = under.get(key);
  if (!pending) {
    pending = read().finally(() => under.delete(key));
    under.set(key, pending);
  }
  return pending;
}

/** Refuses a hold the event's sale does not allow (not found, not on sale, no seats, bad choice, wrong type, over the limit). */
function checkSale(sale: repo.SeatSale | null, input: z.output<typeof ZSeatHoldRequest>): repo.SeatSale {
  if (!sale || (sale.status !== 'published' && !sale.published)) throw notFound();
  if (sale.status !== 'published') throw new DomainError('EVENT_NOT_ON_SALE', M.eventNotOnSale);
  if (sale.seated.size === 0) throw notFound();
  if (!isOneSeatChoice(input)) throw badRequest(M.invalidValue, { seats: M.invalidValue });
  if (input.best) {
    if (!sale.seated.has(input.best.ticketTypeId)) throw new DomainError('SEAT_WRONG_TICKET_TYPE', SM.seatWrongType);
    const max = sale.maxPerOrder.get(input.best.ticketTypeId) ?? 0;
    if (input.best.quantity > max) throw new DomainError('SEAT_LIMIT', SM.seatLimit(max));
  }
  return sale;
}

/** `tenantId`: the attendee site's tenant, or the box office's (issue 27: a seller holds seats through the same path). */
export async function holdSeats(opts: { deps: Deps; tenantId: string; eventId: string; input: z.output<typeof ZSeatHoldRequest> }): Promise<TSeatHold> {
  const { deps, tenantId, eventId, input } = opts;
  let sale: repo.SeatSale;
  let remembered = true;
  try {
    sale = checkSale(await saleOf(deps.db, tenantId, eventId, false), input);
  } catch {
    sale = checkSale(await saleOf(deps.db, tenantId, eventId, true), input);
    remembered = false;
  }
  /** Before any refusal or the slow path: the sale as it is now (throws when it no longer allows the hold). */
  const confirm = async () => {
    if (remembered) sale = checkSale(await saleOf(deps.db, tenantId, eventId, true), input);
    remembered = false;
    return sale.maxPerOrder;
  };
  const picked = input.seats ? [...new Set(input.seats)].sort((a, b) => a - b) : null;

  const holdId = randomUUID();
  const { token, hash } = newSeatToken();
  const expiresAt = new Date(Date.now() + deps.config.holdMinutes * 60_000);
  const answer = (seats: repo.HeldSeatRow[]): TSeatHold => ({ holdId, token, expiresAt: expiresAt.toISOString(), seats: seats.sort((a, b) => a.n - b.n) });

  // The hot path: one statement takes the seats, writes the hold and queues its expiry (a hold that
  // replaces another one takes the transaction below, which gives the old one back first).
  if (!input.replace) {
    const request = (seats: number[], bestOf: string | null): repo.TakeRequest => ({ tenantId, eventId, seats, bestOf, holdId, tokenHash: hash, expiresAt, job: seatHoldExpiryJob({ tenantId, holdId, at: expiresAt }) });
    // With the other holds of this turn (take-batch.ts), skipping seats another buyer is taking. A
    // pick that found every seat free but not every one lockable was racing another buyer's take:
    // it is tried again alone, waiting for that take's end (the seats are then the other's, or free).
    const take = async (seats: number[], bestOf: string | null): Promise<repo.TakeOutcome & { refusal?: repo.BatchOutcome['refusal'] }> => {
      const got = await takeInBatch(deps.db, request(seats, bestOf));
      if (bestOf !== null || got.complete || got.free < seats.length) return got;
      return repo.takeSeatsAtOnce(deps.db, { ...request(seats, bestOf), skipLocked: false });
    };
    const overLimit = async (counted: Array<[string, number]>) => {
      const maxOf = await confirm();
      const over = counted.find(([id, k]) => k > (maxOf.get(id) ?? 0));
      return over ? new DomainError('SEAT_LIMIT', SM.seatLimit(maxOf.get(over[0]) ?? 0)) : null;
    };
    if (picked) {
      const got = await take(picked, null);
      if (got.seats.length === picked.length) return answer(got.seats);
      if (got.complete && !got.within) {
        const refusal = await overLimit(got.counted);
        if (refusal) throw refusal;
      }
      // The take's own read says why (the event on sale, a seat taken when it began): no statement more.
      if (got.refusal?.onSale && !got.complete) throw notTakenBecause(picked, got.refusal.seen);
      await confirm();
      throw await whyNotTaken(deps, tenantId, eventId, picked);
    }
    const { ticketTypeId, quantity } = input.best!;
    const window = { tenantId, eventId, ticketTypeId };
    for (let i = 0; i < WINDOW_TRIES; i++) {
      const run = await nextBestRun(deps.db, { ...window, size: quantity });
      if (!run) break;
      try {
        const got = await take(run, ticketTypeId);
        if (got.seats.length === quantity) return answer(got.seats);
        if (got.complete && !got.within) {
          const refusal = await overLimit(got.counted);
          if (refusal) throw refusal;
        }
      } finally {
        bestRunDone(deps.db, window, run);
      }
    }
    // The window had no run left, or every one tried was gone: read the free seats afresh below.
  }
  const maxOf = await confirm();
  try {
    const seats = await deps.db.transaction(async (tx) => {
      if (input.replace) {
        const old = await repo.findSeatHold(tx, tenantId, input.replace.holdId, true);
        if (old && old.eventId === eventId && old.status === 'live' && seatTokenMatches(old.tokenHash, input.replace.token)) {
          await repo.releaseSeatHold(tx, { tenantId, holdId: old.id });
        }
      }
      await repo.insertSeatHold(tx, { tenantId, id: holdId, eventId, tokenHash: hash, expiresAt });
      let taken: repo.HeldSeatRow[] = [];
      if (picked) {
        taken = await repo.takeSeats(tx, { tenantId, eventId, holdId, seats: picked });
        if (taken.length < picked.length) throw new Short();
      } else {
        const { ticketTypeId, quantity } = input.best!;
        // Each round reads the best free seats afresh: in a rush, the runs of the last read may all
        // have gone to others while later ones are still free. No run left at all: none together.
        for (let round = 0; round < BEST_ROUNDS && taken.length === 0; round++) {
          let runs = adjacentRuns(await repo.bestFreeSeats(tx, { tenantId, eventId, ticketTypeId, limit: BEST_WINDOW }), quantity);
          if (runs.length === 0) runs = adjacentRuns(await repo.bestFreeSeats(tx, { tenantId, eventId, ticketTypeId, limit: null }), quantity);
          if (runs.length === 0) break;
          // The last round waits for other buyers' locks instead of skipping them, and tries every
          // run it read: a buyer is refused only when no run was left.
          const last = round === BEST_ROUNDS - 1;
          for (const run of last ? runs : runs.slice(0, BEST_TRIES)) {
            const got = await tryRun(tx, { tenantId, eventId, holdId, seats: run.map((x) => x.n), wait: last });
            if (got) {
              taken = got;
              break;
            }
          }
        }
        if (taken.length !== quantity) throw new Refused(new DomainError('SEATS_NOT_TOGETHER', SM.noSeatsTogether(quantity)));
      }
      const perType = new Map<string, number>();
      for (const s of taken) perType.set(s.ticketTypeId, (perType.get(s.ticketTypeId) ?? 0) + 1);
      for (const [typeId, count] of perType) {
        const max = maxOf.get(typeId) ?? 0;
        if (count > max) throw new Refused(new DomainError('SEAT_LIMIT', SM.seatLimit(max)));
      }
      await queueSeatHoldExpiry(deps, tx, { tenantId, holdId, at: expiresAt });
      return taken;
    });
    return answer(seats);
  } catch (err) {
    if (err instanceof Refused) throw err.error;
    if (err instanceof Short) throw await whyNotTaken(deps, tenantId, eventId, picked!);
    throw err;
  }
}

class Skip extends Error {}

/**
 * Takes one run in a savepoint: either all its seats, or nothing and no lock kept (a seat locked
 * and then given up would otherwise stay locked, and skipped by everyone, until the hold's
 * transaction ends). `wait`: wait for another buyer's lock on the run instead of skipping it.
 */
async function tryRun(tx: Tx, p: { tenantId: string; eventId: string; holdId: string; seats: number[]; wait: boolean }): Promise<repo.HeldSeatRow[] | null> {
  try {
    return await tx.transaction(async (sp) => {
      if (!p.wait && (await repo.lockFreeSeats(sp, p)).length !== p.seats.length) throw new Skip();
      const got = await repo.takeSeats(sp, p);
      if (got.length !== p.seats.length) throw new Skip();
      return got;
    });
  } catch (err) {
    if (err instanceof Skip) return null;
    throw err;
  }
}

/** Why picked seats could not all be taken (read after the rollback): not in the plan, or not free. */
async function whyNotTaken(deps: Deps, tenantId: string, eventId: string, picked: number[]): Promise<DomainError> {
  const rows = await repo.seatsByNumber(deps.db, tenantId, eventId, picked);
  return notTakenBecause(
    picked,
    rows.map((s) => ({ n: s.n, label: s.label, free: s.status === 'open' && s.holdId === null && s.orderId === null && s.ticketTypeId !== null })),
  );
}

/** The refusal of picked seats, from the seats as read: not in the plan, or these not free. */
function notTakenBecause(picked: number[], rows: repo.SeenSeat[]): DomainError {
  if (rows.length < picked.length) return new DomainError('SEAT_NOT_FOUND', SM.seatNotFound);
  const unavailable = rows.filter((s) => !s.free);
  const labels = (unavailable.length ? unavailable : rows)
    .sort((a, b) => a.n - b.n)
    .map((s) => s.label)
    .join(', ');
  return new DomainError('SEAT_UNAVAILABLE', SM.seatUnavailable(labels));
}

/** The buyer gives their seats back (they changed their mind); a hold already bought or gone is not found. */
export async function releaseSeats(opts: { deps: Deps; site: SiteCtx; eventId: string; holdId: string; token: string }): Promise<{ success: true }> {
  const { deps, site, eventId, holdId, token } = opts;
  const tenantId = site.tenant.id;
  const released = await deps.db.transaction(async (tx) => {
    const hold = await repo.findSeatHold(tx, tenantId, holdId, true);
    if (!hold || hold.eventId !== eventId || hold.status !== 'live' || !seatTokenMatches(hold.tokenHash, token)) return false;
    return repo.releaseSeatHold(tx, { tenantId, holdId });
  });
  if (!released) throw notFound();
  return { success: true };
}
