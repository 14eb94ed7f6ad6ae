import { z } from 'zod';
import { M } from '../messages.js';

// spec: accounts-admin-fees §3 (Ticket rule, Ticket settings), §5 (Surcharge rule, Settings), §9.
// Units (see docs/decisions.md): *Percent and taxRate, platformFee, processingFee are percentages
// (a number such as 2.9, at most 2 decimals); every other amount is integer cents.

export const PASS_ALONG_CHANNELS = ['ONLINE', 'BACKEND', 'APP'] as const;
export type SalesChannel = 'online' | 'backend' | 'app';
export const passAlongOption = (channel: (typeof PASS_ALONG_CHANNELS)[number], n: 1 | 2 | 3 | 4) =>
  `SERVICE_FEE_OPTION_${channel}_${n}` as const;
export const PASS_ALONG_DESCRIPTIONS: Record<1 | 2 | 3 | 4, string> = {
  1: 'The seller pays both service and card processing fees out of the ticket price.',
  2: 'The customer pays both service and card processing fees.',
  3: 'The customer pays the service fee only.',
  4: 'The customer pays the card processing fee only.',
};
/** 1..4 from a value such as SERVICE_FEE_OPTION_ONLINE_3; anything unknown is option 1 (§9 default). */
export function passAlongNumber(value: string | null | undefined): 1 | 2 | 3 | 4 {
  const n = Number(String(value ?? '').slice(-1));
  return n === 2 || n === 3 || n === 4 ? n : 1;
}

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

const passAlong = (channel: (typeof PASS_ALONG_CHANNELS)[number]) =>
  z.enum([1, 2, 3, 4].map((n) => `SERVICE_FEE_OPTION_${channel}_${n}`) as [string, ...string[]]);

export const ZTicketSettingsInput = z
  .object({
    isTenantSettingsControlEnabled: z.boolean().default(false),
    donationServiceFee: percent(M.serviceFeeRequired),
    donationCharge: cents(M.donationChargeRequired),
    // Required like the other amounts (spec §5 marks it *); the spec gives it no message of its own.
    roundUpServiceFeeValue: cents(M.fieldRequired).min(1, M.invalidValue).max(10_000, M.invalidValue),
    serviceFeePassAlongOptionOnline: passAlong('ONLINE').default('SERVICE_FEE_OPTION_ONLINE_1'),
    serviceFeePassAlongOptionBackend: passAlong('BACKEND').default('SERVICE_FEE_OPTION_BACKEND_1'),
    serviceFeePassAlongOptionApp: passAlong('APP').default('SERVICE_FEE_OPTION_APP_1'),
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
export type TTicketSettings = z.output<typeof ZTicketSettingsInput> & { defaultSurchargeRule: string | null };

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

/** spec §7: settings updates send either {defaultSurchargeRule} or the full settings. */
export const ZSetDefaultSurchargeRuleRequest = z.object({ defaultSurchargeRule: z.string({ error: M.invalidValue }).min(1, M.invalidValue).max(200) }).strict();
export type TTicketSettingsUpdateRequest =
  | z.input<typeof ZSetDefaultSurchargeRuleRequest>
  | (TTicketSettingsInput & { defaultSurchargeRule?: string });

/** Whether a settings update body is the make-default form rather than the full settings. */
export const isSetDefaultRequest = (body: unknown): body is { defaultSurchargeRule: string } =>
  !!body && typeof body === 'object' && Object.keys(body).length === 1 && 'defaultSurchargeRule' in body;
