import { z } from 'zod';
import { M } from '../messages.js';

// spec: accounts-admin-fees §3 (Ticket rule, Ticket settings), §5 (Surcharge rule, Settings), §9.
// Units (see docs/decisions.md): *Percent and taxRate, platformFee, processingFee are percentages
// (a number such as 2.9, at most 2 decimals); every other amount is integer cents.

export const PASS_ALONG_CHANNELS = ['ONLINE', 'BACKEND', 'APP'] as const;
export type PassAlongChannel = (typeof PASS_ALONG_CHANNELS)[number];
export type SalesChannel = 'online' | 'backend' | 'app';
/** Where an order was sold (orders.channel): the channels the pass-along option is set for. */
export type OrderChannel = PassAlongChannel;
export const PASS_ALONG_OPTIONS = [1, 2, 3, 4] as const;
/** spec: accounts §9: who pays the service fee and the card processing fee, per channel. */
export type PassAlongOption = (typeof PASS_ALONG_OPTIONS)[number];
/** spec: accounts §9: option 1 (the seller pays both) where none was chosen. */
export const DEFAULT_PASS_ALONG_OPTION: PassAlongOption = 1;
/** An option as the wire and the database name it: SERVICE_FEE_OPTION_ONLINE_3. */
export const passAlongOption = (channel: PassAlongChannel, n: PassAlongOption) => `SERVICE_FEE_OPTION_${channel}_${n}` as const;
const OPTION_BY_VALUE: Record<PassAlongChannel, ReadonlyMap<unknown, PassAlongOption>> = {
  ONLINE: new Map(PASS_ALONG_OPTIONS.map((n) => [passAlongOption('ONLINE', n), n])),
  BACKEND: new Map(PASS_ALONG_OPTIONS.map((n) => [passAlongOption('BACKEND', n), n])),
  APP: new Map(PASS_ALONG_OPTIONS.map((n) => [passAlongOption('APP', n), n])),
};
/** The option a value such as SERVICE_FEE_OPTION_ONLINE_3 names for that channel; null for any other value. */
export function parsePassAlongOption(channel: PassAlongChannel, value: unknown): PassAlongOption | null {
  return OPTION_BY_VALUE[channel].get(value) ?? null;
}
export const PASS_ALONG_DESCRIPTIONS: Record<PassAlongOption, string> = {
  1: 'The seller pays both service and card processing fees out of the ticket price.',
  2: 'The customer pays both service and card processing fees.',
  3: 'The customer pays the service fee only.',
  4: 'The customer pays the card processing fee only.',
};
/** The wire field (spec §5 Settings) that carries each channel's option. */
export const PASS_ALONG_FIELDS = {
  ONLINE: 'serviceFeePassAlongOptionOnline',
  BACKEND: 'serviceFeePassAlongOptionBackend',
  APP: 'serviceFeePassAlongOptionApp',
} as const satisfies Record<PassAlongChannel, string>;

export const DEFAULT_SURCHARGE_RULE_ID = 'global_surcharge_1';
export const COMPLIMENTARY_UNLIMITED = 999999;
export const COMPLIMENTARY_NEW_TENANT = 99999;

const percent = (required: string) =>
  z
    .number({ error: required })
    .min(0, M.invalidValue)
    .max(100, M.invalidValue)
    .refine((v) => Math.round(v * 100) === v * 100 || Math.abs(Math.round(v * 100) - v * 100) < 1e-9, M.invalidValue);
const cents = (required: string) => z.number({ error: required }).int(M.invalidValue).min(0, M.invalidValue).max(100_000_000, M.invalidValue);

export const ZSurchargeRuleInput = z.object({
  name: z
    .string({ error: M.ruleNameRequired })
    .min(1, M.ruleNameRequired)
    .max(100, M.ruleNameRequired)
    .refine((v) => v.trim().length > 0, M.ruleNameRequired)
    .refine((v) => v === v.trim(), M.ruleNameTrailing),
  serviceFeePercent: percent(M.serviceFeeRequired),
  serviceFeeFlatRate: cents(M.serviceFeeRequired),
  serviceFeePOSPercent: percent(M.serviceFeeRequired),
  serviceFeePOSFlatRate: cents(M.serviceFeeRequired),
  active: z.boolean().default(true),
  default: z.boolean().default(false),
});
export type TSurchargeRuleInput = z.input<typeof ZSurchargeRuleInput>;

