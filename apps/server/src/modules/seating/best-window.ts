import { adjacentRuns } from '@marquee/core';
import type { Db } from '../../db/client.js';
import * as repo from './repository.js';

// Issue 27 (on-sale speed): "best available: N together" without reading and sorting the free seats
// on every request. Each node keeps, per event and ticket type, a window of the best free seats
// read from the database (the free-seat index, front and centre first) and hands out its runs of N
// adjacent seats best first, each run to one request of this node at a time (a seat handed out is
// not handed out again until the window is read afresh). The window is never trusted: the take
// (repository takeSeatsAtOnce) locks the run's seats with SKIP LOCKED and holds them only when each
// is still free, so a run another node or a picking buyer took meanwhile is simply not taken and the
// next one is tried. The window is read again when it has no run left or is older than WINDOW_MS
// (seats given back by a released or expired hold come back then); seats whose take is still under
// way are left out of the new window. When the window has nothing (or every run tried was gone),
// hold-seats.ts falls back to reading the free seats afresh.

/** How many of the best free seats a window holds (the read sorts every free seat anyway; more costs little). */
export const WINDOW_SEATS = 1000;
/** How old a window may be before it is read again. */
export const WINDOW_MS = 1000;

const MAX_WINDOWS = 256;

type Window = {
  at: number;
  seats: repo.BestSeatRow[];
  /** Seats handed out since the window was read (taken, being taken, or tried and gone). */
  given: Set<number>;
  /** Runs of each size, best first, and how far they have been handed out. */
  runs: Map<number, { list: number[][]; next: number }>;
};
type Slot = { window: Window | null; loading: Promise<void> | null; inFlight: Map<number, number> };

const slots = new WeakMap<object, Map<string, Slot>>();

function slotOf(db: Db, key: string): Slot {
  let byKey = slots.get(db);
  if (!byKey) slots.set(db, (byKey = new Map()));
  let slot = byKey.get(key);
  if (!slot) {
    // Events on sale at once are few: the oldest window goes when there are too many.
    if (byKey.size >= MAX_WINDOWS) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, (slot = { window: null, loading: null, inFlight: new Map() }));
  }
  return slot;
}

async function load(db: Db, slot: Slot, p: { tenantId: string; eventId: string; ticketTypeId: string }) {
  if (!slot.loading) {
    slot.loading = (async () => {
      try {
        const seats = await repo.bestFreeSeats(db, { ...p, limit: WINDOW_SEATS });
        slot.window = { at: Date.now(), seats, given: new Set(slot.inFlight.keys()), runs: new Map() };
      } finally {
        slot.loading = null;
      }
    })();
  }
  await slot.loading;
}

function handOut(w: Window, size: number): number[] | null {
  let runs = w.runs.get(size);
  if (!runs) w.runs.set(size, (runs = { list: adjacentRuns(w.seats, size).map((run) => run.map((s) => s.n)), next: 0 }));
  while (runs.next < runs.list.length) {
    const run = runs.list[runs.next++]!;
    if (run.some((n) => w.given.has(n))) continue;
    for (const n of run) w.given.add(n);
    return run;
  }
  return null;
}

/**
 * The next run of `size` adjacent seats for this node to try, or null when the window (read afresh
 * once if it had none left) has none. `done(run)` must be called when its take is over.
 */
export async function nextBestRun(db: Db, p: { tenantId: string; eventId: string; ticketTypeId: string; size: number }): Promise<number[] | null> {
  const slot = slotOf(db, `${p.tenantId}|${p.eventId}|${p.ticketTypeId}`);
  let fresh = false;
  if (!slot.window || Date.now() - slot.window.at > WINDOW_MS) {
    await load(db, slot, p);
    fresh = true;
  }
  let run = handOut(slot.window!, p.size);
  if (!run && !fresh) {
    await load(db, slot, p);
    run = handOut(slot.window!, p.size);
  }
  if (run) for (const n of run) slot.inFlight.set(n, (slot.inFlight.get(n) ?? 0) + 1);
  return run;
}

/** The run's take is over (held or not): its seats may be in a window read from now on, as the database says. */
export function bestRunDone(db: Db, p: { tenantId: string; eventId: string; ticketTypeId: string }, run: number[]) {
  const slot = slotOf(db, `${p.tenantId}|${p.eventId}|${p.ticketTypeId}`);
  for (const n of run) {
    const k = (slot.inFlight.get(n) ?? 1) - 1;
    if (k <= 0) slot.inFlight.delete(n);
    else slot.inFlight.set(n, k);
  }
}
