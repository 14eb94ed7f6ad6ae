import {
  ZAnswersReport,
  ZAttendeeForm,
  ZAttendeeSettings,
  ZCreateQuestionRequest,
  ZOrderAnswers,
  ZOrderAnswersInput,
  ZQuestion,
  ZQuestionList,
  ZReorderQuestionsRequest,
  ZSuccess,
  ZUpdateAttendeeSettingsRequest,
  ZUpdateQuestionRequest,
} from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { siteCtxOf, tenantCtxOf } from '../../platform/auth/guard.js';
import { EVENT_READ, EVENT_WRITE } from '../events/access.js';
import { ORDER_ATTEND, ORDER_VIEW } from '../order-admin/access.js';
import { answersReport } from './answers-report.js';
import { getAttendeeSettings, getPublicAttendeeForm, updateAttendeeSettings } from './attendee-settings.js';
import { createQuestion, listQuestions, removeQuestion, reorderQuestions, updateQuestion } from './manage-questions.js';
import { editOrderAnswers, getOrderAnswersForOrganiser } from './order-answers.js';

const ZEventParams = z.object({ tenantId: z.string(), eventId: z.uuid() });
const ZQuestionParams = ZEventParams.extend({ questionId: z.uuid() });
const ZOrderParams = ZEventParams.extend({ orderUID: z.string().max(100) });

/** Issue 24: the event's questions, its attendee settings, the answers report and an order's answers (docs/attendee-questions.md). */
export function registerQuestionRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['attendee questions'];
  const base = '/api/tenants/:tenantId/events/:eventId';

  r.get(
    `${base}/questions`,
    { config: { access: EVENT_READ }, schema: { tags, summary: 'The event’s questions, in the order buyers see them', params: ZEventParams, response: { 200: ZQuestionList } } },
    async (req) => listQuestions({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );
  r.post(
    `${base}/questions`,
    { config: { access: EVENT_WRITE }, schema: { tags, params: ZEventParams, body: ZCreateQuestionRequest, response: { 201: ZQuestion } } },
    async (req, reply) => reply.status(201).send(await createQuestion({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, input: req.body.details })),
  );
  r.put(
    `${base}/questions/:questionId`,
    {
      config: { access: EVENT_WRITE },
      schema: { tags, summary: 'Edits a question; answers already given keep the wording they were given under', params: ZQuestionParams, body: ZUpdateQuestionRequest, response: { 200: ZQuestion } },
    },
    async (req) => updateQuestion({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, questionId: req.params.questionId, input: req.body.details }),
  );
  r.delete(
    `${base}/questions/:questionId`,
    { config: { access: EVENT_WRITE }, schema: { tags, summary: 'Stops asking a question; its answers stay', params: ZQuestionParams, response: { 200: ZSuccess } } },
    async (req) => removeQuestion({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, questionId: req.params.questionId }),
  );
  r.post(
    `${base}/questions/reorder`,
    { config: { access: EVENT_WRITE }, schema: { tags, summary: 'Puts the questions in a new order', params: ZEventParams, body: ZReorderQuestionsRequest, response: { 200: ZQuestionList } } },
    async (req) => reorderQuestions({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, ids: req.body.ids }),
  );

  r.get(
    `${base}/attendee-settings`,
    { config: { access: EVENT_READ }, schema: { tags, params: ZEventParams, response: { 200: ZAttendeeSettings } } },
    async (req) => getAttendeeSettings({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );
  r.put(
    `${base}/attendee-settings`,
    {
      config: { access: EVENT_WRITE },
      schema: { tags, summary: 'Each ticket type’s attendee name and e-mail, and the buyers’ deadline for changes', params: ZEventParams, body: ZUpdateAttendeeSettingsRequest, response: { 200: ZAttendeeSettings } },
    },
    async (req) => updateAttendeeSettings({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, input: req.body }),
  );

  r.get(
    `${base}/answers-report`,
    { config: { access: EVENT_READ }, schema: { tags, summary: 'Answers per question, with counts per choice (paid orders)', params: ZEventParams, response: { 200: ZAnswersReport } } },
    async (req) => answersReport({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId }),
  );

  r.get(
    `${base}/orders/:orderUID/answers`,
    { config: { access: ORDER_VIEW }, schema: { tags, summary: 'An order’s attendees and answers', params: ZOrderParams, response: { 200: ZOrderAnswers } } },
    async (req) => getOrderAnswersForOrganiser({ deps, tenantId: tenantCtxOf(req).tenantId, eventId: req.params.eventId, orderUid: req.params.orderUID }),
  );
  r.put(
    `${base}/orders/:orderUID/answers`,
    {
      config: { access: ORDER_ATTEND },
      schema: { tags, summary: 'Changes an order’s attendees and answers (checked as at checkout)', params: ZOrderParams, body: ZOrderAnswersInput, response: { 200: ZOrderAnswers } },
    },
    async (req) =>
      editOrderAnswers({ deps, tenantId: tenantCtxOf(req).tenantId, by: 'organiser', order: { orderUid: req.params.orderUID, eventId: req.params.eventId }, input: req.body }),
  );

  r.get(
    '/api/p/tenants/:tenantId/events/:eventId/attendee-form',
    {
      config: { access: { kind: 'site' } },
      schema: { tags: ['checkout'], summary: 'What the checkout asks: the questions and each ticket type’s attendee name and e-mail', params: z.object({ tenantId: z.string().max(100), eventId: z.uuid() }), response: { 200: ZAttendeeForm } },
    },
    async (req) => getPublicAttendeeForm({ deps, site: siteCtxOf(req), eventId: req.params.eventId }),
  );
}
