import { describe, expect, it } from 'vitest';
import { maskPhone, phoneForCheck, phoneForWire } from './phone-mask';

describe('maskPhone (spec §5 +1 (###) ### ####)', () => {
  it('formats as far as the digits go', () => {
    expect(maskPhone('')).toBe('');
    expect(maskPhone('6')).toBe('+1 (6');
    expect(maskPhone('617')).toBe('+1 (617');
    expect(maskPhone('6175')).toBe('+1 (617) 5');
    expect(maskPhone('617555')).toBe('+1 (617) 555');
    expect(maskPhone('6175550')).toBe('+1 (617) 555 0');
    expect(maskPhone('6175550123')).toBe('+1 (617) 555 0123');
  });

  it('keeps the +1 prefix it wrote and ignores digits past ten', () => {
    expect(maskPhone('+1 (617) 555 01234')).toBe('+1 (617) 555 0123');
    expect(maskPhone('+1 (617) 555 0123')).toBe('+1 (617) 555 0123');
    expect(maskPhone('1-617-555-0123')).toBe('+1 (617) 555 0123');
  });

  it('lets the field be emptied: the bare prefix is no number', () => {
    expect(maskPhone('+1 (')).toBe('');
    expect(maskPhone('+1 ')).toBe('');
  });

  it('deleting the last digit of a group does not get stuck on punctuation', () => {
    expect(maskPhone('+1 (617) ')).toBe('+1 (617');
    expect(maskPhone('+1 (617) 555 ')).toBe('+1 (617) 555');
  });

  it('sends digits with a plus prefix, or nothing while incomplete', () => {
    expect(phoneForWire('+1 (617) 555 0123')).toBe('+16175550123');
    expect(phoneForWire('+1 (617) 555')).toBeNull();
    expect(phoneForWire('')).toBeNull();
  });

  it('checks what it would send: an incomplete number keeps its digits, so the schema can call it incomplete', () => {
    expect(phoneForCheck('+1 (617) 555 0123')).toBe('+16175550123');
    expect(phoneForCheck('+1 (617) 555')).toBe('+1617555');
    expect(phoneForCheck('')).toBeNull();
  });
});
