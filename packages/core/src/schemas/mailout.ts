import { z } from 'zod';
import { M } from '../messages.js';
import { zListResponse, zResource } from './list.js';
import { zUuid } from './events.js';

// Messages to attendees of an event (issue 15, organisers): the console's compose form, the
// audience count, the sending job's progress and history, and the attendee site's unsubscribe page.

export const ATTENDEE_MESSAGE_SUBJECT_MAX = 200;
/** The rich-text body as HTML; a long letter is a few kilobytes. */
export const ATTENDEE_MESSAGE_BODY_MAX = 100_000;
export const ATTENDEE_MESSAGE_RECIPIENTS = ['all', 'ticket_types'] as const;
export type AttendeeMessageRecipients = (typeof ATTENDEE_MESSAGE_RECIPIENTS)[number];
/** queued: waiting for the job; sending: n of m handed to the outbox; done; failed (the job gave up). */
export const ATTENDEE_MESSAGE_STATUSES = ['queued', 'sending', 'done', 'failed'] as const;
export type AttendeeMessageStatus = (typeof ATTENDEE_MESSAGE_STATUSES)[number];

const ZAudienceFields = z.object({
  recipients: z.enum(ATTENDEE_MESSAGE_RECIPIENTS, { error: M.invalidValue }),
  ticketTypeIds: z.array(zUuid(M.attendeeMessageTicketTypeUnknown)).max(200).default([]),
  /** Marketing: only buyers who opted in at checkout ("Keep me posted …") receive it. */
  marketing: z.boolean().default(false),
});

const audienceRule = (d: { recipients: AttendeeMessageRecipients; ticketTypeIds: string[] }, ctx: z.RefinementCtx) => {
  if (d.recipients === 'ticket_types' && d.ticketTypeIds.length === 0)
    ctx.addIssue({ code: 'custom', message: M.attendeeMessageTicketTypes, path: ['ticketTypeIds'] });
};

export const ZAttendeeAudienceRequest = z.object({ details: ZAudienceFields.superRefine(audienceRule) });
export type TAttendeeAudienceRequest = z.input<typeof ZAttendeeAudienceRequest>;

/** How many distinct addresses a message would go to now, and who is left out. */
export const ZAttendeeAudience = z.object({
  recipients: z.number().int(),
  /** Addresses that unsubscribed from this organiser's messages. */
  optedOut: z.number().int(),
  /** With "marketing": ticket holders who did not opt in at checkout. */
  notOptedIn: z.number().int(),
});
export type TAttendeeAudience = z.infer<typeof ZAttendeeAudience>;

export const ZAttendeeMessageFields = ZAudienceFields.extend({
  subject: z
    .string({ error: M.subjectRequired })
    .trim()
    .min(1, M.subjectRequired)
    .max(ATTENDEE_MESSAGE_SUBJECT_MAX, M.attendeeMessageSubjectMax)
    .refine((v) => !/[\r\n]/.test(v), M.invalidValue),
  /** HTML from the rich editor; the server keeps the policies' safe subset. */
  body: z.string({ error: M.messageRequired }).min(1, M.messageRequired).max(ATTENDEE_MESSAGE_BODY_MAX, M.attendeeMessageBodyMax),
});

export const ZCreateAttendeeMessageRequest = z.object({ details: ZAttendeeMessageFields.superRefine(audienceRule) });
export type TCreateAttendeeMessageRequest = z.input<typeof ZCreateAttendeeMessageRequest>;

export const ZAttendeeMessage = zResource(
  z.object({
    subject: z.string(),
    body: z.string(),
    recipients: z.enum(ATTENDEE_MESSAGE_RECIPIENTS),
    ticketTypeIds: z.array(z.string()),
    /** The chosen ticket types' names as they were when sent. */
    ticketTypeNames: z.array(z.string()),
    marketing: z.boolean(),
    status: z.enum(ATTENDEE_MESSAGE_STATUSES),
    /** Distinct addresses it goes to; null until the job has counted them. */
    total: z.number().int().nullable(),
    /** Handed to the outbox so far. */
    sent: z.number().int(),
    /** Left out when it was counted: unsubscribed addresses. */
    optedOut: z.number().int(),
    createdBy: z.string(),
    dateCreated: z.string(),
    /** When the last mail was handed to the outbox. */
    dateSent: z.string().nullable(),
  }),
);
export type TAttendeeMessage = z.infer<typeof ZAttendeeMessage>;
export const ZAttendeeMessageList = zListResponse(ZAttendeeMessage);
export type TAttendeeMessageList = z.infer<typeof ZAttendeeMessageList>;

// ---- the attendee site's unsubscribe page ----------------------------------------------------------

export const ZUnsubscribeState = z.object({
  email: z.string(),
  organiser: z.string(),
  optedOut: z.boolean(),
});
export type TUnsubscribeState = z.infer<typeof ZUnsubscribeState>;

export const ZUnsubscribeAnswer = z.object({ success: z.literal(true), optedOut: z.boolean(), message: z.string() });
export type TUnsubscribeAnswer = z.infer<typeof ZUnsubscribeAnswer>;
