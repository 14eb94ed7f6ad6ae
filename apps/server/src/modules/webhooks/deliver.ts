import { M_WEBHOOKS, type WebhookPayload } from '@marquee/core';
import { Webhook } from 'standardwebhooks';
import type { Deps } from '../../deps.js';
import { DOMAIN_EVENT_JOB } from '../../platform/domain-events.js';
import { escapeHtml } from '../../platform/mail.js';
import { OutboundRefused, postOutbound } from '../../platform/outbound-http.js';
import * as repo from './repository.js';
import { openSecret } from './secrets.js';

// Delivering a domain event to the endpoints that listen (issue 25): at least once, signed as the
// Standard Webhooks specification says, retried with backoff for more than a day, and an endpoint
// that failed all that time is turned off and its owner told (docs/webhooks.md).

/** Job name of one delivery's next automatic attempt. */
export const WEBHOOK_RETRY_JOB = 'webhooks.retry';
/** Job name of an attempt asked for by hand (redeliver). */
export const WEBHOOK_REDELIVER_JOB = 'webhooks.redeliver';

/**
 * Seconds to wait after each failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. With the
 * first attempt that makes 8 attempts over 27 h 35 min.
 */
export const RETRY_DELAYS_S = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_S.length + 1;
/** How much of a receiver's answer is read, and how much of it the log keeps. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const RESPONSE_PREVIEW = 1000;
/** A rotated-out secret keeps signing (beside the new one) this long. */
export const PREVIOUS_SECRET_HOURS = 24;

/** The JSON body sent for an event; the same bytes on every attempt and to every endpoint. */
export function payloadOf(event: repo.DomainEventRow): string {
  const payload: WebhookPayload = {
    id: event.id,
    type: event.type as WebhookPayload['type'],
    version: event.version,
    timestamp: event.occurredAt.toISOString(),
    tenantId: event.tenantId,
    data: event.data as WebhookPayload['data'],
  };
  return JSON.stringify(payload);
}

/** The secrets that sign now: the current one, and the one before it during its 24 hours. */
function signingSecrets(deps: Deps, endpoint: repo.EndpointRow, now: Date): string[] {
  const secrets = [openSecret(deps.config.secret, endpoint.secret)];
  if (endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now) secrets.push(openSecret(deps.config.secret, endpoint.previousSecret));
  return secrets;
}

/** The Standard Webhooks headers of one attempt: one `v1,` signature per secret, space-separated. */
export function signedHeaders(secrets: string[], id: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' '),
  };
}

type Outcome = { ok: boolean; status: number | null; body: string | null; error: string | null; durationMs: number };

async function send(deps: Deps, endpoint: repo.EndpointRow, event: repo.DomainEventRow): Promise<Outcome> {
  const at = new Date();
  const body = payloadOf(event);
  const started = performance.now();
  try {
    const headers = signedHeaders(signingSecrets(deps, endpoint, at), event.id, at, body);
    const res = await postOutbound(endpoint.url, body, headers, { timeoutMs: deps.config.webhooks.timeoutMs, maxBytes: MAX_RESPONSE_BYTES, allowPrivate: deps.config.webhooks.allowPrivate });
    const ok = res.status >= 200 && res.status < 300;
    return { ok, status: res.status, body: res.body.slice(0, RESPONSE_PREVIEW), error: ok ? null : `The receiver answered ${res.status}.`, durationMs: Math.round(performance.now() - started) };
  } catch (err) {
    const message = err instanceof OutboundRefused ? err.message : `Could not deliver: ${err instanceof Error ? err.message : String(err)}`;
    return { ok: false, status: null, body: null, error: message.slice(0, 500), durationMs: Math.round(performance.now() - started) };
  }
}

/**
 * One attempt of `delivery`, recorded. An automatic attempt that fails queues the next one (or,
 * after the last, fails the delivery and turns a failing endpoint off); one by hand changes no
 * schedule.
 */
