import { z } from 'zod';
import { M } from '../messages.js';

// spec: accounts-admin-fees §3 Tenant setup, §4 Payment account, §7 POST /payment/payout-update,
// §8 Payment, §9 New tenant defaults.

export const PAYMENT_ACCOUNT_TYPES = ['tenant', 'platform'] as const;
export type PaymentAccountType = (typeof PAYMENT_ACCOUNT_TYPES)[number];

export const PAYOUT_TYPES = ['end_of_event', 'weekly', 'daily', 'monthly'] as const;
export type PayoutType = (typeof PAYOUT_TYPES)[number];

/** The card payment provider (spec §9: "payment processor type is the card payment provider"). */
export const CARD_PAYMENT_PROVIDER = 'stripe';

/** spec §4: the tenant's own account pays out automatically; the platform account does not. */
export const payoutAutomaticFor = (type: PaymentAccountType) => type === 'tenant';

export const ZPaymentSettings = z.object({
  tenantId: z.string(),
  payout: z.object({
    /** Read-only: follows payment.type. */
    automatic: z.boolean(),
    date: z.string().nullable(),
    type: z.enum(PAYOUT_TYPES),
    tag: z.string().nullable(),
    /** The platform-fee-deduction flag. */
    chargeSurchargeFeesToPlatform: z.boolean(),
  }),
  payment: z.object({
    processorType: z.string(),
    /** The tenant's account at the card provider (e.g. a connected account id), when it has one. */
    profileId: z.string().nullable(),
    direct: z.boolean(),
    type: z.enum(PAYMENT_ACCOUNT_TYPES),
    tag: z.string().nullable(),
    id: z.string().nullable(),
  }),
  /** Read-only: the round-up and pass-along options of the tenant's ticket settings. */
  fees: z.object({
    serviceFeeRoundUp: z.number().int(),
    serviceFeeOnlineSales: z.string(),
    serviceFeeBackendSales: z.string(),
    serviceFeeAppSales: z.string(),
  }),
  gateway: z.object({ provider: z.string(), customerId: z.string().nullable(), test: z.boolean() }),
});
export type TPaymentSettings = z.infer<typeof ZPaymentSettings>;

const optionalText = z.string().trim().max(200).nullable().optional();

/**
 * POST /api/payment/payout-update. payout.automatic, payment.processorType and unknown keys are
 * accepted and ignored: the server sets them.
 */
export const ZPayoutUpdateRequest = z.object({
  tenantId: z.string({ error: M.tenantIdRequired }).trim().min(1, M.tenantIdRequired).max(100, M.tenantIdRequired),
  payment: z.object(
    {
      type: z.enum(PAYMENT_ACCOUNT_TYPES, { error: M.invalidValue }),
      profileId: optionalText,
      direct: z.boolean().optional(),
      tag: optionalText,
      id: optionalText,
      processorType: z.string().optional(),
    },
    { error: M.inputValidationError },
  ),
  payout: z
    .object({
      automatic: z.boolean().optional(),
      date: optionalText,
      type: z.enum(PAYOUT_TYPES, { error: M.invalidValue }).optional(),
      tag: optionalText,
      chargeSurchargeFeesToPlatform: z.boolean().optional(),
    })
    .default({}),
});
export type TPayoutUpdateRequest = z.input<typeof ZPayoutUpdateRequest>;
