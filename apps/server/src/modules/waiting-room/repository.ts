import { and, eq, isNotNull, sql, count } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { waitingRoomAddresses, waitingRooms, waitingRoomVisitors } from '../../db/schema/index.js';

export type RoomRow = typeof waitingRooms.$inferSelect;
export type VisitorRow = typeof waitingRoomVisitors.$inferSelect;

export async function findRoom(db: DbOrTx, tenantId: string, eventId: string): Promise<RoomRow | undefined> {
  const [row] = await db
    .select()
    .from(waitingRooms)
    .where(and(eq(waitingRooms.tenantId, tenantId), eq(waitingRooms.eventId, eventId)));
  return row;
}

export async function upsertRoom(
  db: DbOrTx,
  values: { tenantId: string; eventId: string; enabled: boolean; opensAt: Date; admitPerMinute: number },
): Promise<RoomRow> {
  const [row] = await db
    .insert(waitingRooms)
    .values(values)
    .onConflictDoUpdate({
      target: [waitingRooms.tenantId, waitingRooms.eventId],
      set: { enabled: values.enabled, opensAt: values.opensAt, admitPerMinute: values.admitPerMinute, updatedAt: sql`now()` },
    })
    .returning();
  return row!;
}

export async function findVisitor(db: DbOrTx, tenantId: string, eventId: string, id: string): Promise<VisitorRow | undefined> {
  const [row] = await db
    .select()
    .from(waitingRoomVisitors)
    .where(and(eq(waitingRoomVisitors.tenantId, tenantId), eq(waitingRoomVisitors.eventId, eventId), eq(waitingRoomVisitors.id, id)));
  return row;
}

/**
 * Before opening: a place drawn at random (the lottery number), counted on the room. The draw's
 * round is how many times over the visitor's network (`addressKey`) has already taken
 * `placesPerRound` places in this draw: its first places draw in round 0 with everyone else, the
 * next ones in round 1, behind every round-0 place, and so on (issue 21 §1).
 */
export async function insertEarlyVisitor(
  db: DbOrTx,
  v: { tenantId: string; eventId: string; id: string; lottery: number; addressKey: string; placesPerRound: number },
): Promise<VisitorRow> {
  return db.transaction(async (tx) => {
    await tx
      .update(waitingRooms)
      .set({ earlyCount: sql`${waitingRooms.earlyCount} + 1` })
      .where(and(eq(waitingRooms.tenantId, v.tenantId), eq(waitingRooms.eventId, v.eventId)));
    const [address] = await tx
      .insert(waitingRoomAddresses)
      .values({ tenantId: v.tenantId, eventId: v.eventId, addressKey: v.addressKey, places: 1 })
      .onConflictDoUpdate({
        target: [waitingRoomAddresses.tenantId, waitingRoomAddresses.eventId, waitingRoomAddresses.addressKey],
        set: { places: sql`${waitingRoomAddresses.places} + 1` },
      })
      .returning({ places: waitingRoomAddresses.places });
    const drawRound = Math.floor((address!.places - 1) / v.placesPerRound);
    const [row] = await tx
      .insert(waitingRoomVisitors)
      .values({ tenantId: v.tenantId, eventId: v.eventId, id: v.id, lottery: v.lottery, drawRound })
      .returning();
    return row!;
  });
}

/**
 * After opening: the next admission slot, in arrival order (the room row's lock orders arrivals):
 * no earlier than now, than the end of the early visitors' draw, or than one interval after the
 * previous arrival's slot, so admissions never exceed the rate even after a quiet spell.
 */
export async function insertLateVisitor(db: DbOrTx, v: { tenantId: string; eventId: string; id: string }): Promise<VisitorRow> {
  return db.transaction(async (tx) => {
    const interval = sql`(interval '1 minute' / ${waitingRooms.admitPerMinute})`;
    const [room] = await tx
      .update(waitingRooms)
      .set({
        lastAdmitAt: sql`greatest(now(), ${waitingRooms.opensAt} + ${waitingRooms.earlyCount} * ${interval}, ${waitingRooms.lastAdmitAt} + ${interval})`,
      })
      .where(and(eq(waitingRooms.tenantId, v.tenantId), eq(waitingRooms.eventId, v.eventId)))
      .returning({ lastAdmitAt: waitingRooms.lastAdmitAt });
    const [row] = await tx
      .insert(waitingRoomVisitors)
      .values({ ...v, admitAt: room!.lastAdmitAt })
      .returning();
    return row!;
  });
}

/** An early visitor's rank in the draw: how many early visitors come before them (by round, then lottery number, then id). */
export async function earlyRank(db: DbOrTx, v: VisitorRow): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(waitingRoomVisitors)
    .where(
      and(
        eq(waitingRoomVisitors.tenantId, v.tenantId),
        eq(waitingRoomVisitors.eventId, v.eventId),
        isNotNull(waitingRoomVisitors.lottery),
        sql`(${waitingRoomVisitors.drawRound}, ${waitingRoomVisitors.lottery}, ${waitingRoomVisitors.id}) < (${v.drawRound}::int, ${v.lottery!}::int, ${v.id}::uuid)`,
      ),
    );
  return row!.n;
}

export async function setAdmitAt(db: DbOrTx, v: VisitorRow, admitAt: Date): Promise<void> {
  await db
    .update(waitingRoomVisitors)
    .set({ admitAt })
    .where(and(eq(waitingRoomVisitors.tenantId, v.tenantId), eq(waitingRoomVisitors.id, v.id)));
}
