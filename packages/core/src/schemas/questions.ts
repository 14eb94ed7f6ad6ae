import { z } from 'zod';
import { CHOICE_KINDS, checkOrderAnswers, QM, QUESTION_KINDS, QUESTION_LIMITS, QUESTION_SCOPES, ATTENDEE_FIELD_MODES } from '../attendee-answers.js';

// Issue 24: attendee details and the organiser's questions. One set of rules, used by the console's
// question editor, the checkout's form, the order link's and the order page's edits, and the server
// (PLACE ORDER and every edit): the web shows the same message the server would answer.

/** One answer on the wire: text (short, long, date, phone, a single choice), choices, a checkbox, a number; null = not answered. */
export const ZAnswerValue = z.union([
  z.string().max(QUESTION_LIMITS.longText * 2),
  z.array(z.string().max(QUESTION_LIMITS.option * 2)).max(QUESTION_LIMITS.options),
  z.boolean(),
  z.number(),
  z.null(),
]);
export type TAnswerValue = z.infer<typeof ZAnswerValue>;
export const ZAnswerMap = z.record(z.uuid(), ZAnswerValue).refine((m) => Object.keys(m).length <= QUESTION_LIMITS.questionsPerEvent, 'Too many answers.');

// ---- the question, as the organiser writes it ----

const zOptions = z
  .array(z.string().trim().min(1, QM.optionInvalid).max(QUESTION_LIMITS.option, QM.optionInvalid))
  .max(QUESTION_LIMITS.options, QM.optionsTooMany)
  .refine((o) => new Set(o.map((x) => x.toLowerCase())).size === o.length, QM.optionsDuplicate);

export const ZQuestionDetails = z
  .object({
    label: z.string({ error: QM.labelRequired }).trim().min(1, QM.labelRequired).max(QUESTION_LIMITS.label, QM.labelTooLong),
    kind: z.enum(QUESTION_KINDS),
    helpText: z.string().trim().max(QUESTION_LIMITS.helpText, QM.helpTooLong).default(''),
    required: z.boolean().default(false),
    scope: z.enum(QUESTION_SCOPES).default('order'),
    options: zOptions.default([]),
    /** Empty: every ticket type of the event. */
    ticketTypeIds: z.array(z.uuid()).max(200).default([]),
  })
  .superRefine((q, ctx) => {
    if (CHOICE_KINDS.includes(q.kind) && q.options.length < 2) ctx.addIssue({ code: 'custom', path: ['options'], message: QM.optionsRequired });
  })
  .transform((q) => ({ ...q, options: CHOICE_KINDS.includes(q.kind) ? q.options : [] }));
export type TQuestionInput = z.input<typeof ZQuestionDetails>;
export type TQuestionDetails = z.output<typeof ZQuestionDetails>;

export const ZCreateQuestionRequest = z.object({ details: ZQuestionDetails });
export const ZUpdateQuestionRequest = z.object({ details: ZQuestionDetails });
export type TCreateQuestionRequest = z.input<typeof ZCreateQuestionRequest>;

export const ZQuestion = z.object({
  id: z.string(),
  details: z.object({
    label: z.string(),
    kind: z.enum(QUESTION_KINDS),
    helpText: z.string(),
    required: z.boolean(),
    scope: z.enum(QUESTION_SCOPES),
    options: z.array(z.string()),
    ticketTypeIds: z.array(z.string()),
    sortOrder: z.number().int(),
    /** How many answers it has: an answered question keeps them readable after an edit or a removal. */
    answerCount: z.number().int(),
  }),
});
export type TQuestion = z.infer<typeof ZQuestion>;
export const ZQuestionList = z.object({ result: z.array(ZQuestion), count: z.number().int() });
export type TQuestionList = z.infer<typeof ZQuestionList>;

/** The new order of the event's questions: every question id, once. */
export const ZReorderQuestionsRequest = z.object({ ids: z.array(z.uuid()).min(1).max(QUESTION_LIMITS.questionsPerEvent) });

