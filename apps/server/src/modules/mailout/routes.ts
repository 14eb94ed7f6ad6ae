import {
  ZAttendeeAudience,
  ZAttendeeAudienceRequest,
  ZAttendeeMessage,
  ZAttendeeMessageList,
  ZCreateAttendeeMessageRequest,
  ZUnsubscribeAnswer,
  ZUnsubscribeState,
} from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { siteCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { MESSAGES_SEND, MESSAGES_VIEW } from './access.js';
import {
  ATTENDEE_MESSAGE_JOB,
  createAttendeeMessage,
  getAttendeeMessage,
  getUnsubscribeState,
  listAttendeeMessages,
  previewAudience,
  resubscribe,
  sendAttendeeMessage,
  unsubscribe,
  type AttendeeMessageJob,
} from './service.js';

const ZEventParams = z.object({ tenantId: z.string(), eventId: z.uuid() });
const ZMessageParams = ZEventParams.extend({ messageId: z.uuid() });
const ZTokenParams = z.object({ token: z.string().max(400) });

/** Messages to an event's attendees (issue 15): compose, count, send as a job, history; and unsubscribe. */
export function registerMailoutRoutes(app: FastifyInstance, deps: Deps) {
  deps.jobs.register(ATTENDEE_MESSAGE_JOB, async (job: AttendeeMessageJob, info) => sendAttendeeMessage({ deps, job, attempt: info.attempt }));

  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['messages to attendees'];
  const base = '/api/tenants/:tenantId/events/:eventId/messages';

  r.get(
    base,
    { config: { access: MESSAGES_VIEW }, schema: { tags, summary: 'Messages sent to the event’s attendees, newest first', params: ZEventParams, response: { 200: ZAttendeeMessageList } } },
    async (req) => listAttendeeMessages({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, query: req.query }),
  );

  r.post(
    `${base}/audience`,
    {
      config: { access: MESSAGES_SEND },
      schema: { tags, summary: 'How many distinct addresses a message would go to', params: ZEventParams, body: ZAttendeeAudienceRequest, response: { 200: ZAttendeeAudience } },
    },
    async (req) => previewAudience({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, input: req.body.details }),
  );

  r.post(
    base,
    {
      config: { access: MESSAGES_SEND },
      schema: { tags, summary: 'Sends a message to the event’s attendees (a job; the answer is queued)', params: ZEventParams, body: ZCreateAttendeeMessageRequest, response: { 201: ZAttendeeMessage } },
    },
    async (req, reply) => reply.status(201).send(await createAttendeeMessage({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, input: req.body.details })),
  );

  r.get(
    `${base}/:messageId`,
    { config: { access: MESSAGES_VIEW }, schema: { tags, summary: 'One message and its sending progress', params: ZMessageParams, response: { 200: ZAttendeeMessage } } },
    async (req) => getAttendeeMessage({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, messageId: req.params.messageId }),
  );

  // The attendee site: the link in each mail (no sign-in), and the one-click post mail clients make
  // from List-Unsubscribe (RFC 8058: a form-encoded body "List-Unsubscribe=One-Click").
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const s = scope.withTypeProvider<ZodTypeProvider>();
    const site = { kind: 'site' } as const;
    const siteTags = ['event site'];
    s.get(
      '/api/p/unsubscribe/:token',
      { config: { access: site }, schema: { tags: siteTags, summary: 'Whether the link’s address receives this organiser’s messages', params: ZTokenParams, response: { 200: ZUnsubscribeState } } },
      async (req, reply) => {
        reply.header('cache-control', 'private, no-store');
        return getUnsubscribeState({ deps, site: siteCtxOf(req), token: req.params.token });
      },
    );
    s.post(
      '/api/p/unsubscribe/:token',
      { config: { access: site }, schema: { tags: siteTags, summary: 'Unsubscribes the link’s address from this organiser’s messages', params: ZTokenParams, response: { 200: ZUnsubscribeAnswer } } },
      async (req) => unsubscribe({ deps, site: siteCtxOf(req), token: req.params.token }),
    );
    s.delete(
      '/api/p/unsubscribe/:token',
      { config: { access: site }, schema: { tags: siteTags, summary: 'Subscribes the link’s address again', params: ZTokenParams, response: { 200: ZUnsubscribeAnswer } } },
      async (req) => resubscribe({ deps, site: siteCtxOf(req), token: req.params.token }),
    );
  });
}
