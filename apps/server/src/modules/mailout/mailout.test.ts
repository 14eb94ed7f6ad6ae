import { randomUUID } from 'node:crypto';
import { ATTENDEE_MESSAGES_PER_DAY, attendeeMessageDailyLimit, M } from '@marquee/core';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendeeMessageRecipients, attendeeMessages, events, outbox } from '../../db/schema/index.js';
import { eventActorStatuses, givenEventActors, type EventActors } from '../../../test/actors.js';
import { givenEventOnSale, givenTenant, givenTenantWithAdmin, linkFrom, startTenantServer, type Client, type GivenEventOnSale, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { givenSale, givenSubscriber } from '../../../test/fixtures/sales.js';
import { sendAttendeeMessage } from './service.js';
import { unsubscribeToken } from './unsubscribe-token.js';

let server: TestServer, tenant: GivenTenant, admin: Client;
beforeAll(async () => {
  ({ server, tenant, admin } = await startTenantServer());
});
afterAll(() => server.close());

const db = () => server.app.deps.db;
const base = (eventId: string, tenantId = tenant.id) => `/api/tenants/${tenantId}/events/${eventId}/messages`;
const mailsOf = (subject: string) => db().select().from(outbox).where(eq(outbox.subject, subject));
const uniq = () => randomUUID().slice(0, 8);

/**
 * An event with two ticket types and these paid tickets: ann (GA, buyer) with her friend bob (GA),
 * cat (VIP), fay (GA, paid and still processing); not counted: dan's voided ticket, eve's unpaid
 * hold, and ann again under another order in capitals (one address).
 */
async function givenEventWithAttendees(opts: { timeZone?: string } = {}) {
  const event = await givenEventOnSale(server, tenant.id, {
    ...opts,
    ticketTypes: [
      { name: 'General Admission', price: 2500, quantity: 100 },
      { name: 'VIP', price: 9000, quantity: 10 },
    ],
  });
  const [ga, vip] = event.ticketTypeIds as [string, string];
  const at = (name: string) => `${name}-${event.id.slice(0, 6)}@example.test`;
  const gaTicket = (email?: string) => ({ price: 2500, typeId: ga, name: 'General Admission', email });
  await givenSale(server, tenant.id, event.id, { email: at('ann'), tickets: [gaTicket(), gaTicket(at('bob'))] });
  await givenSale(server, tenant.id, event.id, { email: at('ANN').toUpperCase(), tickets: [gaTicket(at('ann'))] });
  await givenSale(server, tenant.id, event.id, { email: at('cat'), tickets: [{ price: 9000, typeId: vip, name: 'VIP' }] });
  await givenSale(server, tenant.id, event.id, { email: at('fay'), status: 'processing', tickets: [gaTicket()] });
  await givenSale(server, tenant.id, event.id, { email: at('dan'), tickets: [{ ...gaTicket(), voided: true }] });
  await givenSale(server, tenant.id, event.id, { email: at('eve'), status: 'draft', tickets: [gaTicket()] });
  return { event, ga, vip, at };
}

const message = (over: Record<string, unknown> = {}) => ({ details: { subject: `Doors open at 7 ${uniq()}`, body: '<p>See you <strong>soon</strong>!</p>', recipients: 'all', ...over } });

describe('POST …/events/:eventId/messages/audience', () => {
  it('counts the distinct addresses of paid, valid tickets: buyers and ticket holders, all or by ticket type', async () => {
    const { event, ga, vip } = await givenEventWithAttendees();
    const all = await admin.post(`${base(event.id)}/audience`, { details: { recipients: 'all' } });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ recipients: 4, optedOut: 0, notOptedIn: 0 });
    expect((await admin.post(`${base(event.id)}/audience`, { details: { recipients: 'ticket_types', ticketTypeIds: [vip] } })).body).toEqual({ recipients: 1, optedOut: 0, notOptedIn: 0 });
    expect((await admin.post(`${base(event.id)}/audience`, { details: { recipients: 'ticket_types', ticketTypeIds: [ga] } })).body).toEqual({ recipients: 3, optedOut: 0, notOptedIn: 0 });
    expect((await admin.post(`${base(event.id)}/audience`, { details: { recipients: 'ticket_types', ticketTypeIds: [ga, vip] } })).body.recipients).toBe(4);
  });

  it('with "marketing", counts only buyers who opted in at a checkout of this organiser', async () => {
    const { event, at } = await givenEventWithAttendees();
    const elsewhere = await givenEventOnSale(server, tenant.id);
    await givenSubscriber(server, tenant.id, elsewhere.id, at('cat'));
    const res = await admin.post(`${base(event.id)}/audience`, { details: { recipients: 'all', marketing: true } });
    expect(res.body).toEqual({ recipients: 1, optedOut: 0, notOptedIn: 3 });
  });

  it('refuses a ticket type of another event, an empty choice and bad ids with a clear 400', async () => {
    const { event } = await givenEventWithAttendees();
    const other = await givenEventOnSale(server, tenant.id);
    for (const ticketTypeIds of [[other.ticketTypeIds[0]], [randomUUID()], ['not-an-id']]) {
      const res = await admin.post(`${base(event.id)}/audience`, { details: { recipients: 'ticket_types', ticketTypeIds } });
      expect(res.status, JSON.stringify(ticketTypeIds)).toBe(400);
      expect(res.body.error.message).toBe(M.attendeeMessageTicketTypeUnknown);
    }
    const none = await admin.post(`${base(event.id)}/audience`, { details: { recipients: 'ticket_types', ticketTypeIds: [] } });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: 'VALIDATION', message: M.attendeeMessageTicketTypes, fields: { 'details.ticketTypeIds': M.attendeeMessageTicketTypes } });
    expect((await admin.post(`${base(event.id)}/audience`, { details: { recipients: 'everyone' } })).status).toBe(400);
  });
});

