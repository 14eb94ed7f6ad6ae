import { z } from 'zod';

// A tenant's connected account for payouts (issue 21.18; docs/payouts.md "Connecting a tenant's
// account"): made and onboarded through the payment gateway, Stripe Connect Express with the stripe
// driver or the test gateway's own stand-in, so an operator connects a tenant with a link instead
// of copying an account id by hand. Beyond the spec (accounts §2 screen 16 shows the payment account).

/** The server's payment driver (PAYMENT_DRIVER). */
export const PAYMENT_DRIVERS = ['test', 'stripe'] as const;
export type PaymentDriver = (typeof PAYMENT_DRIVERS)[number];

/** What a person sees as the card processor of each driver. */
export const PAYMENT_DRIVER_LABELS: Record<PaymentDriver, string> = { test: 'Marquee test gateway', stripe: 'Stripe' };

/**
 * Where the tenant's payouts stand: no account; an account whose holder has not finished the form;
 * a finished form the gateway is still checking (payouts not enabled yet); connected (payouts
 * enabled, the payout destination); or an account id entered by hand that no onboarding here made.
 */
export const CONNECT_STATES = ['not_connected', 'incomplete', 'pending', 'connected', 'manual'] as const;
export type ConnectState = (typeof CONNECT_STATES)[number];

export const CONNECT_STATE_LABELS: Record<ConnectState, string> = {
  not_connected: 'Not connected',
  incomplete: 'Onboarding not finished',
  pending: 'Waiting for verification',
  connected: 'Connected',
  manual: 'Entered by hand',
};

export function connectState(a: { accountId: string | null; destination: string | null; detailsSubmitted: boolean; payoutsEnabled: boolean }): ConnectState {
  if (!a.accountId) return a.destination ? 'manual' : 'not_connected';
  if (!a.detailsSubmitted) return 'incomplete';
  if (!a.payoutsEnabled) return 'pending';
  return 'connected';
}

export const ZPaymentAccount = z.object({
  tenantId: z.string(),
  /** The driver this server runs, and whether it moves real money. */
  driver: z.enum(PAYMENT_DRIVERS),
  testMode: z.boolean(),
  /** The account onboarding made for the tenant with this driver, else null. */
  accountId: z.string().nullable(),
  /** Where payouts go now: the payment settings' payment.id (else gateway.customerId), else null. */
  destination: z.string().nullable(),
  state: z.enum(CONNECT_STATES),
  detailsSubmitted: z.boolean(),
  payoutsEnabled: z.boolean(),
  /** When the gateway was last asked about the account. */
  checkedAt: z.string().nullable(),
});
export type TPaymentAccount = z.infer<typeof ZPaymentAccount>;

/** A single-use onboarding link (Stripe Account Link): open it at once, it expires within minutes. */
export const ZOnboardingLink = z.object({ url: z.string(), expiresAt: z.string() });
export type TOnboardingLink = z.infer<typeof ZOnboardingLink>;

const t = (tenantId: string) => `/api/tenants/${encodeURIComponent(tenantId)}/payment-account`;
export const PAYMENT_ACCOUNT_PATHS = {
  account: t,
  onboarding: (tenantId: string) => `${t(tenantId)}/onboarding`,
  refresh: (tenantId: string) => `${t(tenantId)}/refresh`,
} as const;

/** The console page onboarding returns to (return_url and refresh_url carry ?connect=return|refresh). */
export const paymentSettingsPagePath = (tenantId: string) => `/tenant/${encodeURIComponent(tenantId)}/payment-settings`;