/** Per ticket type: the attendee's name and e-mail; per event: until when buyers may change their answers. */
export const ZAttendeeSettings = z.object({
  /** ISO instant; null: the event's start. */
  answersDeadline: z.string().nullable(),
  /** The deadline in force (answersDeadline, or the event's start); null: none. */
  effectiveDeadline: z.string().nullable(),
  ticketTypes: z.array(z.object({ ticketTypeId: z.string(), name: z.string(), askName: z.enum(ATTENDEE_FIELD_MODES), askEmail: z.enum(ATTENDEE_FIELD_MODES) })),
});
export type TAttendeeSettings = z.infer<typeof ZAttendeeSettings>;
export const ZUpdateAttendeeSettingsRequest = z.object({
  answersDeadline: z.iso.datetime({ offset: true, error: QM.deadlineInvalid }).nullable().optional(),
  ticketTypes: z
    .array(z.object({ ticketTypeId: z.uuid(), askName: z.enum(ATTENDEE_FIELD_MODES), askEmail: z.enum(ATTENDEE_FIELD_MODES) }))
    .max(200)
    .optional(),
});
export type TUpdateAttendeeSettingsRequest = z.input<typeof ZUpdateAttendeeSettingsRequest>;

// ---- the form the buyer fills in ----

/** What the checkout asks: the questions (in order) and each ticket type's name and e-mail. */
export const ZAttendeeForm = z.object({
  questions: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      kind: z.enum(QUESTION_KINDS),
      helpText: z.string(),
      required: z.boolean(),
      scope: z.enum(QUESTION_SCOPES),
      options: z.array(z.string()),
      ticketTypeIds: z.array(z.string()),
    }),
  ),
  ticketTypes: z.array(z.object({ ticketTypeId: z.string(), askName: z.enum(ATTENDEE_FIELD_MODES), askEmail: z.enum(ATTENDEE_FIELD_MODES) })),
});
export type TAttendeeForm = z.infer<typeof ZAttendeeForm>;
export type FormQuestion = TAttendeeForm['questions'][number];
export type FormTicketType = TAttendeeForm['ticketTypes'][number];

/** PLACE ORDER's and the edits' answers: once per order, and per ticket (in the cart's order, ticket type by ticket type). */
export const ZAttendeeInput = z.object({
  ticketTypeId: z.uuid(),
  fullName: z.string().max(QUESTION_LIMITS.name * 2).optional().nullable(),
  email: z.string().max(300).optional().nullable(),
  answers: ZAnswerMap.optional().default({}),
});
export type TAttendeeInput = z.input<typeof ZAttendeeInput>;
export const ZOrderAnswersInput = z.object({
  answers: ZAnswerMap.optional().default({}),
  attendees: z.array(ZAttendeeInput).max(QUESTION_LIMITS.attendeesPerOrder).optional().default([]),
});
export type TOrderAnswersInput = z.input<typeof ZOrderAnswersInput>;

/** One stored answer as people read it: the question's label and kind as they were when answered. */
export const ZAnswerView = z.object({ questionId: z.string(), label: z.string(), kind: z.enum(QUESTION_KINDS), value: ZAnswerValue, text: z.string() });
export type TAnswerView = z.infer<typeof ZAnswerView>;
/** An order's attendees and answers (order detail, order link). */
export const ZOrderAnswers = z.object({
  /** The buyer may still change them (order link); the organiser always may. */
  editable: z.boolean(),
  deadline: z.string().nullable(),
  form: ZAttendeeForm,
  answers: z.array(ZAnswerView),
  attendees: z.array(
    z.object({
      ticketTypeId: z.string(),
      ticketTypeName: z.string(),
      position: z.number().int(),
      ticketUid: z.string().nullable(),
      fullName: z.string(),
      email: z.string(),
      answers: z.array(ZAnswerView),
    }),
  ),
});
export type TOrderAnswers = z.infer<typeof ZOrderAnswers>;

/** The per-event answers report: each question, its answer count, and per option how many chose it. */
export const ZAnswersReport = z.object({
  questions: z.array(
    z.object({
      questionId: z.string(),
      label: z.string(),
      kind: z.enum(QUESTION_KINDS),
      scope: z.enum(QUESTION_SCOPES),
      removed: z.boolean(),
      answered: z.number().int(),
      choices: z.array(z.object({ option: z.string(), count: z.number().int() })),
    }),
  ),
});
export type TAnswersReport = z.infer<typeof ZAnswersReport>;

/** The same check as a zod schema (the server's body check after the route's shape check; the web's form). */
export const zOrderAnswersFor = (form: TAttendeeForm, lines: ReadonlyArray<{ ticketTypeId: string; quantity: number }>) =>
  ZOrderAnswersInput.transform((input, ctx) => {
    const r = checkOrderAnswers(form, lines, input);
    if (r.ok) return r.value;
    for (const [path, message] of Object.entries(r.fields)) ctx.addIssue({ code: 'custom', path: path.split('.'), message });
    return z.NEVER;
  });