describe('POST …/events/:eventId/messages and its job', () => {
  it('queues the message, then sends one mail per distinct address through the outbox, with progress', async () => {
    const { event, at } = await givenEventWithAttendees();
    const body = message({ body: '<p onclick="x()">Doors at <strong>7 PM</strong><script>alert(1)</script></p><p><a href="https://band.example">The band</a></p>' });
    const res = await admin.post(base(event.id), body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      details: {
        subject: body.details.subject,
        body: '<p>Doors at <strong>7 PM</strong></p><p><a href="https://band.example" rel="noopener noreferrer nofollow">The band</a></p>',
        recipients: 'all',
        ticketTypeIds: [],
        ticketTypeNames: [],
        marketing: false,
        status: 'queued',
        total: null,
        sent: 0,
        optedOut: 0,
        createdBy: expect.stringContaining('@'),
        dateCreated: expect.stringMatching(/^\d{4}-/),
        dateSent: null,
      },
    });
    const id = res.body.id as string;

    // One batch of two: the page reads "sending 2 of 4".
    await sendAttendeeMessage({ deps: server.app.deps, job: { tenantId: tenant.id, messageId: id }, batchSize: 2, maxBatches: 1 });
    const midway = await admin.get(`${base(event.id)}/${id}`);
    expect(midway.body.details).toMatchObject({ status: 'sending', total: 4, sent: 2, dateSent: null });

    await server.app.deps.jobs.drain();
    const done = await admin.get(`${base(event.id)}/${id}`);
    expect(done.body.details).toMatchObject({ status: 'done', total: 4, sent: 4, dateSent: expect.stringMatching(/^\d{4}-/) });

    const mails = await mailsOf(body.details.subject);
    expect(mails.map((m) => m.to).sort()).toEqual([at('ann'), at('bob'), at('cat'), at('fay')].sort());
    const mail = mails.find((m) => m.to === at('bob'))!;
    expect(mail.replyTo).toBe(`hello@${tenant.url}.test`);
    expect(mail.status).toBe('kept');
    expect(mail.text).toContain('Doors at 7 PM');
    expect(mail.text).toContain('The band (https://band.example)');
    expect(mail.text).toContain(`You receive this because you have tickets to ${event.name} from ${tenant.name}.`);
    expect(mail.html).toContain('<strong>7 PM</strong>');
    expect(mail.html).not.toContain('script');
    const link = linkFrom(mail.text.slice(mail.text.indexOf('Unsubscribe')));
    expect(link.pathname).toBe(`/unsubscribe/${unsubscribeToken(server.config.secret, tenant.id, at('bob'))}`);
    expect(link.host).toBe(`${tenant.url}.${server.config.baseDomain}:${server.port}`);
    expect(mail.headers).toEqual({ 'List-Unsubscribe': `<${link.origin}/api/p/unsubscribe/${link.pathname.split('/').pop()}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });

  it('mails each address exactly once however often the job runs, even two at a time', async () => {
    const { event } = await givenEventWithAttendees();
    const res = await admin.post(base(event.id), message());
    const job = { tenantId: tenant.id, messageId: res.body.id as string };
    const deps = server.app.deps;
    await sendAttendeeMessage({ deps, job, batchSize: 1, maxBatches: 1 });
    await Promise.all([sendAttendeeMessage({ deps, job, batchSize: 1 }), sendAttendeeMessage({ deps, job, batchSize: 1 })]);
    await deps.jobs.drain();
    await sendAttendeeMessage({ deps, job });
    const mails = await mailsOf(res.body.details.subject);
    expect(mails).toHaveLength(4);
    expect(new Set(mails.map((m) => m.to)).size).toBe(4);
    const rows = await db().select().from(attendeeMessageRecipients).where(and(eq(attendeeMessageRecipients.tenantId, tenant.id), eq(attendeeMessageRecipients.messageId, job.messageId)));
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
    expect(new Set(rows.map((r) => r.outboxId))).toEqual(new Set(mails.map((m) => m.id)));
    expect((await admin.get(`${base(event.id)}/${job.messageId}`)).body.details).toMatchObject({ status: 'done', total: 4, sent: 4 });
  });

  it('sends to the chosen ticket types only, and with "marketing" to opted-in buyers only', async () => {
    const { event, vip, at } = await givenEventWithAttendees();
    const byType = await admin.post(base(event.id), message({ recipients: 'ticket_types', ticketTypeIds: [vip, vip] }));
    expect(byType.status).toBe(201);
    expect(byType.body.details).toMatchObject({ ticketTypeIds: [vip], ticketTypeNames: ['VIP'] });
    // One message of an event on its way at a time (the send limit below).
    await server.app.deps.jobs.drain();
    await givenSubscriber(server, tenant.id, event.id, at('fay'));
    const marketing = await admin.post(base(event.id), message({ marketing: true }));
    await server.app.deps.jobs.drain();
    expect((await mailsOf(byType.body.details.subject)).map((m) => m.to)).toEqual([at('cat')]);
    const [promo] = await mailsOf(marketing.body.details.subject);
    expect((await mailsOf(marketing.body.details.subject)).map((m) => m.to)).toEqual([at('fay')]);
    expect(promo!.text).toContain(`you asked ${tenant.name} to keep you posted`);
    expect((await admin.get(`${base(event.id)}/${marketing.body.id}`)).body.details).toMatchObject({ marketing: true, status: 'done', total: 1, sent: 1 });
  });

  it('refuses an empty subject or body, a bad recipient choice, and a message nobody would receive', async () => {
    const { event, vip } = await givenEventWithAttendees();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ subject: '' }, 'details.subject', M.subjectRequired],
      [{ subject: '   ' }, 'details.subject', M.subjectRequired],
      [{ subject: 'x'.repeat(201) }, 'details.subject', M.attendeeMessageSubjectMax],
      // A line break would start a mail header of its own.
      [{ subject: 'Hello\r\nBcc: everyone@example.test' }, 'details.subject', M.invalidValue],
      [{ body: '' }, 'details.body', M.messageRequired],
      [{ body: '<p>  </p><script>alert(1)</script>' }, 'details.body', M.messageRequired],
      [{ recipients: 'ticket_types' }, 'details.ticketTypeIds', M.attendeeMessageTicketTypes],
      [{ recipients: 'ticket_types', ticketTypeIds: [randomUUID()] }, 'details.ticketTypeIds', M.attendeeMessageTicketTypeUnknown],
    ];
    for (const [over, field, text] of cases) {
      const res = await admin.post(base(event.id), message(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.error.message).toBe(text);
      expect(res.body.error.fields?.[field], JSON.stringify(over)).toBe(text);
    }
    expect((await admin.post(base(event.id), { details: { recipients: 'all' } })).status).toBe(400);
    expect((await admin.post(base(event.id), 'not json at all')).status).toBe(400);

    const empty = await givenEventOnSale(server, tenant.id);
    const nobody = await admin.post(base(empty.id), message());
    expect(nobody.status).toBe(409);
    expect(nobody.body.error).toEqual({ code: 'CONFLICT', message: M.attendeeMessageNoRecipients, domainCode: 'NO_RECIPIENTS' });
    // Marketing to an event with no opted-in buyer reaches nobody either.
    expect((await admin.post(base(event.id), message({ marketing: true, recipients: 'ticket_types', ticketTypeIds: [vip] }))).status).toBe(409);
    expect((await admin.get(base(empty.id))).body.count).toBe(0);
  });

  it('is marked failed when its last attempt fails', async () => {
    const { event } = await givenEventWithAttendees();
    const res = await admin.post(base(event.id), message());
    const job = { tenantId: tenant.id, messageId: res.body.id as string };
    // The event is gone (deleted under it): nothing can be addressed from it.
    await db().delete(events).where(eq(events.id, event.id));
    const status = async () => (await db().select().from(attendeeMessages).where(eq(attendeeMessages.id, job.messageId)))[0]!.status;
    await expect(sendAttendeeMessage({ deps: server.app.deps, job, attempt: 1 })).rejects.toThrow(/missing/);
    expect(await status()).toBe('sending');
    await expect(sendAttendeeMessage({ deps: server.app.deps, job, attempt: 5 })).rejects.toThrow(/missing/);
    expect(await status()).toBe('failed');
  });
});

describe('send limits (docs/decisions.md "A send limit on messages to attendees")', () => {
  const HOUR = 60 * 60 * 1000;
  const messagesOf = async (eventId: string) => (await db().select({ n: count() }).from(attendeeMessages).where(eq(attendeeMessages.eventId, eventId)))[0]!.n;
  /** A message of the event written straight to the table, as if sent `hoursAgo` ago. */
  const givenPastMessage = (eventId: string, hoursAgo: number, over: Partial<typeof attendeeMessages.$inferInsert> = {}) =>
    db()
      .insert(attendeeMessages)
      .values({ tenantId: tenant.id, id: randomUUID(), eventId, subject: `Earlier ${uniq()}`, body: '<p>Hi</p>', recipients: 'all', status: 'done', total: 4, sent: 4, createdAt: new Date(Date.now() - hoursAgo * HOUR), ...over });

  it('refuses a second message while one is queued or being sent (409), writing nothing; once it has gone out the next one goes', async () => {
    const { event } = await givenEventWithAttendees();
    const other = await givenEventWithAttendees();
    const first = await admin.post(base(event.id), message());
    expect(first.status).toBe(201);

    const refusedWhile = async (state: string) => {
      const second = message();
      const res = await admin.post(base(event.id), second);
      expect(res.status, state).toBe(409);
      expect(res.body.error).toEqual({ code: 'CONFLICT', message: M.attendeeMessageInProgress, domainCode: 'MESSAGE_IN_PROGRESS' });
      expect(await messagesOf(event.id), state).toBe(1);
      expect(await db().select().from(attendeeMessages).where(eq(attendeeMessages.subject, second.details.subject))).toEqual([]);
      expect(await mailsOf(second.details.subject), state).toEqual([]);
    };
    await refusedWhile('queued');
    // Another event of the organiser is not held up by it.
    expect((await admin.post(base(other.event.id), message())).status).toBe(201);

    await sendAttendeeMessage({ deps: server.app.deps, job: { tenantId: tenant.id, messageId: first.body.id }, batchSize: 1, maxBatches: 1 });
    expect((await admin.get(`${base(event.id)}/${first.body.id}`)).body.details).toMatchObject({ status: 'sending', sent: 1 });
    await refusedWhile('sending');

    await server.app.deps.jobs.drain();
    expect((await admin.get(`${base(event.id)}/${first.body.id}`)).body.details.status).toBe('done');
    const next = await admin.post(base(event.id), message());
    expect(next.status).toBe(201);
    await server.app.deps.jobs.drain();
    expect(await messagesOf(event.id)).toBe(2);
  });

  it('two sends at once: one goes, the other is refused', async () => {
    const { event } = await givenEventWithAttendees();
    const answers = await Promise.all([admin.post(base(event.id), message()), admin.post(base(event.id), message())]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await messagesOf(event.id)).toBe(1);
    await server.app.deps.jobs.drain();
  });

  it('a message that failed does not hold the next one up', async () => {
    const { event } = await givenEventWithAttendees();
    await givenPastMessage(event.id, 0.1, { status: 'failed', sent: 0 });
    expect((await admin.post(base(event.id), message())).status).toBe(201);
    await server.app.deps.jobs.drain();
  });

  it(`sends at most ${ATTENDEE_MESSAGES_PER_DAY} per event in 24 hours: then 429, saying in the event's zone when the next may go, writing nothing`, async () => {
    const { event } = await givenEventWithAttendees({ timeZone: 'America/Los_Angeles' });
    // Nine in the last day (the oldest 23 hours ago); not counted: one older than a day, and one
    // that failed before mailing anybody.
    for (let i = 0; i < ATTENDEE_MESSAGES_PER_DAY - 1; i++) await givenPastMessage(event.id, 23 - i);
    await givenPastMessage(event.id, 25);
    await givenPastMessage(event.id, 2, { status: 'failed', sent: 0 });
    const oldest = (await db().select().from(attendeeMessages).where(eq(attendeeMessages.eventId, event.id))).map((m) => m.createdAt.getTime()).filter((t) => t > Date.now() - 24 * HOUR);
    const nextAt = Math.min(...oldest) + 24 * HOUR;

    // The tenth goes.
    const tenth = await admin.post(base(event.id), message());
    expect(tenth.status).toBe(201);
    await server.app.deps.jobs.drain();

    const refused = message();
    const res = await admin.post(base(event.id), refused);
    expect(res.status).toBe(429);
    expect(res.body.error).toMatchObject({ code: 'RATE_LIMITED', domainCode: 'MESSAGE_LIMIT_REACHED' });
    // About an hour from now (the oldest of the day's messages turns a day old), in Los Angeles time.
    const shown = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(
      Math.ceil(nextAt / 60_000) * 60_000,
    );
    expect(res.body.error.message).toBe(attendeeMessageDailyLimit(shown));
    expect(res.body.error.message).toMatch(/^You can send at most 10 messages to this event’s attendees in 24 hours\. The next one can be sent after \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M P[SD]T\.$/);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(HOUR / 1000 - 120);
    expect(retryAfter).toBeLessThanOrEqual(HOUR / 1000 + 1);
    expect(await messagesOf(event.id)).toBe(ATTENDEE_MESSAGES_PER_DAY + 2);
    expect(await db().select().from(attendeeMessages).where(eq(attendeeMessages.subject, refused.details.subject))).toEqual([]);
    expect(await mailsOf(refused.details.subject)).toEqual([]);

    // The count is per event: the organiser's other event still sends.
    const other = await givenEventWithAttendees();
    expect((await admin.post(base(other.event.id), message())).status).toBe(201);
    await server.app.deps.jobs.drain();
  });
});

describe('GET …/events/:eventId/messages', () => {
  it('lists the event’s messages, newest first, with who sent them and their progress', async () => {
    const { event } = await givenEventWithAttendees();
    const first = await admin.post(base(event.id), message());
    await server.app.deps.jobs.drain();
    const second = await admin.post(base(event.id), message());
    const res = await admin.get(base(event.id));
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.cursor).toBeNull();
    expect(res.body.result.map((m: { id: string }) => m.id)).toEqual([second.body.id, first.body.id]);
    expect(res.body.result.map((m: { details: { status: string } }) => m.details.status)).toEqual(['queued', 'done']);
    const paged = await admin.get(`${base(event.id)}?limit=1`);
    expect(paged.body.result).toHaveLength(1);
    expect((await admin.get(`${base(event.id)}?limit=1&cursor=${encodeURIComponent(paged.body.cursor)}`)).body.result[0].id).toBe(first.body.id);
    expect((await admin.get(`${base(event.id)}?filters=details.status=done`)).body.count).toBe(1);
    await server.app.deps.jobs.drain();
  });

  it('answers 404 for another event’s message and another tenant’s ids', async () => {
    const { event } = await givenEventWithAttendees();
    const other = await givenEventWithAttendees();
    const sent = await admin.post(base(event.id), message());
    await server.app.deps.jobs.drain();
    expect((await admin.get(`${base(other.event.id)}/${sent.body.id}`)).status).toBe(404);
    expect((await admin.get(`${base(event.id)}/${randomUUID()}`)).status).toBe(404);

    const { tenant: elsewhere, admin: theirAdmin } = await givenTenantWithAdmin(server);
    const theirs = await givenEventOnSale(server, elsewhere.id);
    // Their own tenant with our event's ids, and our tenant's path.
    for (const [c, url] of [
      [theirAdmin, base(event.id, elsewhere.id)],
      [theirAdmin, `${base(event.id, elsewhere.id)}/${sent.body.id}`],
      [admin, base(theirs.id)],
    ] as const) {
      expect((await c.get(url)).status, url).toBe(404);
      expect((await c.post(url.endsWith('messages') ? `${url}/audience` : url, { details: { recipients: 'all' } })).status, url).toBe(404);
    }
    expect((await admin.post(base(theirs.id), message())).status).toBe(404);
    expect((await theirAdmin.post(base(event.id, elsewhere.id), message())).status).toBe(404);
  });
});

