import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Issue 24: attendee details and the organiser's questions (docs/attendee-questions.md). Every table
// is tenant-owned; answers keep the question's label and kind as they were when answered, so an
// edit or a removal after sales leaves earlier answers readable.

export const eventQuestions = pgTable(
  'event_questions',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    eventId: uuid('event_id').notNull(),
    label: text('label').notNull(),
    /** core QUESTION_KINDS */
    kind: text('kind').notNull(),
    helpText: text('help_text').notNull().default(''),
    required: boolean('required').notNull().default(false),
    /** order | ticket */
    scope: text('scope').notNull().default('order'),
    options: text('options').array().notNull().default(sql`'{}'::text[]`),
    /** Empty: every ticket type of the event. */
    ticketTypeIds: uuid('ticket_type_ids').array().notNull().default(sql`'{}'::uuid[]`),
    sortOrder: integer('sort_order').notNull().default(0),
    /** A removed question is asked no more; its answers stay (null: asked). */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('event_questions_event_idx').on(t.tenantId, t.eventId, t.sortOrder),
    check('event_questions_scope_known', sql`${t.scope} in ('order', 'ticket')`),
  ],
);

/** Per ticket type: whether each ticket asks the attendee's name and e-mail (off | optional | required). No row: off. */
export const ticketTypeAttendeeFields = pgTable(
  'ticket_type_attendee_fields',
  {
    tenantId: uuid('tenant_id').notNull(),
    ticketTypeId: uuid('ticket_type_id').notNull(),
    eventId: uuid('event_id').notNull(),
    askName: text('ask_name').notNull().default('off'),
    askEmail: text('ask_email').notNull().default('off'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.ticketTypeId] }),
    index('ticket_type_attendee_fields_event_idx').on(t.tenantId, t.eventId),
    check('ticket_type_attendee_fields_modes', sql`${t.askName} in ('off', 'optional', 'required') and ${t.askEmail} in ('off', 'optional', 'required')`),
  ],
);

/** Per event: until when buyers may change their answers from the order link (no row or null: the event's start). */
export const eventAnswerSettings = pgTable(
  'event_answer_settings',
  {
    tenantId: uuid('tenant_id').notNull(),
    eventId: uuid('event_id').notNull(),
    answersDeadline: timestamp('answers_deadline', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.eventId] })],
);

/**
 * Each ticket's attendee as given at checkout (or edited since), by ticket type and position in the
 * order: the tickets are issued after the payment and take their name and e-mail from here; ticket_id
 * ties the row to its ticket once issued.
 */
export const orderAttendees = pgTable(
  'order_attendees',
  {
    tenantId: uuid('tenant_id').notNull(),
    orderId: uuid('order_id').notNull(),
    ticketTypeId: uuid('ticket_type_id').notNull(),
    position: integer('position').notNull(),
    eventId: uuid('event_id').notNull(),
    fullName: text('full_name').notNull().default(''),
    email: text('email').notNull().default(''),
    ticketId: uuid('ticket_id'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.orderId, t.ticketTypeId, t.position] })],
);

/** One answer: to a question asked once per order (slot '') or for one ticket (slot '{ticketTypeId}:{position}'). */
export const orderAnswers = pgTable(
  'order_answers',
  {
    tenantId: uuid('tenant_id').notNull(),
    orderId: uuid('order_id').notNull(),
    questionId: uuid('question_id').notNull(),
    slot: text('slot').notNull(),
    eventId: uuid('event_id').notNull(),
    /** The question as it was answered. */
    label: text('label').notNull(),
    kind: text('kind').notNull(),
    /** The answer as JSON (text, a list of options, true/false, a number). */
    value: text('value').notNull(),
    /** The answer as people read it (core answerText): the exports' and the report's cell. */
    text: text('text').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.orderId, t.questionId, t.slot] }), index('order_answers_event_idx').on(t.tenantId, t.eventId, t.questionId)],
);
