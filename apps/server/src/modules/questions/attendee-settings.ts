import { QM, type AttendeeFieldMode, type TAttendeeForm, type TAttendeeSettings, type TUpdateAttendeeSettingsRequest, type QuestionKind, type QuestionScope } from '@marquee/core';
import type { Db, DbOrTx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import type { SiteCtx, TenantCtx } from '../../platform/auth/context.js';
import { createBatcher, type Batcher } from '../../platform/batcher.js';
import { AppError, notFound } from '../../platform/errors.js';
import * as events from '../events/repository.js';
import { writableEvent } from '../events/writable.js';
import * as repo from './repository.js';

// Per ticket type, the attendee's name and e-mail (off, optional, required); per event, until when
// buyers may change their answers (default: the event's start). Issue 24.

/** What the event asks at checkout (the questions still asked, in order; each ticket type's name and e-mail). */
const formReaders = new WeakMap<object, Batcher<{ tenantId: string; eventId: string }, TAttendeeForm>>();

/**
 * The form PLACE ORDER checks answers against (issue 24), read like the checkout's snapshot
 * (platform/batcher.ts): the same read asked for while one runs is answered by the next one, shared
 * by all who waited, so a rush of orders with answers reads the form once per round trip, not once
 * per order (bench/README.md "Flash sale", BENCH_ANSWERS). Callers must not change the answer.
 */
export function readAttendeeForm(db: Db, tenantId: string, eventId: string): Promise<TAttendeeForm> {
  let reader = formReaders.get(db);
  if (!reader) {
    formReaders.set(
      db,
      (reader = createBatcher(async (_key, batch) => {
        const form = await loadAttendeeForm(db, batch[0]!.tenantId, batch[0]!.eventId);
        return batch.map(() => form);
      })),
    );
  }
  return reader.submit(`${tenantId}/${eventId}`, { tenantId, eventId });
}

export async function loadAttendeeForm(db: DbOrTx, tenantId: string, eventId: string): Promise<TAttendeeForm> {
  const { questions, types } = await repo.formOf(db, tenantId, eventId);
  return {
    questions: questions.map((q) => ({ ...q, kind: q.kind as QuestionKind, scope: q.scope as QuestionScope })),
    ticketTypes: types.map((t) => ({ ticketTypeId: t.ticketTypeId, askName: t.askName as AttendeeFieldMode, askEmail: t.askEmail as AttendeeFieldMode })),
  };
}

/** The checkout's read: only for an event the site shows (the caller's tenant bounds it). */
export async function getPublicAttendeeForm(opts: { deps: Deps; site: SiteCtx; eventId: string }): Promise<TAttendeeForm> {
  const event = await events.findEvent(opts.deps.db, opts.site.tenant.id, opts.eventId);
  if (!event || event.publishedAt === null) throw notFound();
  return loadAttendeeForm(opts.deps.db, event.tenantId, event.id);
}

/** The buyer's deadline in force: the organiser's, or the event's start; null when neither is set. */
export async function effectiveDeadline(db: DbOrTx, tenantId: string, event: { id: string; startDateTime: Date | null }): Promise<Date | null> {
  return (await repo.findDeadline(db, tenantId, event.id)) ?? event.startDateTime;
}

export async function getAttendeeSettings(opts: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TAttendeeSettings> {
  const { deps, ctx, eventId } = opts;
  const event = await events.findEvent(deps.db, ctx.tenantId, eventId);
  if (!event) throw notFound();
  const [deadline, types] = await Promise.all([repo.findDeadline(deps.db, ctx.tenantId, eventId), repo.attendeeFields(deps.db, ctx.tenantId, eventId)]);
  const effective = deadline ?? event.startDateTime;
  return {
    answersDeadline: deadline?.toISOString() ?? null,
    effectiveDeadline: effective?.toISOString() ?? null,
    ticketTypes: types.map((t) => ({ ticketTypeId: t.ticketTypeId, name: t.name, askName: t.askName as AttendeeFieldMode, askEmail: t.askEmail as AttendeeFieldMode })),
  };
}

export async function updateAttendeeSettings(opts: { deps: Deps; ctx: TenantCtx; eventId: string; input: TUpdateAttendeeSettingsRequest }): Promise<TAttendeeSettings> {
  const { deps, ctx, eventId, input } = opts;
  await writableEvent(deps.db, ctx.tenantId, eventId);
  const own = new Set((await repo.attendeeFields(deps.db, ctx.tenantId, eventId)).map((t) => t.ticketTypeId));
  const types = input.ticketTypes ?? [];
  if (types.some((t) => !own.has(t.ticketTypeId))) throw new AppError('VALIDATION', QM.ticketTypeUnknown, { ticketTypes: QM.ticketTypeUnknown });
  await deps.db.transaction(async (tx) => {
    await repo.upsertAttendeeFields(
      tx,
      types.map((t) => ({ tenantId: ctx.tenantId, ticketTypeId: t.ticketTypeId, eventId, askName: t.askName, askEmail: t.askEmail })),
    );
    if (input.answersDeadline !== undefined) await repo.setDeadline(tx, ctx.tenantId, eventId, input.answersDeadline ? new Date(input.answersDeadline) : null);
  });
  return getAttendeeSettings({ deps, ctx, eventId });
}
