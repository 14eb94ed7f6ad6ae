import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DONATION_PRESETS, MAX_DONATION_CENTS, donationProblem, parseDonationInput } from './donation.js';
import { M } from './messages.js';
import { formatMoney } from './money.js';
import { ZCheckoutContact, ZPriceRequest, zDonation } from './schemas/orders.js';

describe('donation amounts (docs/decisions.md "Donations at checkout")', () => {
  it('names its maximum in the message', () => {
    expect(M.donationMax).toContain(formatMoney(MAX_DONATION_CENTS));
    expect(DONATION_PRESETS.every((c) => donationProblem(c) === null)).toBe(true);
  });

  it.each([
    [0, null],
    [1, null],
    [1000, null],
    [MAX_DONATION_CENTS, null],
    [MAX_DONATION_CENTS + 1, M.donationMax],
    [-1, M.donationInvalid],
    [10.5, M.donationInvalid],
    ['1000', M.donationInvalid],
    [null, M.donationInvalid],
    [Number.NaN, M.donationInvalid],
    [Number.POSITIVE_INFINITY, M.donationInvalid],
  ])('donationProblem(%s) is %s', (cents, expected) => {
    expect(donationProblem(cents)).toBe(expected);
  });

  it('the wire schema agrees with donationProblem, with the same messages', () => {
    for (const value of [0, 1, 1000, MAX_DONATION_CENTS, MAX_DONATION_CENTS + 1, -1, 10.5, '1000', null, 1e308]) {
      const parsed = zDonation.safeParse(value);
      const problem = donationProblem(value);
      expect(parsed.success, String(value)).toBe(problem === null);
      if (!parsed.success) expect(parsed.error.issues[0]?.message, String(value)).toBe(problem);
    }
  });

  it('is optional in the price request and the order, 0 when absent', () => {
    const lines = [{ ticketTypeId: '8f7d1c2a-1111-4222-8333-944455556666', quantity: 1 }];
    expect(ZPriceRequest.parse({ lines }).donation).toBe(0);
    expect(ZPriceRequest.parse({ lines, donation: 1000 }).donation).toBe(1000);
    const contact = { email: 'a@b.test', firstName: 'A', lastName: 'B', address1: '1', address2: '2', city: 'Boston', state: 'MA', zipCode: '02129' };
    expect(ZCheckoutContact.parse(contact).donation).toBe(0);
    expect(ZCheckoutContact.parse({ ...contact, donation: 2500 }).donation).toBe(2500);
    expect(ZCheckoutContact.safeParse({ ...contact, donation: '25' }).error?.issues[0]).toMatchObject({ path: ['donation'], message: M.donationInvalid });
  });

  it.each([
    ['15', 1500],
    ['15.5', 1550],
    ['$15.50', 1550],
    [' 1,000 ', 100000],
    ['0.01', 1],
    ['10000', MAX_DONATION_CENTS],
  ])('reads the typed amount %j as %i cents', (text, cents) => {
    expect(parseDonationInput(text)).toEqual({ cents });
  });

  it.each([
    ['', M.donationAmount],
    ['abc', M.donationAmount],
    ['0', M.donationAmount],
    ['-5', M.donationAmount],
    ['15.555', M.donationAmount],
    ['1e3', M.donationAmount],
    ['10000.01', M.donationMax],
  ])('refuses the typed amount %j', (text, error) => {
    expect(parseDonationInput(text)).toEqual({ error });
  });

  it('reads back every amount it shows: parseDonationInput(formatMoney(c)) = c', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_DONATION_CENTS }), (c) => {
        expect(parseDonationInput(formatMoney(c))).toEqual({ cents: c });
        expect(parseDonationInput((c / 100).toFixed(2))).toEqual({ cents: c });
      }),
      { numRuns: 2000 },
    );
  });
});