export const ZSurchargeRule = z.object({
  id: z.string(),
  name: z.string(),
  serviceFeePercent: z.number(),
  serviceFeeFlatRate: z.number().int(),
  serviceFeePOSPercent: z.number(),
  serviceFeePOSFlatRate: z.number().int(),
  default: z.boolean(),
  active: z.boolean(),
  ownerId: z.string(),
});
export type TSurchargeRule = z.infer<typeof ZSurchargeRule>;

const passAlong = (channel: PassAlongChannel) => z.enum(PASS_ALONG_OPTIONS.map((n) => passAlongOption(channel, n)) as [string, ...string[]]);

export const ZTicketSettingsInput = z
  .object({
    isTenantSettingsControlEnabled: z.boolean().default(false),
    donationServiceFee: percent(M.serviceFeeRequired),
    donationCharge: cents(M.donationChargeRequired),
    // Required like the other amounts (spec §5 marks it *); the spec gives it no message of its own.
    roundUpServiceFeeValue: cents(M.fieldRequired).min(1, M.invalidValue).max(10_000, M.invalidValue),
    serviceFeePassAlongOptionOnline: passAlong('ONLINE').default(passAlongOption('ONLINE', DEFAULT_PASS_ALONG_OPTION)),
    serviceFeePassAlongOptionBackend: passAlong('BACKEND').default(passAlongOption('BACKEND', DEFAULT_PASS_ALONG_OPTION)),
    serviceFeePassAlongOptionApp: passAlong('APP').default(passAlongOption('APP', DEFAULT_PASS_ALONG_OPTION)),
    chargeTax: z.boolean().default(false),
    taxRate: percent(M.taxRateRequired).nullable().optional(),
    chargeOnline: z.boolean().default(false),
    chargeOnlineValue: cents(M.invalidValue).nullable().optional(),
    chargeCash: z.boolean().default(false),
    chargeCashValue: cents(M.chargeCashRequired).nullable().optional(),
    chargeBoxOffice: z.boolean().default(false),
    chargeBoxOfficeValue: cents(M.chargeBoxOfficeRequired),
    maximumComplimentaryTickets: z.number({ error: M.complimentaryLimited }).int(M.complimentaryLimited).min(1, M.complimentaryLimited).max(COMPLIMENTARY_UNLIMITED, M.complimentaryLimited),
    autoShowActiveTicketsAsSoldOut: z.boolean().default(false),
    platformFee: percent(M.platformFeeRequired),
    // Above 50% the customer-paid gross-up cannot cover itself (docs/pricing.md); the engine refuses it too.
    processingFee: percent(M.processingFeeRequired).max(50, M.invalidValue),
  })
  .superRefine(
    (v, ctx) => {
      if (v.chargeTax === true && (v.taxRate === null || v.taxRate === undefined))
        ctx.addIssue({ code: 'custom', path: ['taxRate'], message: M.taxRateRequired });
      if (v.chargeTax === true && v.chargeCash === true && (v.chargeCashValue === null || v.chargeCashValue === undefined))
        ctx.addIssue({ code: 'custom', path: ['chargeCashValue'], message: M.chargeCashRequired });
      if (v.chargeTax === false && (v.chargeOnline === true || v.chargeCash === true || v.chargeBoxOffice === true))
        ctx.addIssue({ code: 'custom', path: ['chargeTax'], message: M.invalidValue });
    },
    // zod 4 skips an object's refinements once any field has an issue: an empty Box Office amount
    // would then hide 'Tax rate is required.' and 'Charge Cash Order is required.', and the form
    // (which re-checks one field at a time) would enable Save. Run them whenever the body is an object.
    { when: ({ value }) => typeof value === 'object' && value !== null },
  );
export type TTicketSettingsInput = z.input<typeof ZTicketSettingsInput>;

// ---- the one fee-settings type -------------------------------------------------------------

/**
 * A tenant's fee settings (or the global template's), as the server stores them and the pricing
 * engine reads them: rates in integer basis points (2.9% = 290), amounts in integer cents, one
 * pass-along option per channel. The wire keeps the spec's shape (rates in percent, options as
 * SERVICE_FEE_OPTION_<CHANNEL>_<n>: ZTicketSettings, ZTicketSettingsInput); feeSettingsToWire and
 * feeSettingsFromWire are the only conversions, and the server's repository maps its rows to this.
 */
export type FeeSettings = {
  defaultSurchargeRule: string | null;
  isTenantSettingsControlEnabled: boolean;
  donationServiceFeeBp: number;
  donationCharge: number;
  roundUpServiceFeeValue: number;
  passAlong: Record<PassAlongChannel, PassAlongOption>;
  chargeTax: boolean;
  taxRateBp: number | null;
  chargeOnline: boolean;
  chargeOnlineValue: number | null;
  chargeCash: boolean;
  chargeCashValue: number | null;
  chargeBoxOffice: boolean;
  chargeBoxOfficeValue: number;
  maximumComplimentaryTickets: number;
  autoShowActiveTicketsAsSoldOut: boolean;
  platformFeeBp: number;
  processingFeeBp: number;
};

