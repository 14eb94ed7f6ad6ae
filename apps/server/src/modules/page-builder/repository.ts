import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { eventPages, eventPageVersions } from '../../db/schema/index.js';

export type EventPageRow = typeof eventPages.$inferSelect;

export async function findPage(db: DbOrTx, tenantId: string, eventId: string, lock = false): Promise<EventPageRow | undefined> {
  const q = db.select().from(eventPages).where(and(eq(eventPages.tenantId, tenantId), eq(eventPages.eventId, eventId)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function upsertDraft(db: DbOrTx, values: typeof eventPages.$inferInsert): Promise<void> {
  const { tenantId: _t, eventId: _e, ...set } = values;
  await db
    .insert(eventPages)
    .values(values)
    .onConflictDoUpdate({ target: [eventPages.tenantId, eventPages.eventId], set });
}

export async function setLive(db: DbOrTx, tenantId: string, eventId: string, version: number | null): Promise<void> {
  await db.update(eventPages).set({ liveVersion: version }).where(and(eq(eventPages.tenantId, tenantId), eq(eventPages.eventId, eventId)));
}

export async function listVersions(db: DbOrTx, tenantId: string, eventId: string) {
  return db
    .select({ version: eventPageVersions.version, publishedAt: eventPageVersions.publishedAt })
    .from(eventPageVersions)
    .where(and(eq(eventPageVersions.tenantId, tenantId), eq(eventPageVersions.eventId, eventId)))
    .orderBy(desc(eventPageVersions.version));
}

export async function findVersion(db: DbOrTx, tenantId: string, eventId: string, version: number) {
  const [row] = await db
    .select()
    .from(eventPageVersions)
    .where(and(eq(eventPageVersions.tenantId, tenantId), eq(eventPageVersions.eventId, eventId), eq(eventPageVersions.version, version)));
  return row;
}

export async function insertVersion(db: DbOrTx, values: typeof eventPageVersions.$inferInsert): Promise<void> {
  await db.insert(eventPageVersions).values(values);
}