async function attempt(deps: Deps, delivery: repo.DeliveryRow, endpoint: repo.EndpointRow, event: repo.DomainEventRow, manual: boolean) {
  const outcome = await send(deps, endpoint, event);
  const now = new Date();
  let disabled = false;
  await deps.db.transaction(async (tx) => {
    const current = await repo.lockDelivery(tx, delivery.id);
    if (!current) return;
    const attempts = manual ? current.attempts : current.attempts + 1;
    const record = { lastAttemptAt: now, responseStatus: outcome.status, responseBody: outcome.body, error: outcome.error, durationMs: outcome.durationMs, attempts };
    if (outcome.ok) {
      await repo.updateDelivery(tx, delivery.id, { ...record, status: 'succeeded', succeededAt: now, nextAttemptAt: null });
      await repo.markEndpointSuccess(tx, endpoint.id, now);
      return;
    }
    if (current.status === 'succeeded') {
      // Delivered meanwhile (by hand): this failure is logged and changes nothing else.
      await repo.updateDelivery(tx, delivery.id, { ...record, attempts: current.attempts });
      return;
    }
    if (manual || current.status !== 'pending') {
      // By hand: a delivery waiting for its next automatic attempt keeps waiting; any other failed.
      await repo.updateDelivery(tx, delivery.id, { ...record, status: current.nextAttemptAt && current.status === 'pending' ? 'pending' : 'failed' });
      return;
    }
    if (attempts < MAX_ATTEMPTS) {
      const next = new Date(now.getTime() + RETRY_DELAYS_S[attempts - 1]! * 1000);
      await repo.updateDelivery(tx, delivery.id, { ...record, nextAttemptAt: next });
      await deps.jobs.enqueue(tx, WEBHOOK_RETRY_JOB, { deliveryId: delivery.id, attempt: attempts + 1 }, { runAt: next, dedupeKey: `${WEBHOOK_RETRY_JOB}:${delivery.id}:${attempts + 1}` });
      return;
    }
    await repo.updateDelivery(tx, delivery.id, { ...record, status: 'failed', nextAttemptAt: null });
    // Every attempt over more than a day failed and nothing reached the endpoint since this
    // delivery began: it is turned off, and its owner told.
    const fresh = await repo.endpointById(tx, endpoint.id);
    if (fresh && (!fresh.lastSuccessAt || fresh.lastSuccessAt < current.createdAt) && (await repo.disableFailingEndpoint(tx, endpoint.id))) {
      disabled = true;
      await mailDisabled(deps, tx, fresh);
    }
  });
  if (disabled) deps.log.warn({ endpointId: endpoint.id, tenantId: endpoint.tenantId }, 'webhook endpoint turned off after failing for a day');
}

async function mailDisabled(deps: Deps, tx: Parameters<Parameters<Deps['db']['transaction']>[0]>[0], endpoint: repo.EndpointRow) {
  const recipients = endpoint.tenantId ? await repo.tenantRecipients(tx, endpoint.tenantId) : { name: 'Marquee', emails: [deps.config.adminEmail] };
  const text =
    `The webhook endpoint ${endpoint.url} did not accept any event for more than a day, through ${MAX_ATTEMPTS} attempts, so it was turned off.\n\n` +
    `No more events are sent to it. Once the receiver works again, turn the endpoint back on in the console (Settings, Webhooks); ` +
    `failed deliveries can be sent again from its delivery log.`;
  const html = `<p>The webhook endpoint <strong>${escapeHtml(endpoint.url)}</strong> did not accept any event for more than a day, through ${MAX_ATTEMPTS} attempts, so it was turned off.</p><p>No more events are sent to it. Once the receiver works again, turn the endpoint back on in the console (Settings, Webhooks); failed deliveries can be sent again from its delivery log.</p>`;
  for (const to of recipients.emails) await deps.mailer.send(tx, { to, subject: M_WEBHOOKS.disabledMailSubject, text, html, tenantId: endpoint.tenantId });
}

/** Job DOMAIN_EVENT_JOB: the event's deliveries are written (once) and tried, all at once. */
export async function deliverEvent(deps: Deps, eventId: string) {
  const event = await repo.findEvent(deps.db, eventId);
  if (!event) return;
  await repo.insertDeliveries(deps.db, event, await repo.listeningEndpoints(deps.db, event));
  const due = await repo.dueDeliveriesOfEvent(deps.db, eventId);
  await Promise.all(
    due.map(async (d) => {
      const endpoint = await repo.endpointById(deps.db, d.endpointId);
      if (endpoint) await attempt(deps, d, endpoint, event, false);
    }),
  );
}

/** Jobs WEBHOOK_RETRY_JOB and WEBHOOK_REDELIVER_JOB. A retry that is not the delivery's next is stale and does nothing. */
export async function retryDelivery(deps: Deps, job: { deliveryId: string; attempt?: number; manual?: boolean }) {
  const delivery = await repo.findDelivery(deps.db, job.deliveryId);
  if (!delivery) return;
  if (!job.manual && (delivery.status !== 'pending' || delivery.attempts + 1 !== job.attempt)) return;
  const [endpoint, event] = await Promise.all([repo.endpointById(deps.db, delivery.endpointId), repo.findEvent(deps.db, delivery.eventId)]);
  if (!event) return;
  if (!endpoint || (!endpoint.enabled && !job.manual)) {
    await repo.updateDelivery(deps.db, delivery.id, { status: 'failed', nextAttemptAt: null, error: 'The endpoint is turned off.' });
    return;
  }
  await attempt(deps, delivery, endpoint, event, !!job.manual);
}

export function registerWebhookJobs(deps: Deps) {
  deps.jobs.register(DOMAIN_EVENT_JOB, ({ eventId }: { eventId: string }) => deliverEvent(deps, eventId));
  deps.jobs.register(WEBHOOK_RETRY_JOB, (payload: { deliveryId: string; attempt: number }) => retryDelivery(deps, payload));
  deps.jobs.register(WEBHOOK_REDELIVER_JOB, (payload: { deliveryId: string }) => retryDelivery(deps, { ...payload, manual: true }));
  // Deliveries wait neither behind tickets' PDFs and mails nor behind one slow receiver.
  deps.jobs.lane([DOMAIN_EVENT_JOB, WEBHOOK_RETRY_JOB, WEBHOOK_REDELIVER_JOB], WEBHOOK_WORKERS);
}

/** Workers of the webhooks' job lane, per node: each sends one event (to all its endpoints) at a time. */
export const WEBHOOK_WORKERS = 4;
