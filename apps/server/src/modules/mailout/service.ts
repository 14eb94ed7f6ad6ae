import { randomUUID } from 'node:crypto';
import {
  ATTENDEE_MESSAGES_PER_DAY,
  attendeeMessageDailyLimit,
  isValidTimeZone,
  M,
  type TAttendeeAudience,
  type TAttendeeMessage,
  type TUnsubscribeAnswer,
  type TUnsubscribeState,
  type ZAttendeeAudienceRequest,
  type ZCreateAttendeeMessageRequest,
} from '@marquee/core';
import sanitizeHtml from 'sanitize-html';
import type { z } from 'zod';
import { publicOrigin } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import type { SiteCtx, TenantCtx } from '../../platform/auth/context.js';
import { AppError, DomainError, notFound } from '../../platform/errors.js';
import { compileList } from '../../platform/list-query.js';
import { findEvent } from '../events/repository.js';
import { sanitizePolicyHtml } from '../policies/service.js';
import { attendeeMail } from './attendee-mail.js';
import * as repo from './repository.js';
import { unsubscribeToken, verifyUnsubscribeToken } from './unsubscribe-token.js';

// Messages to attendees of an event (issue 15, organisers; docs/decisions.md "Messages to
// attendees"): composed in the console, counted, then sent by a job, one mail per distinct
// address through the outbox, exactly once per address however often the job runs.

export const ATTENDEE_MESSAGE_JOB = 'mailout.send';
export const ATTENDEE_MESSAGE_MAX_ATTEMPTS = 5;
const BATCH = 25;

export type AttendeeMessageJob = { tenantId: string; messageId: string };
type AudienceInput = z.output<typeof ZAttendeeAudienceRequest>['details'];
type MessageInput = z.output<typeof ZCreateAttendeeMessageRequest>['details'];

function toMessage(row: repo.AttendeeMessageRow): TAttendeeMessage {
  return {
    id: row.id,
    details: {
      subject: row.subject,
      body: row.body,
      recipients: row.recipients as TAttendeeMessage['details']['recipients'],
      ticketTypeIds: row.ticketTypeIds,
      ticketTypeNames: row.ticketTypeNames,
      marketing: row.marketing,
      status: row.status as TAttendeeMessage['details']['status'],
      total: row.total,
      sent: row.sent,
      optedOut: row.optedOut,
      createdBy: row.createdByEmail,
      dateCreated: row.createdAt.toISOString(),
      dateSent: row.finishedAt?.toISOString() ?? null,
    },
  };
}

async function eventOrThrow(deps: Deps, ctx: TenantCtx, eventId: string) {
  const event = await findEvent(deps.db, ctx.tenantId, eventId);
  if (!event) throw notFound();
  return event;
}

/** The chosen ticket types, each checked to be the event's: id -> name. */
async function chosenTypes(deps: Deps, ctx: TenantCtx, eventId: string, input: AudienceInput): Promise<Map<string, string> | null> {
  if (input.recipients === 'all') return null;
  const ids = [...new Set(input.ticketTypeIds)];
  const found = await repo.ticketTypesOf(deps.db, ctx.tenantId, eventId, ids);
  if (ids.some((id) => !found.has(id))) throw new AppError('VALIDATION', M.attendeeMessageTicketTypeUnknown, { 'details.ticketTypeIds': M.attendeeMessageTicketTypeUnknown });
  return found;
}

/** How many distinct addresses the message would go to now, and who is left out (shown before sending). */
export async function previewAudience(opts: { deps: Deps; ctx: TenantCtx; eventId: string; input: AudienceInput }): Promise<TAttendeeAudience> {
  const { deps, ctx, eventId, input } = opts;
  await eventOrThrow(deps, ctx, eventId);
  const types = await chosenTypes(deps, ctx, eventId, input);
  return repo.countAudience(deps.db, { tenantId: ctx.tenantId, eventId, ticketTypeIds: types ? [...types.keys()] : null, marketing: input.marketing });
}

/** Same rule as policies: blank is judged on what is left after sanitising. */
function cleanBody(html: string): string {
  const clean = sanitizePolicyHtml(html);
  const text = sanitizeHtml(clean, { allowedTags: [], allowedAttributes: {} }).replace(/&nbsp;|\u00a0/g, ' ').trim();
  if (!text) throw new AppError('VALIDATION', M.messageRequired, { 'details.body': M.messageRequired });
  return clean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** "Nov 27, 2026, 4:31 AM EST" in the event's zone, rounded up to the minute (the organiser's clock for this event). */
