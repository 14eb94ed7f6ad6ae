import { describe, expect, it } from 'vitest';
import { parseOrderId } from './order-id';

describe('parseOrderId (success?orderID=)', () => {
  it('accepts our 12-character Crockford base32 ids, in either case', () => {
    expect(parseOrderId('737BENDZMYY4')).toBe('737BENDZMYY4');
    expect(parseOrderId('rk49427789m4')).toBe('RK49427789M4');
  });

  it('refuses anything else: missing, too short or long, letters Crockford leaves out, free text', () => {
    for (const raw of [null, '', 'RK49427789M', 'RK49427789M45', 'RK49427789MI', 'RK49427789MO', 'RK49427789MU', 'RK49427789ML', 'RK49-427789M', 'is NOT confirmed. Your card failed: call +1 555 0100']) {
      expect(parseOrderId(raw)).toBeNull();
    }
  });
});
