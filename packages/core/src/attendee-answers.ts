import { phoneDigits } from './phone.js';
import { EMAIL_RE } from './email.js';
import type { TAnswerValue, TAttendeeForm, FormQuestion } from './schemas/questions.js';

// Issue 24: the attendee questions' rules without zod, so that the checkout's first load carries
// none of it (the form and its check load with the questions); schemas/questions.ts holds the wire
// schemas and the same check as a zod schema (zOrderAnswersFor).

export const QUESTION_KINDS = ['shortText', 'longText', 'singleChoice', 'multipleChoice', 'checkbox', 'number', 'date', 'phone'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];
export const QUESTION_KIND_LABELS: Record<QuestionKind, string> = {
  shortText: 'Short text',
  longText: 'Long text',
  singleChoice: 'Single choice',
  multipleChoice: 'Multiple choice',
  checkbox: 'Checkbox (consent)',
  number: 'Number',
  date: 'Date',
  phone: 'Phone',
};
/** Asked once per order, or for each ticket. */
export const QUESTION_SCOPES = ['order', 'ticket'] as const;
export type QuestionScope = (typeof QUESTION_SCOPES)[number];
/** The attendee's name and e-mail per ticket type: not asked, asked, or required. */
export const ATTENDEE_FIELD_MODES = ['off', 'optional', 'required'] as const;
export type AttendeeFieldMode = (typeof ATTENDEE_FIELD_MODES)[number];

export const QUESTION_LIMITS = {
  label: 200,
  helpText: 500,
  options: 50,
  option: 100,
  shortText: 200,
  longText: 2000,
  number: 1_000_000_000,
  name: 200,
  questionsPerEvent: 50,
  attendeesPerOrder: 200,
} as const;
export const CHOICE_KINDS: readonly QuestionKind[] = ['singleChoice', 'multipleChoice'];

export const QM = {
  labelRequired: 'Question is required.',
  /** A new order of the event's questions that leaves one out, names one twice or names another event's. */
  reorderIncomplete: 'Give every question of the event once.',
  labelTooLong: `Question may have at most ${QUESTION_LIMITS.label} characters.`,
  helpTooLong: `Help text may have at most ${QUESTION_LIMITS.helpText} characters.`,
  optionsRequired: 'A choice question needs at least two options.',
  optionsTooMany: `A question may have at most ${QUESTION_LIMITS.options} options.`,
  optionInvalid: `Each option needs 1 to ${QUESTION_LIMITS.option} characters.`,
  optionsDuplicate: 'Each option must be different.',
  tooManyQuestions: `An event may have at most ${QUESTION_LIMITS.questionsPerEvent} questions.`,
  ticketTypeUnknown: 'Choose ticket types of this event.',
  deadlineInvalid: 'Enter a valid date and time.',
  answersLocked: 'Answers can no longer be changed for this order.',
  nameRequired: 'The Attendee Name field is required.',
  nameTooLong: `Attendee Name may have at most ${QUESTION_LIMITS.name} characters.`,
  emailRequired: 'The Attendee Email field is required.',
  emailInvalid: 'Enter a valid e-mail address.',
  unknownQuestion: 'This question is not asked for this order.',
  attendeesMismatch: 'Give one attendee for each ticket.',
  required: (label: string) => `The ${label} field is required.`,
  consentRequired: (label: string) => `Please confirm: ${label}`,
  tooLong: (label: string, max: number) => `${label} may have at most ${max} characters.`,
  notText: (label: string) => `${label} must be text.`,
  notChoice: (label: string) => `Choose one of the options for ${label}.`,
  notChoices: (label: string) => `Choose from the options for ${label}.`,
  notNumber: (label: string) => `${label} must be a number.`,
  numberRange: (label: string) => `${label} is out of range.`,
  notDate: (label: string) => `${label} must be a date (YYYY-MM-DD).`,
  notPhone: (label: string) => `${label} must be a phone number with 10 digits.`,
  notCheckbox: (label: string) => `${label} must be checked or not.`,
} as const;

// ---- the one check ----

