import {
  TICKET_SETTINGS_UNITS,
  ZTicketSettingsInput,
  type TSurchargeRule,
  type TSurchargeRuleInput,
  type TTicketSettingsInput,
  type TTicketSettingsResource,
} from '@marquee/core';

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
//
// Derived from the wire schema (core's ZTicketSettingsInput and the unit of each of its fields,
// TICKET_SETTINGS_UNITS): amounts in cents are typed in dollars, percentages and counts as they
// are, and an empty number is '' while typed; nothing here lists the fields again.

type SettingsField = keyof typeof TICKET_SETTINGS_UNITS;
type FormValue<Unit> = Unit extends 'flag' ? boolean : Unit extends 'option' ? string : NumberField;
export type SettingsValues = { [K in SettingsField]: FormValue<(typeof TICKET_SETTINGS_UNITS)[K]> };

const SETTINGS_FIELDS = Object.keys(TICKET_SETTINGS_UNITS) as SettingsField[];
/** Fields the schema takes as null when empty (the tax rate, the optional charges); the rest are required. */
const NULLABLE = new Set(SETTINGS_FIELDS.filter((field) => ZTicketSettingsInput.shape[field].safeParse(null).success));

export function settingsToValues(s: TTicketSettingsResource): SettingsValues {
  const values: Record<string, unknown> = {};
  for (const field of SETTINGS_FIELDS) {
    const unit = TICKET_SETTINGS_UNITS[field];
    const value = s[field];
    values[field] = unit === 'cents' ? centsToDollars(value as number | null) : unit === 'percent' || unit === 'count' ? (value ?? '') : value;
  }
  return values as SettingsValues;
}

/** The form as ZTicketSettingsInput reads it (and as PUT .../setting takes it); missing numbers stay undefined so zod says "required". */
export function settingsValuesToInput(v: SettingsValues): TTicketSettingsInput {
  const input: Record<string, unknown> = {};
  for (const field of SETTINGS_FIELDS) {
    const unit = TICKET_SETTINGS_UNITS[field];
    const value = v[field];
    if (unit === 'flag' || unit === 'option') input[field] = value;
    else {
      const number = unit === 'cents' ? dollarsToCents(value as NumberField) : toNumber(value as NumberField);
      input[field] = number === undefined && NULLABLE.has(field) ? null : number;
    }
  }
  return input as TTicketSettingsInput;
}
