import type { TAttendeeForm } from '@marquee/core';

// Issue 24: what the buyer types for the attendees and the organiser's questions, shaped as PLACE
// ORDER's `answers` and `attendees` (one attendee per ticket, type by type in the cart's order).
// Type-only imports: the checkout's first load carries none of the form (it loads with the questions).

export type AnswerInput = string | string[] | boolean | null;
export type AttendeeValues = {
  answers: Record<string, AnswerInput>;
  attendees: Array<{ ticketTypeId: string; fullName: string; email: string; answers: Record<string, AnswerInput> }>;
};
/** Field errors named as the server names them: `answers.<id>`, `attendees.<i>.fullName`, `attendees.<i>.answers.<id>`. */
export type AttendeeErrors = Record<string, string>;

/** Keeps what was typed when the cart's tickets change: an attendee per ticket, in the cart's order. */
export function fitAttendees(values: AttendeeValues, lines: ReadonlyArray<{ ticketTypeId: string; quantity: number }>): AttendeeValues {
  const pool = new Map<string, AttendeeValues['attendees']>();
  for (const a of values.attendees) pool.set(a.ticketTypeId, [...(pool.get(a.ticketTypeId) ?? []), a]);
  const attendees = lines.flatMap((l) =>
    Array.from({ length: l.quantity }, (_, i) => pool.get(l.ticketTypeId)?.[i] ?? { ticketTypeId: l.ticketTypeId, fullName: '', email: '', answers: {} }),
  );
  return { answers: values.answers, attendees };
}

/** Whether the form asks this cart anything (the form's chunk is loaded only then). */
export function formAsks(form: TAttendeeForm | null, typeIds: readonly string[]): boolean {
  if (!form) return false;
  const applies = (ids: readonly string[]) => ids.length === 0 || ids.some((id) => typeIds.includes(id));
  return (
    form.ticketTypes.some((t) => typeIds.includes(t.ticketTypeId) && (t.askName !== 'off' || t.askEmail !== 'off')) ||
    form.questions.some((q) => applies(q.ticketTypeIds))
  );
}

/** The values as sent: attendees only where something is asked of them (their order kept). */
export function toRequest(values: AttendeeValues) {
  return {
    answers: Object.fromEntries(Object.entries(values.answers).filter(([, v]) => v !== null && v !== '')),
    attendees: values.attendees.map((a) => ({
      ticketTypeId: a.ticketTypeId,
      fullName: a.fullName || undefined,
      email: a.email || undefined,
      answers: Object.fromEntries(Object.entries(a.answers).filter(([, v]) => v !== null && v !== '')),
    })),
  };
}

/** The cart's tickets type by type, as core's mergeCartLines and attendeeLines give them to PLACE ORDER. */
export function attendeeLinesOf(lines: ReadonlyArray<{ ticketTypeId: string; quantity: number }>): Array<{ ticketTypeId: string; quantity: number }> {
  const merged = new Map<string, number>();
  for (const l of lines) if (l.quantity > 0) merged.set(l.ticketTypeId, (merged.get(l.ticketTypeId) ?? 0) + l.quantity);
  return [...merged].map(([ticketTypeId, quantity]) => ({ ticketTypeId, quantity }));
}
