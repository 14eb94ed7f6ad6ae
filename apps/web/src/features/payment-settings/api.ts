import { PAYMENT_ACCOUNT_PATHS, type TOnboardingLink, type TPaymentAccount, type TPaymentSettings, type TPayoutUpdateRequest } from '@marquee/core';
import { api } from '../../ui/api-client';

export const paymentSettingsApi = {
  get: (tenantId: string, signal?: AbortSignal) =>
    api.get<TPaymentSettings>(`/api/tenants/${encodeURIComponent(tenantId)}/payment-settings`, undefined, signal),
  /** spec: accounts §7 POST /payment/payout-update. */
  update: (body: TPayoutUpdateRequest) =>
    api.post<{ success: true; message: string; settings: TPaymentSettings }>('/api/payment/payout-update', body),
  /** The tenant's connected payout account and the server's card processor (issue 21.18). */
  account: (tenantId: string, signal?: AbortSignal) => api.get<TPaymentAccount>(PAYMENT_ACCOUNT_PATHS.account(tenantId), undefined, signal),
  startOnboarding: (tenantId: string) => api.post<TOnboardingLink>(PAYMENT_ACCOUNT_PATHS.onboarding(tenantId), {}),
  refreshAccount: (tenantId: string) => api.post<TPaymentAccount>(PAYMENT_ACCOUNT_PATHS.refresh(tenantId), {}),
};