describe('who may write to attendees', () => {
  let actors: EventActors;
  let event: GivenEventOnSale;
  beforeAll(async () => {
    event = (await givenEventWithAttendees()).event;
    const other = await givenEventOnSale(server, tenant.id);
    actors = await givenEventActors(server, tenant, event.id, other.id);
  });
  const statuses = (call: (c: Client) => Promise<{ status: number }>) => eventActorStatuses(actors, call);

  it('send and count: tenant admin and staff, the event manager, platform write roles', async () => {
    const expected = { admin: 201, staff: 201, eventManager: 201, checkin: 403, otherEventManager: 403, platformManager: 201, platformReport: 404, outsider: 404, outsiderHome: 404, anonymous: 401 };
    // Each accepted message goes out before the next (one on its way at a time).
    const sendThenDrain = async (c: Client) => {
      const res = await c.post(base(event.id), message());
      await server.app.deps.jobs.drain();
      return res;
    };
    expect(await statuses(sendThenDrain)).toEqual(expected);
    expect(await statuses((c) => c.post(`${base(event.id)}/audience`, { details: { recipients: 'all' } }))).toEqual({ ...expected, admin: 200, staff: 200, eventManager: 200, platformManager: 200 });
    await server.app.deps.jobs.drain();
  });

  it('history: the same, and every platform role', async () => {
    expect(await statuses((c) => c.get(base(event.id)))).toEqual({
      admin: 200,
      staff: 200,
      eventManager: 200,
      checkin: 403,
      otherEventManager: 403,
      platformManager: 200,
      platformReport: 200,
      outsider: 404,
      outsiderHome: 404,
      anonymous: 401,
    });
  });
});

