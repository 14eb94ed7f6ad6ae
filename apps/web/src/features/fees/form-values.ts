import type { TSurchargeRule, TSurchargeRuleInput, TTicketSettingsInput, TTicketSettingsResource } from '@marquee/core';

// The forms show dollars and percentages; the API takes integer cents and percentages
// (architecture rule 4: money is formatted only at the edge).

export type NumberField = number | '';

export const centsToDollars = (cents: number | null | undefined): NumberField => (cents === null || cents === undefined ? '' : cents / 100);

/** Dollars typed in a form as integer cents; '' (nothing typed) as undefined. */
export function dollarsToCents(value: NumberField | string): number | undefined {
  if (value === '' || value === null || value === undefined) return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? Math.round(n * 100) : undefined;
}

export const toNumber = (value: NumberField | string): number | undefined => {
  if (value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : undefined;
};

// ---- surcharge rule ---------------------------------------------------------------------------

export type RuleValues = {
  name: string;
  serviceFeePercent: NumberField;
  serviceFeeFlatRate: NumberField;
  serviceFeePOSPercent: NumberField;
  serviceFeePOSFlatRate: NumberField;
  active: boolean;
  default: boolean;
};

export const EMPTY_RULE: RuleValues = {
  name: '',
  serviceFeePercent: '',
  serviceFeeFlatRate: '',
  serviceFeePOSPercent: '',
  serviceFeePOSFlatRate: '',
  active: true,
  default: false,
};

export const ruleToValues = (r: TSurchargeRule): RuleValues => ({
  name: r.name,
  serviceFeePercent: r.serviceFeePercent,
  serviceFeeFlatRate: centsToDollars(r.serviceFeeFlatRate),
  serviceFeePOSPercent: r.serviceFeePOSPercent,
  serviceFeePOSFlatRate: centsToDollars(r.serviceFeePOSFlatRate),
  active: r.active,
  default: r.default,
});

/** The form as ZSurchargeRuleInput reads it; missing numbers stay undefined so zod says "required". */
export const ruleValuesToInput = (v: RuleValues) =>
  ({
    name: v.name,
    serviceFeePercent: toNumber(v.serviceFeePercent),
    serviceFeeFlatRate: dollarsToCents(v.serviceFeeFlatRate),
    serviceFeePOSPercent: toNumber(v.serviceFeePOSPercent),
    serviceFeePOSFlatRate: dollarsToCents(v.serviceFeePOSFlatRate),
    active: v.active,
    default: v.default,
  }) as TSurchargeRuleInput;

// ---- ticket settings --------------------------------------------------------------------------

export type SettingsValues = {
  isTenantSettingsControlEnabled: boolean;
  donationServiceFee: NumberField;
  donationCharge: NumberField;
  roundUpServiceFeeValue: NumberField;
  serviceFeePassAlongOptionOnline: string;
  serviceFeePassAlongOptionBackend: string;
  serviceFeePassAlongOptionApp: string;
  chargeTax: boolean;
  taxRate: NumberField;
  chargeOnline: boolean;
  chargeOnlineValue: NumberField;
  chargeCash: boolean;
  chargeCashValue: NumberField;
  chargeBoxOffice: boolean;
  chargeBoxOfficeValue: NumberField;
  maximumComplimentaryTickets: NumberField;
  autoShowActiveTicketsAsSoldOut: boolean;
  platformFee: NumberField;
  processingFee: NumberField;
};

export const settingsToValues = (s: TTicketSettingsResource): SettingsValues => ({
  isTenantSettingsControlEnabled: s.isTenantSettingsControlEnabled,
  donationServiceFee: s.donationServiceFee,
  donationCharge: centsToDollars(s.donationCharge),
  roundUpServiceFeeValue: centsToDollars(s.roundUpServiceFeeValue),
  serviceFeePassAlongOptionOnline: s.serviceFeePassAlongOptionOnline,
  serviceFeePassAlongOptionBackend: s.serviceFeePassAlongOptionBackend,
  serviceFeePassAlongOptionApp: s.serviceFeePassAlongOptionApp,
  chargeTax: s.chargeTax,
  taxRate: s.taxRate ?? '',
  chargeOnline: s.chargeOnline,
  chargeOnlineValue: centsToDollars(s.chargeOnlineValue),
  chargeCash: s.chargeCash,
  chargeCashValue: centsToDollars(s.chargeCashValue),
  chargeBoxOffice: s.chargeBoxOffice,
  chargeBoxOfficeValue: centsToDollars(s.chargeBoxOfficeValue),
  maximumComplimentaryTickets: s.maximumComplimentaryTickets,
  autoShowActiveTicketsAsSoldOut: s.autoShowActiveTicketsAsSoldOut,
  platformFee: s.platformFee,
  processingFee: s.processingFee,
});

/** The form as ZTicketSettingsInput reads it (and as PUT .../setting takes it). */
export const settingsValuesToInput = (v: SettingsValues) =>
  ({
    isTenantSettingsControlEnabled: v.isTenantSettingsControlEnabled,
    donationServiceFee: toNumber(v.donationServiceFee),
    donationCharge: dollarsToCents(v.donationCharge),
    roundUpServiceFeeValue: dollarsToCents(v.roundUpServiceFeeValue),
    serviceFeePassAlongOptionOnline: v.serviceFeePassAlongOptionOnline,
    serviceFeePassAlongOptionBackend: v.serviceFeePassAlongOptionBackend,
    serviceFeePassAlongOptionApp: v.serviceFeePassAlongOptionApp,
    chargeTax: v.chargeTax,
    taxRate: toNumber(v.taxRate) ?? null,
    chargeOnline: v.chargeOnline,
    chargeOnlineValue: dollarsToCents(v.chargeOnlineValue) ?? null,
    chargeCash: v.chargeCash,
    chargeCashValue: dollarsToCents(v.chargeCashValue) ?? null,
    chargeBoxOffice: v.chargeBoxOffice,
    chargeBoxOfficeValue: dollarsToCents(v.chargeBoxOfficeValue),
    maximumComplimentaryTickets: toNumber(v.maximumComplimentaryTickets),
    autoShowActiveTicketsAsSoldOut: v.autoShowActiveTicketsAsSoldOut,
    platformFee: toNumber(v.platformFee),
    processingFee: toNumber(v.processingFee),
  }) as TTicketSettingsInput;