type AskedQuestion = Pick<FormQuestion, 'id' | 'label' | 'kind' | 'required' | 'options'>;

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/** An answer checked against its question: the value to store (null: not answered) or the field's own message. */
export function checkAnswer(q: AskedQuestion, value: unknown): { ok: true; value: TAnswerValue } | { ok: false; message: string } {
  const label = q.label;
  if (q.kind === 'checkbox') {
    if (value === undefined || value === null || value === false) return q.required ? { ok: false, message: QM.consentRequired(label) } : { ok: true, value: false };
    return value === true ? { ok: true, value: true } : { ok: false, message: QM.notCheckbox(label) };
  }
  if (blank(value)) return q.required ? { ok: false, message: QM.required(label) } : { ok: true, value: null };
  switch (q.kind) {
    case 'shortText':
    case 'longText': {
      if (typeof value !== 'string') return { ok: false, message: QM.notText(label) };
      const max = q.kind === 'shortText' ? QUESTION_LIMITS.shortText : QUESTION_LIMITS.longText;
      const v = value.trim();
      return v.length > max ? { ok: false, message: QM.tooLong(label, max) } : { ok: true, value: v };
    }
    case 'singleChoice': {
      if (typeof value !== 'string' || !q.options.includes(value)) return { ok: false, message: QM.notChoice(label) };
      return { ok: true, value };
    }
    case 'multipleChoice': {
      if (!Array.isArray(value) || value.some((x) => typeof x !== 'string' || !q.options.includes(x)) || new Set(value).size !== value.length)
        return { ok: false, message: QM.notChoices(label) };
      // Kept in the options' order, so that two buyers' identical choices read the same.
      return { ok: true, value: q.options.filter((o) => (value as string[]).includes(o)) };
    }
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
      if (!Number.isFinite(n)) return { ok: false, message: QM.notNumber(label) };
      return Math.abs(n) > QUESTION_LIMITS.number ? { ok: false, message: QM.numberRange(label) } : { ok: true, value: n };
    }
    case 'date': {
      if (typeof value !== 'string' || !isIsoDate(value.trim())) return { ok: false, message: QM.notDate(label) };
      return { ok: true, value: value.trim() };
    }
    case 'phone': {
      const d = typeof value === 'string' ? phoneDigits(value) : null;
      return d ? { ok: true, value: `+1${d}` } : { ok: false, message: QM.notPhone(label) };
    }
    default:
      return { ok: false, message: QM.notText(label) };
  }
}

function isIsoDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** An answer as people read it (order detail, exports, the order link). */
export function answerText(kind: QuestionKind, value: TAnswerValue): string {
  if (value === null) return '';
  if (kind === 'checkbox') return value === true ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.join('; ');
  return String(value);
}

export function checkName(mode: AttendeeFieldMode, value: unknown): { ok: true; value: string } | { ok: false; message: string } {
  const v = typeof value === 'string' ? value.trim() : '';
  if (mode === 'off') return { ok: true, value: '' };
  if (!v) return mode === 'required' ? { ok: false, message: QM.nameRequired } : { ok: true, value: '' };
  return v.length > QUESTION_LIMITS.name ? { ok: false, message: QM.nameTooLong } : { ok: true, value: v };
}

export function checkAttendeeEmail(mode: AttendeeFieldMode, value: unknown): { ok: true; value: string } | { ok: false; message: string } {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (mode === 'off') return { ok: true, value: '' };
  if (!v) return mode === 'required' ? { ok: false, message: QM.emailRequired } : { ok: true, value: '' };
  return v.length <= 254 && EMAIL_RE.test(v) ? { ok: true, value: v } : { ok: false, message: QM.emailInvalid };
}

/** The questions asked once per order for these ticket types (a question limited to types asks when one of them is in the cart). */
export function orderQuestions<Q extends Pick<FormQuestion, 'scope' | 'ticketTypeIds'>>(questions: readonly Q[], typeIds: readonly string[]): Q[] {
  return questions.filter((q) => q.scope === 'order' && (q.ticketTypeIds.length === 0 || q.ticketTypeIds.some((t) => typeIds.includes(t))));
}
/** The questions asked for each ticket of one ticket type. */
export function ticketQuestions<Q extends Pick<FormQuestion, 'scope' | 'ticketTypeIds'>>(questions: readonly Q[], ticketTypeId: string): Q[] {
  return questions.filter((q) => q.scope === 'ticket' && (q.ticketTypeIds.length === 0 || q.ticketTypeIds.includes(ticketTypeId)));
}

/** Does this cart ask anything at all? (The checkout loads the form only then.) */
export function asksAnything(form: TAttendeeForm, typeIds: readonly string[]): boolean {
  const types = form.ticketTypes.filter((t) => typeIds.includes(t.ticketTypeId));
  return (
    types.some((t) => t.askName !== 'off' || t.askEmail !== 'off') ||
    orderQuestions(form.questions, typeIds).length > 0 ||
    typeIds.some((id) => ticketQuestions(form.questions, id).length > 0)
  );
}

