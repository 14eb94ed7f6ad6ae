import { ZTicketSettingsInput, type TTicketSettingsResource } from '@marquee/core';
import { describe, expect, it } from 'vitest';
import { settingsToValues, settingsValuesToInput } from './form-values';

const saved: TTicketSettingsResource = {
  ownerId: 'global',
  defaultSurchargeRule: 'global_surcharge_1',
  isTenantSettingsControlEnabled: false,
  donationServiceFee: 20,
  donationCharge: 25,
  roundUpServiceFeeValue: 1,
  serviceFeePassAlongOptionOnline: 'SERVICE_FEE_OPTION_ONLINE_2',
  serviceFeePassAlongOptionBackend: 'SERVICE_FEE_OPTION_BACKEND_1',
  serviceFeePassAlongOptionApp: 'SERVICE_FEE_OPTION_APP_4',
  chargeTax: true,
  taxRate: 8.25,
  chargeOnline: true,
  chargeOnlineValue: 150,
  chargeCash: false,
  chargeCashValue: null,
  chargeBoxOffice: false,
  chargeBoxOfficeValue: 0,
  maximumComplimentaryTickets: 999999,
  autoShowActiveTicketsAsSoldOut: true,
  platformFee: 1.5,
  processingFee: 2.9,
};

describe('the fee settings form, derived from the wire schema', () => {
  it('shows cents as dollars and percentages as typed, and sends back what it was given', () => {
    const values = settingsToValues(saved);
    expect(values).toMatchObject({ donationCharge: 0.25, chargeOnlineValue: 1.5, chargeCashValue: '', taxRate: 8.25, processingFee: 2.9 });
    const { ownerId: _o, defaultSurchargeRule: _d, ...input } = saved;
    expect(settingsValuesToInput(values)).toEqual(input);
    expect(ZTicketSettingsInput.safeParse(settingsValuesToInput(values)).success).toBe(true);
  });

  it('sends an emptied optional amount as null and an emptied required one as missing, so the schema names it', () => {
    const input = settingsValuesToInput({ ...settingsToValues(saved), chargeOnlineValue: '', taxRate: '', processingFee: '', donationCharge: '' });
    expect(input).toMatchObject({ chargeOnlineValue: null, taxRate: null, processingFee: undefined, donationCharge: undefined });
    const result = ZTicketSettingsInput.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(expect.arrayContaining(['processingFee', 'donationCharge', 'taxRate']));
  });
});