function whenInZone(ms: number, timeZone: string): string {
  const zone = isValidTimeZone(timeZone) ? timeZone : 'UTC';
  const up = Math.ceil(ms / 60_000) * 60_000;
  return new Intl.DateTimeFormat('en-US', { timeZone: zone, month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(up);
}

/**
 * The send limits (ours; docs/decisions.md "A send limit on messages to attendees"): one message of
 * an event on its way at a time, and at most ATTENDEE_MESSAGES_PER_DAY in any 24 hours. Checked
 * under the event's row lock, so two sends at once cannot both pass.
 */
async function checkSendLimits(tx: DbOrTx, ctx: TenantCtx, event: { id: string; timeZone: string }, now: number) {
  await repo.lockEvent(tx, ctx.tenantId, event.id);
  if (await repo.hasMessageInFlight(tx, ctx.tenantId, event.id)) throw new DomainError('MESSAGE_IN_PROGRESS', M.attendeeMessageInProgress);
  const recent = await repo.messagesSince(tx, ctx.tenantId, event.id, new Date(now - DAY_MS));
  if (recent.length >= ATTENDEE_MESSAGES_PER_DAY) {
    // Below the limit again once all but ATTENDEE_MESSAGES_PER_DAY - 1 of them are a day old.
    const nextAt = recent[recent.length - ATTENDEE_MESSAGES_PER_DAY]!.getTime() + DAY_MS;
    throw new DomainError('MESSAGE_LIMIT_REACHED', attendeeMessageDailyLimit(whenInZone(nextAt, event.timeZone)), { retryAfterSeconds: (nextAt - now) / 1000 });
  }
}

export async function createAttendeeMessage(opts: { deps: Deps; ctx: TenantCtx; eventId: string; input: MessageInput }): Promise<TAttendeeMessage> {
  const { deps, ctx, eventId, input } = opts;
  const event = await eventOrThrow(deps, ctx, eventId);
  const body = cleanBody(input.body);
  const types = await chosenTypes(deps, ctx, eventId, input);
  const audience = await repo.countAudience(deps.db, { tenantId: ctx.tenantId, eventId, ticketTypeIds: types ? [...types.keys()] : null, marketing: input.marketing });
  if (audience.recipients === 0) throw new DomainError('NO_RECIPIENTS', M.attendeeMessageNoRecipients);
  const row = await deps.db.transaction(async (tx) => {
    await checkSendLimits(tx, ctx, event, Date.now());
    const created = await repo.insertMessage(tx, {
      tenantId: ctx.tenantId,
      id: randomUUID(),
      eventId,
      subject: input.subject,
      body,
      recipients: input.recipients,
      ticketTypeIds: types ? [...types.keys()] : [],
      ticketTypeNames: types ? [...types.values()] : [],
      marketing: input.marketing,
      createdBy: ctx.user.id,
      createdByEmail: ctx.user.email,
    });
    await deps.jobs.enqueue(tx, ATTENDEE_MESSAGE_JOB, { tenantId: ctx.tenantId, messageId: created.id } satisfies AttendeeMessageJob, {
      dedupeKey: `${ATTENDEE_MESSAGE_JOB}:${created.id}`,
      maxAttempts: ATTENDEE_MESSAGE_MAX_ATTEMPTS,
    });
    return created;
  });
  return toMessage(row);
}

export async function listAttendeeMessages(opts: { deps: Deps; ctx: TenantCtx; eventId: string; query: unknown }) {
  const { deps, ctx, eventId } = opts;
  const q = compileList(repo.MESSAGE_LIST, opts.query);
  await eventOrThrow(deps, ctx, eventId);
  const { rows, total } = await repo.listMessages(deps.db, ctx.tenantId, eventId, q);
  return q.page(rows, total, ({ row }) => toMessage(row));
}

export async function getAttendeeMessage(opts: { deps: Deps; ctx: TenantCtx; eventId: string; messageId: string }): Promise<TAttendeeMessage> {
  const row = await repo.findMessage(opts.deps.db, opts.ctx.tenantId, opts.messageId);
  if (!row || row.eventId !== opts.eventId) throw notFound();
  return toMessage(row);
}

/**
 * Job mailout.send. First it fixes the recipients (one row per distinct address), then mails them
 * in batches: each address is claimed in the transaction that writes its mail to the outbox, so a
 * retry, or a second worker, skips every address already mailed. `maxBatches` stops early (tests
 * watch the progress in between).
 */
export async function sendAttendeeMessage(opts: { deps: Deps; job: AttendeeMessageJob; attempt?: number; batchSize?: number; maxBatches?: number }) {
  const { deps, job } = opts;
  try {
    await runSend(opts);
  } catch (err) {
    if ((opts.attempt ?? 1) >= ATTENDEE_MESSAGE_MAX_ATTEMPTS) await repo.updateMessage(deps.db, job.tenantId, job.messageId, { status: 'failed', finishedAt: new Date() });
    throw err;
  }
}

async function runSend(opts: { deps: Deps; job: AttendeeMessageJob; batchSize?: number; maxBatches?: number }) {
  const { deps, job } = opts;
  const message = await repo.findMessage(deps.db, job.tenantId, job.messageId);
  if (!message || message.status === 'done' || message.status === 'failed') return;
  if (message.total === null) {
    await deps.db.transaction(async (tx) => {
      const locked = await repo.findMessage(tx, job.tenantId, job.messageId, true);
      if (!locked || locked.total !== null) return;
      const counted = await repo.snapshotRecipients(tx, locked);
      await repo.updateMessage(tx, job.tenantId, job.messageId, { total: counted.total, optedOut: counted.optedOut, status: 'sending' });
    });
  }
  const sender = await repo.senderInfo(deps.db, job.tenantId, message.eventId);
  if (!sender) throw new Error(`event ${message.eventId} of message ${message.id} is missing`);
  const origin = publicOrigin(deps.config, sender.tenantUrl);
  const m = { tenantId: job.tenantId, id: job.messageId };
  for (let batches = 0; opts.maxBatches === undefined || batches < opts.maxBatches; batches++) {
    const emails = await repo.nextPending(deps.db, m, opts.batchSize ?? BATCH);
    if (emails.length === 0) {
      await repo.updateMessage(deps.db, job.tenantId, job.messageId, { status: 'done', finishedAt: new Date() });
      return;
    }
    await deps.db.transaction(async (tx) => {
      let sent = 0;
      for (const email of emails) {
        if (!(await repo.claimRecipient(tx, m, email))) continue;
        const token = unsubscribeToken(deps.config.secret, job.tenantId, email);
        const outboxId = await deps.mailer.send(
          tx,
          attendeeMail({
            tenantId: job.tenantId,
            to: email,
            organiser: sender.organiser,
            contactEmail: sender.contactEmail,
            eventName: sender.eventName,
            subject: message.subject,
            html: message.body,
            unsubscribeUrl: `${origin}/unsubscribe/${token}`,
            oneClickUrl: `${origin}/api/p/unsubscribe/${token}`,
            marketing: message.marketing,
          }),
        );
        await repo.setRecipientOutbox(tx, m, email, outboxId);
        sent += 1;
      }
      if (sent > 0) await repo.addSent(tx, m, sent);
    });
  }
}

// ---- the attendee site's unsubscribe page ----------------------------------------------------------

function addressOf(deps: Deps, site: SiteCtx, token: string): string {
  const email = verifyUnsubscribeToken(deps.config.secret, site.tenant.id, token);
  if (!email) throw notFound(M.unsubscribeLinkInvalid);
  return email;
}

export async function getUnsubscribeState(opts: { deps: Deps; site: SiteCtx; token: string }): Promise<TUnsubscribeState> {
  const email = addressOf(opts.deps, opts.site, opts.token);
  return { email, organiser: opts.site.tenant.name, optedOut: await repo.isOptedOut(opts.deps.db, opts.site.tenant.id, email) };
}

/** Opts the address out of this tenant's messages to attendees (the page's button, or a mail client's one-click post). */
export async function unsubscribe(opts: { deps: Deps; site: SiteCtx; token: string }): Promise<TUnsubscribeAnswer> {
  const email = addressOf(opts.deps, opts.site, opts.token);
  await repo.optOut(opts.deps.db, opts.site.tenant.id, email);
  return { success: true, optedOut: true, message: M.unsubscribed };
}

/** Undoes it, from the same link. */
export async function resubscribe(opts: { deps: Deps; site: SiteCtx; token: string }): Promise<TUnsubscribeAnswer> {
  const email = addressOf(opts.deps, opts.site, opts.token);
  await repo.optIn(opts.deps.db, opts.site.tenant.id, email);
  return { success: true, optedOut: false, message: M.resubscribed };
}