export type CheckedAnswer = { questionId: string; label: string; kind: QuestionKind; value: TAnswerValue };
export type CheckedAttendee = { ticketTypeId: string; position: number; fullName: string; email: string; answers: CheckedAnswer[] };
export type CheckedOrderAnswers = { answers: CheckedAnswer[]; attendees: CheckedAttendee[] };

/**
 * The buyer's answers for a cart (PLACE ORDER) or an order (the edits), checked against what the
 * event asks. `lines` are the tickets in order, merged by type. Fields are named as the request:
 * `answers.<questionId>`, `attendees.<i>.fullName`, `attendees.<i>.email`, `attendees.<i>.answers.<questionId>`.
 * Only the answered questions are kept; an answer to a question this order is not asked is refused.
 */
export function checkOrderAnswers(
  form: TAttendeeForm,
  lines: ReadonlyArray<{ ticketTypeId: string; quantity: number }>,
  input: { answers?: Record<string, unknown>; attendees?: ReadonlyArray<{ ticketTypeId: string; fullName?: string | null; email?: string | null; answers?: Record<string, unknown> }> },
): { ok: true; value: CheckedOrderAnswers } | { ok: false; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const typeIds = lines.map((l) => l.ticketTypeId);
  const asked = orderQuestions(form.questions, typeIds);
  const given = input.answers ?? {};
  const answers: CheckedAnswer[] = [];
  for (const id of Object.keys(given)) if (!asked.some((q) => q.id === id)) fields[`answers.${id}`] = QM.unknownQuestion;
  for (const q of asked) {
    const r = checkAnswer(q, given[q.id]);
    if (!r.ok) fields[`answers.${q.id}`] = r.message;
    else if (r.value !== null) answers.push({ questionId: q.id, label: q.label, kind: q.kind, value: r.value });
  }

  const attendeesIn = input.attendees ?? [];
  const slots = lines.flatMap((l) => Array.from({ length: l.quantity }, (_, position) => ({ ticketTypeId: l.ticketTypeId, position })));
  // Attendees come in the cart's order; fewer than tickets is fine where nothing is required (empty ones).
  if (attendeesIn.length > slots.length || attendeesIn.some((a, i) => a.ticketTypeId !== slots[i]!.ticketTypeId)) {
    return { ok: false, fields: { ...fields, attendees: QM.attendeesMismatch } };
  }
  const attendees: CheckedAttendee[] = [];
  slots.forEach((slot, i) => {
    const a = attendeesIn[i];
    const type = form.ticketTypes.find((t) => t.ticketTypeId === slot.ticketTypeId);
    const name = checkName(type?.askName ?? 'off', a?.fullName);
    const email = checkAttendeeEmail(type?.askEmail ?? 'off', a?.email);
    if (!name.ok) fields[`attendees.${i}.fullName`] = name.message;
    if (!email.ok) fields[`attendees.${i}.email`] = email.message;
    const qs = ticketQuestions(form.questions, slot.ticketTypeId);
    const theirs = a?.answers ?? {};
    for (const id of Object.keys(theirs)) if (!qs.some((q) => q.id === id)) fields[`attendees.${i}.answers.${id}`] = QM.unknownQuestion;
    const checked: CheckedAnswer[] = [];
    for (const q of qs) {
      const r = checkAnswer(q, theirs[q.id]);
      if (!r.ok) fields[`attendees.${i}.answers.${q.id}`] = r.message;
      else if (r.value !== null) checked.push({ questionId: q.id, label: q.label, kind: q.kind, value: r.value });
    }
    attendees.push({ ...slot, fullName: name.ok ? name.value : '', email: email.ok ? email.value : '', answers: checked });
  });
  if (Object.keys(fields).length) return { ok: false, fields };
  return { ok: true, value: { answers, attendees } };
}

/** The tickets a cart asks attendees for, type by type in the cart's order (core mergeCartLines): PLACE ORDER's and the checkout's. */
export function attendeeLines(merged: ReadonlyMap<string, number>): Array<{ ticketTypeId: string; quantity: number }> {
  return [...merged].map(([ticketTypeId, quantity]) => ({ ticketTypeId, quantity }));
}
