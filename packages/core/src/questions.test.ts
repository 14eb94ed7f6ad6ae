import { describe, expect, it } from 'vitest';
import { answerText, checkAnswer, checkOrderAnswers, QM } from './attendee-answers.js';
import { zOrderAnswersFor, type TAttendeeForm } from './schemas/questions.js';

const T1 = '00000000-0000-4000-8000-000000000001';
const T2 = '00000000-0000-4000-8000-000000000002';
const Q = (id: number) => `10000000-0000-4000-8000-00000000000${id}`;
const form: TAttendeeForm = {
  questions: [
    { id: Q(1), label: 'Diet', kind: 'singleChoice', helpText: '', required: true, scope: 'ticket', options: ['None', 'Vegan'], ticketTypeIds: [] },
    { id: Q(2), label: 'Company', kind: 'shortText', helpText: '', required: false, scope: 'order', options: [], ticketTypeIds: [] },
    { id: Q(3), label: 'Workshops', kind: 'multipleChoice', helpText: '', required: false, scope: 'ticket', options: ['A', 'B', 'C'], ticketTypeIds: [T2] },
    { id: Q(4), label: 'I agree', kind: 'checkbox', helpText: '', required: true, scope: 'order', options: [], ticketTypeIds: [T2] },
  ],
  ticketTypes: [
    { ticketTypeId: T1, askName: 'required', askEmail: 'optional' },
    { ticketTypeId: T2, askName: 'off', askEmail: 'off' },
  ],
};

describe('answers', () => {
  it('checks each kind with the field’s own message', () => {
    const q = (kind: string, extra = {}) => ({ id: Q(9), label: 'Field', kind, required: true, options: ['x', 'y'], ...extra }) as Parameters<typeof checkAnswer>[0];
    expect(checkAnswer(q('shortText'), '')).toEqual({ ok: false, message: QM.required('Field') });
    expect(checkAnswer(q('shortText'), 'a'.repeat(201))).toEqual({ ok: false, message: QM.tooLong('Field', 200) });
    expect(checkAnswer(q('shortText'), 5)).toEqual({ ok: false, message: QM.notText('Field') });
    expect(checkAnswer(q('singleChoice'), 'z')).toEqual({ ok: false, message: QM.notChoice('Field') });
    expect(checkAnswer(q('multipleChoice'), ['y', 'x'])).toEqual({ ok: true, value: ['x', 'y'] });
    expect(checkAnswer(q('multipleChoice'), ['x', 'x']).ok).toBe(false);
    expect(checkAnswer(q('number'), '12.5')).toEqual({ ok: true, value: 12.5 });
    expect(checkAnswer(q('number'), 'twelve').ok).toBe(false);
    expect(checkAnswer(q('date'), '2026-02-30').ok).toBe(false);
    expect(checkAnswer(q('date'), '2026-02-28')).toEqual({ ok: true, value: '2026-02-28' });
    expect(checkAnswer(q('phone'), '(555) 123 4567')).toEqual({ ok: true, value: '+15551234567' });
    expect(checkAnswer(q('checkbox'), false)).toEqual({ ok: false, message: QM.consentRequired('Field') });
    expect(checkAnswer(q('checkbox', { required: false }), undefined)).toEqual({ ok: true, value: false });
    expect(answerText('multipleChoice', ['a', 'b'])).toBe('a; b');
    expect(answerText('checkbox', true)).toBe('Yes');
  });

  it('asks per ticket and per order, only for the chosen ticket types', () => {
    const lines = [{ ticketTypeId: T1, quantity: 2 }];
    const r = checkOrderAnswers(form, lines, { attendees: [{ ticketTypeId: T1, fullName: 'Ann', answers: { [Q(1)]: 'Vegan' } }, { ticketTypeId: T1 }] });
    expect(r).toEqual({
      ok: false,
      fields: { 'attendees.1.fullName': QM.nameRequired, [`attendees.1.answers.${Q(1)}`]: QM.required('Diet') },
    });
    // The consent and the workshops are asked only with a T2 ticket in the cart.
    const bad = checkOrderAnswers(form, lines, { answers: { [Q(4)]: true } });
    expect(bad.ok === false && bad.fields[`answers.${Q(4)}`]).toBe(QM.unknownQuestion);
    const withT2 = checkOrderAnswers(form, [...lines, { ticketTypeId: T2, quantity: 1 }], {
      answers: { [Q(2)]: ' Acme ' },
      attendees: [
        { ticketTypeId: T1, fullName: 'Ann', email: 'ANN@x.org', answers: { [Q(1)]: 'None' } },
        { ticketTypeId: T1, fullName: 'Bob', answers: { [Q(1)]: 'Vegan' } },
        { ticketTypeId: T2, answers: { [Q(1)]: 'None', [Q(3)]: ['C', 'A'] } },
      ],
    });
    expect(withT2.ok === false && withT2.fields).toEqual({ [`answers.${Q(4)}`]: QM.consentRequired('I agree') });
    const schema = zOrderAnswersFor(form, [...lines, { ticketTypeId: T2, quantity: 1 }]);
    const ok = schema.parse({
      answers: { [Q(2)]: ' Acme ', [Q(4)]: true },
      attendees: [
        { ticketTypeId: T1, fullName: 'Ann', email: 'ANN@x.org', answers: { [Q(1)]: 'None' } },
        { ticketTypeId: T1, fullName: 'Bob', answers: { [Q(1)]: 'Vegan' } },
        { ticketTypeId: T2, answers: { [Q(1)]: 'None', [Q(3)]: ['C', 'A'] } },
      ],
    });
    expect(ok.answers.map((a) => a.value)).toEqual(['Acme', true]);
    expect(ok.attendees.map((a) => [a.position, a.fullName, a.email])).toEqual([
      [0, 'Ann', 'ann@x.org'],
      [1, 'Bob', ''],
      [0, '', ''],
    ]);
    expect(ok.attendees[2]!.answers.find((a) => a.questionId === Q(3))!.value).toEqual(['A', 'C']);
    // Attendees out of the cart's order are refused.
    expect(checkOrderAnswers(form, lines, { attendees: [{ ticketTypeId: T2 }] }).ok).toBe(false);
  });
});
