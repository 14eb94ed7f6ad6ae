import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PASS_ALONG_CHANNELS,
  ZTicketSettings,
  ZTicketSettingsInput,
  feeSettingsFromWire,
  feeSettingsToWire,
  parsePassAlongOption,
  passAlongOption,
  type FeeSettings,
  type PassAlongOption,
} from './fees.js';

const option = fc.constantFrom<PassAlongOption>(1, 2, 3, 4);
const bp = fc.integer({ min: 0, max: 10_000 });
const cents = fc.integer({ min: 0, max: 100_000_000 });

/** Settings the wire accepts (ZTicketSettingsInput's rules), in core's one type. */
const feeSettings: fc.Arbitrary<FeeSettings> = fc
  .record({
    defaultSurchargeRule: fc.option(fc.uuid()),
    isTenantSettingsControlEnabled: fc.boolean(),
    donationServiceFeeBp: bp,
    donationCharge: cents,
    roundUpServiceFeeValue: fc.integer({ min: 1, max: 10_000 }),
    passAlong: fc.record({ ONLINE: option, BACKEND: option, APP: option }),
    chargeTax: fc.boolean(),
    taxRateBp: fc.option(bp),
    chargeOnline: fc.boolean(),
    chargeOnlineValue: fc.option(cents),
    chargeCash: fc.boolean(),
    chargeCashValue: fc.option(cents),
    chargeBoxOffice: fc.boolean(),
    chargeBoxOfficeValue: cents,
    maximumComplimentaryTickets: fc.integer({ min: 1, max: 999_999 }),
    autoShowActiveTicketsAsSoldOut: fc.boolean(),
    platformFeeBp: bp,
    processingFeeBp: fc.integer({ min: 0, max: 5_000 }),
  })
  // The schema's own cross-field rules: a rate when tax is on, charges only with tax.
  .map((s) => ({
    ...s,
    taxRateBp: s.chargeTax ? (s.taxRateBp ?? 825) : s.taxRateBp,
    chargeCashValue: s.chargeTax && s.chargeCash ? (s.chargeCashValue ?? 100) : s.chargeCashValue,
    chargeOnline: s.chargeTax && s.chargeOnline,
    chargeCash: s.chargeTax && s.chargeCash,
    chargeBoxOffice: s.chargeTax && s.chargeBoxOffice,
  }));

describe('pass-along options (spec: accounts §9)', () => {
  it('are read only from the exact names the spec gives, for their own channel', () => {
    for (const channel of PASS_ALONG_CHANNELS) {
      for (const n of [1, 2, 3, 4] as const) expect(parsePassAlongOption(channel, passAlongOption(channel, n))).toBe(n);
    }
    // The old reading took the last character: these named options 3, 2 and 4.
    expect(parsePassAlongOption('ONLINE', 'SERVICE_FEE_OPTION_APP_3')).toBeNull();
    expect(parsePassAlongOption('ONLINE', 'SOMETHING_2')).toBeNull();
    expect(parsePassAlongOption('APP', 'service_fee_option_app_4')).toBeNull();
    expect(parsePassAlongOption('ONLINE', 'SERVICE_FEE_OPTION_ONLINE_5')).toBeNull();
    expect(parsePassAlongOption('ONLINE', undefined)).toBeNull();
  });
});

describe("the wire's settings and core's FeeSettings", () => {
  it('go one into the other and back unchanged: percent and option names on the wire, basis points and numbers inside', () => {
    fc.assert(
      fc.property(feeSettings, (settings) => {
        const wire = feeSettingsToWire(settings, 'owner');
        expect(ZTicketSettings.parse(wire)).toEqual(wire);
        const { ownerId, defaultSurchargeRule, ...input } = wire;
        expect(ownerId).toBe('owner');
        expect(feeSettingsFromWire(ZTicketSettingsInput.parse(input), defaultSurchargeRule)).toEqual(settings);
      }),
      { numRuns: 500 },
    );
  });

  it('shows the spec units on the wire', () => {
    const wire = feeSettingsToWire(
      {
        defaultSurchargeRule: 'r1',
        isTenantSettingsControlEnabled: false,
        donationServiceFeeBp: 2000,
        donationCharge: 25,
        roundUpServiceFeeValue: 1,
        passAlong: { ONLINE: 2, BACKEND: 1, APP: 4 },
        chargeTax: true,
        taxRateBp: 825,
        chargeOnline: false,
        chargeOnlineValue: null,
        chargeCash: false,
        chargeCashValue: null,
        chargeBoxOffice: false,
        chargeBoxOfficeValue: 0,
        maximumComplimentaryTickets: 99_999,
        autoShowActiveTicketsAsSoldOut: false,
        platformFeeBp: 150,
        processingFeeBp: 290,
      },
      'global',
    );
    expect(wire).toMatchObject({
      donationServiceFee: 20,
      taxRate: 8.25,
      platformFee: 1.5,
      processingFee: 2.9,
      serviceFeePassAlongOptionOnline: 'SERVICE_FEE_OPTION_ONLINE_2',
      serviceFeePassAlongOptionBackend: 'SERVICE_FEE_OPTION_BACKEND_1',
      serviceFeePassAlongOptionApp: 'SERVICE_FEE_OPTION_APP_4',
    });
  });
});
