import { PASS_ALONG_CHANNELS, passAlongOption, type FeeSettings, type PassAlongOption } from '@marquee/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feeSettingsColumns, toFeeSettings, type SettingsColumns } from './repository.js';

// The one mapper between the settings' columns and core's FeeSettings (issue 22).

const option = fc.constantFrom<PassAlongOption>(1, 2, 3, 4);
const bp = fc.integer({ min: 0, max: 10_000 });
const cents = fc.integer({ min: 0, max: 100_000_000 });

const settings: fc.Arbitrary<FeeSettings> = fc.record({
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
});

describe('the fee settings mapper (columns <-> FeeSettings)', () => {
  it('round-trips every setting unchanged', () => {
    fc.assert(
      fc.property(settings, (s) => {
        expect(toFeeSettings(feeSettingsColumns(s))).toEqual(s);
      }),
      { numRuns: 500 },
    );
  });

  it('stores each option under the name the spec gives it, and reads the columns back to the same row', () => {
    fc.assert(
      fc.property(settings, (s) => {
        const columns = feeSettingsColumns(s);
        for (const channel of PASS_ALONG_CHANNELS) {
          const column = `serviceFeePassAlongOption${channel === 'ONLINE' ? 'Online' : channel === 'BACKEND' ? 'Backend' : 'App'}` as const;
          expect(columns[column]).toBe(passAlongOption(channel, s.passAlong[channel]));
        }
        expect(feeSettingsColumns(toFeeSettings(columns))).toEqual(columns);
      }),
      { numRuns: 200 },
    );
  });

  it('reads a stored option the spec does not name as option 1, never by its last character', () => {
    const columns: SettingsColumns = {
      ...feeSettingsColumns(fc.sample(settings, { numRuns: 1, seed: 22 })[0]!),
      serviceFeePassAlongOptionOnline: 'SERVICE_FEE_OPTION_APP_3',
      serviceFeePassAlongOptionBackend: 'LEGACY_4',
      serviceFeePassAlongOptionApp: 'SERVICE_FEE_OPTION_APP_2',
    };
    expect(toFeeSettings(columns).passAlong).toEqual({ ONLINE: 1, BACKEND: 1, APP: 2 });
  });
});