/** A percentage with at most 2 decimals (2.9) as integer basis points (290), and back. */
export const percentToBp = (percent: number) => Math.round(percent * 100);
export const bpToPercent = (bp: number) => bp / 100;

// ---- API contracts of the fees screens (accounts §7 Fees and settings) ----------------------

/** Owner id of the platform-wide (global) rules and settings; a tenant's are owned by its id. */
export const GLOBAL_OWNER_ID = 'global';

/** PUT .../rule/:id sends the whole rule (ZSurchargeRuleInput); PATCH any subset, e.g. {active}. */
export const ZSurchargeRulePatch = z
  .object({
    name: ZSurchargeRuleInput.shape.name,
    serviceFeePercent: ZSurchargeRuleInput.shape.serviceFeePercent,
    serviceFeeFlatRate: ZSurchargeRuleInput.shape.serviceFeeFlatRate,
    serviceFeePOSPercent: ZSurchargeRuleInput.shape.serviceFeePOSPercent,
    serviceFeePOSFlatRate: ZSurchargeRuleInput.shape.serviceFeePOSFlatRate,
    active: z.boolean(),
    default: z.boolean(),
  })
  .partial();
export type TSurchargeRulePatch = z.input<typeof ZSurchargeRulePatch>;

/** spec §7: the created-rule response carries data.rule.id; updates answer the same shape. */
export const ZSurchargeRuleResponse = z.object({ data: z.object({ rule: ZSurchargeRule }) });
export type TSurchargeRuleResponse = z.infer<typeof ZSurchargeRuleResponse>;

/** spec §3: lists wrap each rule as an owner id plus the rule. */
export const ZSurchargeRuleListItem = z.object({ ownerId: z.string(), rule: ZSurchargeRule });
export const ZSurchargeRuleList = z.object({ result: z.array(ZSurchargeRuleListItem), count: z.number().int(), cursor: z.string().nullable() });
export type TSurchargeRuleList = z.infer<typeof ZSurchargeRuleList>;

/** The stored settings, global or a tenant's, as read by the screens (and the pricing engine). */
export const ZTicketSettings = z.object({
  ownerId: z.string(),
  defaultSurchargeRule: z.string().nullable(),
  isTenantSettingsControlEnabled: z.boolean(),
  donationServiceFee: z.number(),
  donationCharge: z.number().int(),
  roundUpServiceFeeValue: z.number().int(),
  serviceFeePassAlongOptionOnline: z.string(),
  serviceFeePassAlongOptionBackend: z.string(),
  serviceFeePassAlongOptionApp: z.string(),
  chargeTax: z.boolean(),
  taxRate: z.number().nullable(),
  chargeOnline: z.boolean(),
  chargeOnlineValue: z.number().int().nullable(),
  chargeCash: z.boolean(),
  chargeCashValue: z.number().int().nullable(),
  chargeBoxOffice: z.boolean(),
  chargeBoxOfficeValue: z.number().int(),
  maximumComplimentaryTickets: z.number().int(),
  autoShowActiveTicketsAsSoldOut: z.boolean(),
  platformFee: z.number(),
  processingFee: z.number(),
});
export type TTicketSettingsResource = z.infer<typeof ZTicketSettings>;

/** The settings as the spec's wire shows them (GET and PUT .../setting). */
export function feeSettingsToWire(s: FeeSettings, ownerId: string): TTicketSettingsResource {
  return {
    ownerId,
    defaultSurchargeRule: s.defaultSurchargeRule,
    isTenantSettingsControlEnabled: s.isTenantSettingsControlEnabled,
    donationServiceFee: bpToPercent(s.donationServiceFeeBp),
    donationCharge: s.donationCharge,
    roundUpServiceFeeValue: s.roundUpServiceFeeValue,
    [PASS_ALONG_FIELDS.ONLINE]: passAlongOption('ONLINE', s.passAlong.ONLINE),
    [PASS_ALONG_FIELDS.BACKEND]: passAlongOption('BACKEND', s.passAlong.BACKEND),
    [PASS_ALONG_FIELDS.APP]: passAlongOption('APP', s.passAlong.APP),
    chargeTax: s.chargeTax,
    taxRate: s.taxRateBp === null ? null : bpToPercent(s.taxRateBp),
    chargeOnline: s.chargeOnline,
    chargeOnlineValue: s.chargeOnlineValue,
    chargeCash: s.chargeCash,
    chargeCashValue: s.chargeCashValue,
    chargeBoxOffice: s.chargeBoxOffice,
    chargeBoxOfficeValue: s.chargeBoxOfficeValue,
    maximumComplimentaryTickets: s.maximumComplimentaryTickets,
    autoShowActiveTicketsAsSoldOut: s.autoShowActiveTicketsAsSoldOut,
    platformFee: bpToPercent(s.platformFeeBp),
    processingFee: bpToPercent(s.processingFeeBp),
  };
}

