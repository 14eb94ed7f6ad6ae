import type { Deps } from '../../deps.js';
import { escapeHtml, type MailMessage } from '../../platform/mail.js';
import * as repo from './repository.js';

// A moved date tells its buyers (issue 28): one mail per paid order of that date, through the
// outbox like every notice. The job is queued by move-date.ts and runs once per move.

export const DATE_MOVED_JOB = 'series.date-moved';
/** `was`, `now`: the old and new start as people read them (core formatEventDateTime). */
export type DateMovedJob = { tenantId: string; eventId: string; was: string; now: string };

export function dateMovedMail(o: { tenantId: string; organiser: string; eventName: string; was: string; now: string; order: { email: string; firstName: string; orderUid: string } }): MailMessage {
  const greeting = o.order.firstName ? `Hi ${o.order.firstName},` : 'Hello,';
  const moved = `${o.organiser || 'The organiser'} has moved the date you have tickets for.`;
  const when = o.was ? `It was ${o.was}. It is now ${o.now}.` : `It is now ${o.now}.`;
  const valid = `Your order ${o.order.orderUid} and its tickets stay valid for the new time: you do not need to do anything. If the new time does not suit you, reply to this e-mail.`;
  const paragraphs = [greeting, moved, when, valid];
  return {
    to: o.order.email,
    subject: `New time: ${o.eventName}`,
    text: paragraphs.join('\n\n'),
    html: paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join(''),
    tenantId: o.tenantId,
  };
}

/** Job series.date-moved: mails every paid order of the date, in one transaction (a retry sends none twice). */
export async function mailDateMoved({ deps, job }: { deps: Deps; job: DateMovedJob }): Promise<number> {
  const [orders, organiser, event] = await Promise.all([
    repo.paidOrdersOf(deps.db, job.tenantId, job.eventId),
    repo.organiserOf(deps.db, job.tenantId),
    repo.eventNameOf(deps.db, job.tenantId, job.eventId),
  ]);
  if (!event || event.status === 'cancelled') return 0;
  await deps.db.transaction(async (tx) => {
    for (const order of orders) await deps.mailer.send(tx, dateMovedMail({ tenantId: job.tenantId, organiser, eventName: event.name, was: job.was, now: job.now, order }));
  });
  return orders.length;
}

export function registerDateMovedJob(deps: Deps) {
  deps.jobs.register(DATE_MOVED_JOB, async (job: DateMovedJob) => {
    await mailDateMoved({ deps, job });
  });
}
