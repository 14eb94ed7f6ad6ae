import { base64UrlEncode, ticketCodePayload, type TCheckinTicket } from '@marquee/core';
import { describe, expect, it } from 'vitest';
import { admitLocally, countTickets } from './local-admission';

const EVENT = '11111111-2222-4333-8444-555555555555';
const OTHER = '99999999-2222-4333-8444-555555555555';
const codeFor = (eventId: string, uid: string) => `${ticketCodePayload(eventId, uid)}.${base64UrlEncode(new Uint8Array(64).fill(7))}`;

function ticket(uid: string, state: TCheckinTicket['state'], type = 'GA'): TCheckinTicket {
  return { id: `id-${uid}`, ticketUid: uid, orderId: 'ORDER1', fullName: `Guest ${uid}`, email: 'g@example.test', ticketTypeId: type, ticketTypeName: type, state, usedAt: state === 'used' ? '2031-10-03T19:00:00.000Z' : null, usedBy: state === 'used' ? { deviceId: 'Door 2 · ab12', name: 'Sam' } : null };
}

const tickets = [ticket('AAAA', 'valid'), ticket('BBBB', 'used'), ticket('CCCC', 'voided', 'VIP'), ticket('DDDD', 'refunded', 'VIP')];
const base = { eventId: EVENT, tickets, clientScanId: 'c1', deviceId: 'Door 1 · 0000', scannerName: 'Dora Door', now: new Date('2031-10-03T20:00:00Z') };

describe('admitLocally', () => {
  it('admits a valid ticket once and says who admitted it: the person signed in, on this device (not the device as the person)', () => {
    const { answer, admitted } = admitLocally({ ...base, input: { code: codeFor(EVENT, 'AAAA') }, signatureValid: true });
    expect(answer.result).toBe('admitted');
    expect(admitted).toMatchObject({ state: 'used', usedAt: '2031-10-03T20:00:00.000Z', usedBy: { deviceId: 'Door 1 · 0000', name: 'Dora Door' } });
  });

  it('refuses a used ticket with when and where it was used', () => {
    const { answer, admitted } = admitLocally({ ...base, input: { code: codeFor(EVENT, 'BBBB') }, signatureValid: true });
    expect(answer).toMatchObject({ result: 'already_used', previous: { usedAt: '2031-10-03T19:00:00.000Z', deviceId: 'Door 2 · ab12', name: 'Sam' } });
    expect(admitted).toBeNull();
  });

  it.each([
    ['a bad signature', { code: codeFor(EVENT, 'AAAA') }, false, 'forged'],
    ['text that is not a code', { code: 'AAAA' }, true, 'forged'],
    ['another event', { code: codeFor(OTHER, 'AAAA') }, true, 'other_event'],
    ['a uid not in the list', { code: codeFor(EVENT, 'ZZZZ') }, true, 'unknown'],
    ['a voided ticket', { code: codeFor(EVENT, 'CCCC') }, true, 'voided'],
    ['a refunded ticket', { ticketId: 'dddd' }, true, 'refunded'],
  ] as const)('refuses %s', (_label, input, signatureValid, result) => {
    const { answer, admitted } = admitLocally({ ...base, input, signatureValid });
    expect(answer.result).toBe(result);
    expect(admitted).toBeNull();
  });

  it('refuses a transferred ticket\'s old code, or its old Ticket ID typed in, as transferred once the manifest lists it (issue 24)', () => {
    const revoked = [{ ticketUid: 'EEEE', reason: 'transferred' as const, at: '2031-10-01T12:00:00.000Z' }];
    for (const input of [{ code: codeFor(EVENT, 'EEEE') }, { ticketId: 'eeee' }]) {
      const { answer, admitted } = admitLocally({ ...base, revoked, input, signatureValid: true });
      expect(answer).toMatchObject({ result: 'transferred', ticket: null });
      expect(admitted).toBeNull();
    }
    // A forged code stays forged, and other tickets are untouched.
    expect(admitLocally({ ...base, revoked, input: { code: codeFor(EVENT, 'EEEE') }, signatureValid: false }).answer.result).toBe('forged');
    expect(admitLocally({ ...base, revoked, input: { code: codeFor(EVENT, 'AAAA') }, signatureValid: true }).answer.result).toBe('admitted');
  });

  it('checks in by the typed ticket id or uuid, whatever the case', () => {
    expect(admitLocally({ ...base, input: { ticketId: 'aaaa' }, signatureValid: false }).answer.result).toBe('admitted');
    expect(admitLocally({ ...base, input: { ticketId: 'id-AAAA' }, signatureValid: false }).answer.result).toBe('admitted');
  });
});

describe('countTickets', () => {
  it('counts sold as neither voided nor refunded, per type', () => {
    expect(countTickets(tickets)).toEqual({ sold: 2, checkedIn: 1, byType: [{ ticketTypeId: 'GA', name: 'GA', sold: 2, checkedIn: 1 }] });
  });
});