/** Settings sent on the wire (already parsed by ZTicketSettingsInput), with the default rule they keep. */
export function feeSettingsFromWire(input: z.output<typeof ZTicketSettingsInput>, defaultSurchargeRule: string | null): FeeSettings {
  const option = (channel: PassAlongChannel) => parsePassAlongOption(channel, input[PASS_ALONG_FIELDS[channel]]) ?? DEFAULT_PASS_ALONG_OPTION;
  return {
    defaultSurchargeRule,
    isTenantSettingsControlEnabled: input.isTenantSettingsControlEnabled,
    donationServiceFeeBp: percentToBp(input.donationServiceFee),
    donationCharge: input.donationCharge,
    roundUpServiceFeeValue: input.roundUpServiceFeeValue,
    passAlong: { ONLINE: option('ONLINE'), BACKEND: option('BACKEND'), APP: option('APP') },
    chargeTax: input.chargeTax,
    taxRateBp: input.taxRate === null || input.taxRate === undefined ? null : percentToBp(input.taxRate),
    chargeOnline: input.chargeOnline,
    chargeOnlineValue: input.chargeOnlineValue ?? null,
    chargeCash: input.chargeCash,
    chargeCashValue: input.chargeCashValue ?? null,
    chargeBoxOffice: input.chargeBoxOffice,
    chargeBoxOfficeValue: input.chargeBoxOfficeValue,
    maximumComplimentaryTickets: input.maximumComplimentaryTickets,
    autoShowActiveTicketsAsSoldOut: input.autoShowActiveTicketsAsSoldOut,
    platformFeeBp: percentToBp(input.platformFee),
    processingFeeBp: percentToBp(input.processingFee),
  };
}

/**
 * Each field of the settings form, by the unit the wire gives it: the web's form derives its values
 * and conversions from this (dollars for cents, the percentage as typed), so a new field of
 * ZTicketSettingsInput must be listed here to compile.
 */
export const TICKET_SETTINGS_UNITS = {
  isTenantSettingsControlEnabled: 'flag',
  donationServiceFee: 'percent',
  donationCharge: 'cents',
  roundUpServiceFeeValue: 'cents',
  serviceFeePassAlongOptionOnline: 'option',
  serviceFeePassAlongOptionBackend: 'option',
  serviceFeePassAlongOptionApp: 'option',
  chargeTax: 'flag',
  taxRate: 'percent',
  chargeOnline: 'flag',
  chargeOnlineValue: 'cents',
  chargeCash: 'flag',
  chargeCashValue: 'cents',
  chargeBoxOffice: 'flag',
  chargeBoxOfficeValue: 'cents',
  maximumComplimentaryTickets: 'count',
  autoShowActiveTicketsAsSoldOut: 'flag',
  platformFee: 'percent',
  processingFee: 'percent',
} as const satisfies { [K in keyof TTicketSettingsInput]-?: 'flag' | 'percent' | 'cents' | 'count' | 'option' };

// The resource is the input's fields plus its owner and default rule: a field added to one and not
// the other fails to compile here.
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : never;
const _resourceMatchesInput: SameKeys<Omit<TTicketSettingsResource, 'ownerId' | 'defaultSurchargeRule'>, Required<TTicketSettingsInput>> = true;
void _resourceMatchesInput;

/** spec §7: settings updates send either {defaultSurchargeRule} or the full settings. */
export const ZSetDefaultSurchargeRuleRequest = z.object({ defaultSurchargeRule: z.string({ error: M.invalidValue }).min(1, M.invalidValue).max(200) }).strict();
export type TTicketSettingsUpdateRequest =
  | z.input<typeof ZSetDefaultSurchargeRuleRequest>
  | (TTicketSettingsInput & { defaultSurchargeRule?: string });

/** Whether a settings update body is the make-default form rather than the full settings. */
export const isSetDefaultRequest = (body: unknown): body is { defaultSurchargeRule: string } =>
  !!body && typeof body === 'object' && Object.keys(body).length === 1 && 'defaultSurchargeRule' in body;
