import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64UrlDecode, base64UrlEncode, parseTicketCode, ticketCodePayload } from './checkin.js';

const EVENT = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const SIG = base64UrlEncode(Uint8Array.from({ length: 64 }, (_, i) => i * 3));

describe('ticket codes (MQ1)', () => {
  it('base64url round-trips any bytes, without padding, as Node spells it', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = base64UrlEncode(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64url'));
        expect(base64UrlDecode(text)).toEqual(bytes);
      }),
    );
  });

  it('refuses text that is not canonical base64url', () => {
    expect(base64UrlDecode('a')).toBeNull();
    expect(base64UrlDecode('ab+c')).toBeNull();
    expect(base64UrlDecode('ab=c')).toBeNull();
    // 'AB' carries 12 bits for one byte: the 4 left over must be zero.
    expect(base64UrlDecode('AB')).toBeNull();
    expect(base64UrlDecode('AA')).toEqual(new Uint8Array([0]));
    // Outside ASCII, nothing is base64url: not a character whose code is an alphabet's plus 128 ('Á', 'ø'), nor past one byte.
    expect(base64UrlDecode('AÁ')).toBeNull();
    expect(base64UrlDecode('AAø')).toBeNull();
    expect(base64UrlDecode('AA\u0141A')).toBeNull();
    expect(base64UrlDecode('A\u{1F600}')).toBeNull();
    expect(base64UrlDecode('A\u0000')).toBeNull();
  });

  it('parses MQ1.<eventId>.<ticketUid>.<sig> into its parts and what the signature covers', () => {
    const parsed = parseTicketCode(`MQ1.${EVENT}.ABCDEFGHIJKLMNOPQRSTUVWXYZ.${SIG}`);
    expect(parsed).toMatchObject({ eventId: EVENT, ticketUid: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', signed: ticketCodePayload(EVENT, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') });
    expect(parsed!.signed).toBe(`MQ1.${EVENT}.ABCDEFGHIJKLMNOPQRSTUVWXYZ`);
    expect(parsed!.signature).toHaveLength(64);
  });

  it('reads anything else as no code at all', () => {
    for (const code of [
      '',
      'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
      'https://example.test/ticket',
      `MQ2.${EVENT}.ABC.${SIG}`,
      `MQ1.${EVENT.toUpperCase()}.ABC.${SIG}`,
      `MQ1.not-a-uuid.ABC.${SIG}`,
      `MQ1.${EVENT}.A B.${SIG}`,
      `MQ1.${EVENT}.ABC.${SIG.slice(1)}`,
      `MQ1.${EVENT}.ABC.${SIG}=`,
      `MQ1.${EVENT}.ABC.${SIG}.x`,
      `MQ1.${EVENT}..${SIG}`,
    ]) {
      expect(parseTicketCode(code), code).toBeNull();
    }
  });
});
