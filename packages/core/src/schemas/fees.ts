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
    roundUpServiceFeeValue: z.number().int().min(1, M.invalidValue).max(10_000, M.invalidValue).default(1),
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
  .superRefine((v, ctx) => {
    if (v.chargeTax && (v.taxRate === null || v.taxRate === undefined))
      ctx.addIssue({ code: 'custom', path: ['taxRate'], message: M.taxRateRequired });
    if (v.chargeTax && v.chargeCash && (v.chargeCashValue === null || v.chargeCashValue === undefined))
      ctx.addIssue({ code: 'custom', path: ['chargeCashValue'], message: M.chargeCashRequired });
    if (!v.chargeTax && (v.chargeOnline || v.chargeCash || v.chargeBoxOffice))
      ctx.addIssue({ code: 'custom', path: ['chargeTax'], message: M.invalidValue });
  });
export type TTicketSettingsInput = z.input<typeof ZTicketSettingsInput>;
export type TTicketSettings = z.output<typeof ZTicketSettingsInput> & { defaultSurchargeRule: string | null };