describe('unsubscribe (attendee site)', () => {
  it('opts the address out with the signed link, no sign-in; later messages skip it and the count says so', async () => {
    const { event, at } = await givenEventWithAttendees();
    const first = await admin.post(base(event.id), message());
    await server.app.deps.jobs.drain();
    const mail = (await mailsOf(first.body.details.subject)).find((m) => m.to === at('cat'))!;
    const token = linkFrom(mail.text.slice(mail.text.indexOf('Unsubscribe'))).pathname.split('/').pop()!;
    const site = server.client(tenant.url);

    const before = await site.get(`/api/p/unsubscribe/${token}`);
    expect(before.status).toBe(200);
    expect(before.headers['cache-control']).toBe('private, no-store');
    expect(before.body).toEqual({ email: at('cat'), organiser: tenant.name, optedOut: false });
    const done = await site.post(`/api/p/unsubscribe/${token}`);
    expect(done.body).toEqual({ success: true, optedOut: true, message: M.unsubscribed });
    expect((await site.get(`/api/p/unsubscribe/${token}`)).body.optedOut).toBe(true);
    expect((await site.post(`/api/p/unsubscribe/${token}`)).status).toBe(200);

    expect((await admin.post(`${base(event.id)}/audience`, { details: { recipients: 'all' } })).body).toEqual({ recipients: 3, optedOut: 1, notOptedIn: 0 });
    // Other events of the same organiser too: the opt-out is the tenant's.
    const next = await admin.post(base(event.id), message());
    await server.app.deps.jobs.drain();
    expect((await mailsOf(next.body.details.subject)).map((m) => m.to)).not.toContain(at('cat'));
    expect((await admin.get(`${base(event.id)}/${next.body.id}`)).body.details).toMatchObject({ status: 'done', total: 3, sent: 3, optedOut: 1 });

    const undo = await site.delete(`/api/p/unsubscribe/${token}`);
    expect(undo.body).toEqual({ success: true, optedOut: false, message: M.resubscribed });
    expect((await admin.post(`${base(event.id)}/audience`, { details: { recipients: 'all' } })).body.recipients).toBe(4);
  });

  it('skips an address that unsubscribes while the message is being sent', async () => {
    const { event, at } = await givenEventWithAttendees();
    const res = await admin.post(base(event.id), message());
    const job = { tenantId: tenant.id, messageId: res.body.id as string };
    await sendAttendeeMessage({ deps: server.app.deps, job, maxBatches: 0 });
    expect((await admin.get(`${base(event.id)}/${job.messageId}`)).body.details).toMatchObject({ status: 'sending', total: 4, sent: 0 });
    const site = server.client(tenant.url);
    expect((await site.post(`/api/p/unsubscribe/${unsubscribeToken(server.config.secret, tenant.id, at('fay'))}`)).status).toBe(200);
    await server.app.deps.jobs.drain();
    expect((await mailsOf(res.body.details.subject)).map((m) => m.to).sort()).toEqual([at('ann'), at('bob'), at('cat')].sort());
    expect((await admin.get(`${base(event.id)}/${job.messageId}`)).body.details).toMatchObject({ status: 'done', total: 3, sent: 3, optedOut: 1 });
  });

  it('takes a mail client’s one-click post (RFC 8058)', async () => {
    const email = `one-click-${uniq()}@example.test`;
    const token = unsubscribeToken(server.config.secret, tenant.id, email);
    const res = await server.client(tenant.url).request('POST', `/api/p/unsubscribe/${token}`, Buffer.from('List-Unsubscribe=One-Click'), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(200);
    expect((await server.client(tenant.url).get(`/api/p/unsubscribe/${token}`)).body).toMatchObject({ email, optedOut: true });
  });

  it('refuses a tampered token, another tenant’s token, and any other host', async () => {
    const email = `tamper-${uniq()}@example.test`;
    const token = unsubscribeToken(server.config.secret, tenant.id, email);
    const [encoded, signature] = token.split('.') as [string, string];
    const otherAddress = Buffer.from(`victim-${uniq()}@example.test`).toString('base64url');
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    const elsewhere = await givenTenant(server);
    const site = server.client(tenant.url);
    for (const bad of [
      `${otherAddress}.${signature}`,
      `${encoded}.${flipped}`,
      encoded,
      `${encoded}.${signature}.x`,
      `${Buffer.from(email.toUpperCase()).toString('base64url')}.${signature}`,
      unsubscribeToken(server.config.secret, elsewhere.id, email),
      unsubscribeToken('another-secret-another-secret-another', tenant.id, email),
      'x'.repeat(401),
    ]) {
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        const res = await site.request(method, `/api/p/unsubscribe/${encodeURIComponent(bad)}`);
        if (bad.length > 400) {
          expect([400, 414], method).toContain(res.status);
          continue;
        }
        expect(res.status, `${method} ${bad}`).toBe(404);
        expect(res.body.error.message).toBe(M.unsubscribeLinkInvalid);
      }
    }
    expect((await site.get(`/api/p/unsubscribe/${token}`)).body.optedOut).toBe(false);
    // The same token on another tenant's host or the platform's is not that tenant's link.
    expect((await server.client(elsewhere.url).post(`/api/p/unsubscribe/${token}`)).status).toBe(404);
    expect((await server.client().post(`/api/p/unsubscribe/${token}`)).status).toBe(404);
    expect((await site.get(`/api/p/unsubscribe/${token}`)).body.optedOut).toBe(false);
  });
});
