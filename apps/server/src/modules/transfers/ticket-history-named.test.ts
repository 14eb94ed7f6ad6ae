import { describe, expect, it } from 'vitest';
import { named } from './ticket-history.js';

// A box-office sale may carry no e-mail (or no name at all): the history never shows "Cash Buyer ()".
describe('how a ticket history names a person', () => {
  it('a name with its e-mail, either alone, or says neither was given', () => {
    expect(named('Ada Lovelace', 'ada@example.com')).toBe('Ada Lovelace (ada@example.com)');
    expect(named('Cash Buyer', '')).toBe('Cash Buyer');
    expect(named('Cash Buyer', null)).toBe('Cash Buyer');
    expect(named('', 'ada@example.com')).toBe('ada@example.com');
    expect(named('', '')).toBe('a buyer who gave no name');
  });
});
