import { describe, expect, it } from 'vitest';
import { formatLongDate, refundStatusLabel, ticketStatusLabel, yesNo } from './format';
import { nextSearchValue, usedFilterValue } from './search-rules';

describe('report search (spec §5)', () => {
  it('clears on empty input, does nothing at 1 or 2 characters, applies from 3', () => {
    expect(nextSearchValue('')).toBe('');
    expect(nextSearchValue('   ')).toBe('');
    expect(nextSearchValue('a')).toBeNull();
    expect(nextSearchValue('ab')).toBeNull();
    expect(nextSearchValue('abc')).toBe('abc');
    expect(nextSearchValue('  Ann Lee ')).toBe('Ann Lee');
  });

  it('lowercases payment methods and turns the first space of a refund status into an underscore', () => {
    expect(nextSearchValue('CARD', 'lower')).toBe('card');
    expect(nextSearchValue('Partially Refunded Now', 'refundStatus')).toBe('partially_refunded now');
  });

  it('reads Ticket Used as yes/true and no/false from 2 characters', () => {
    expect(nextSearchValue('', 'used')).toBe('');
    expect(nextSearchValue('n', 'used')).toBeNull();
    expect(nextSearchValue('no', 'used')).toBe('false');
    expect(nextSearchValue('Yes', 'used')).toBe('true');
    expect(nextSearchValue('TRUE', 'used')).toBe('true');
    expect(nextSearchValue('false', 'used')).toBe('false');
    expect(nextSearchValue('maybe', 'used')).toBeNull();
  });

  it('filters Ticket Used only when exactly one box is ticked', () => {
    expect(usedFilterValue(true, false)).toBe('true');
    expect(usedFilterValue(false, true)).toBe('false');
    expect(usedFilterValue(true, true)).toBeNull();
    expect(usedFilterValue(false, false)).toBeNull();
  });
});

describe('report display (spec §4, §9)', () => {
  it('formats a refund status without the hash part, underscores as spaces, words capitalised', () => {
    expect(refundStatusLabel('partially_refunded#re_123')).toBe('Partially Refunded');
    expect(refundStatusLabel('succeeded')).toBe('Succeeded');
  });

  it('shows refund dates as MMMM DD, YYYY', () => {
    expect(formatLongDate(new Date(2026, 2, 5, 12))).toBe('March 05, 2026');
    expect(formatLongDate('not a date')).toBe('');
  });

  it('shows Yes/No and Vioded/Active', () => {
    expect(yesNo(true)).toBe('Yes');
    expect(yesNo(false)).toBe('No');
    expect(ticketStatusLabel(true)).toBe('Vioded');
    expect(ticketStatusLabel(false)).toBe('Active');
  });
});
