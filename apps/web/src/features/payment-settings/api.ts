import type { TPaymentSettings, TPayoutUpdateRequest } from '@marquee/core';
import { api } from '../../ui/api-client';

export const paymentSettingsApi = {
  get: (tenantId: string, signal?: AbortSignal) =>
    api.get<TPaymentSettings>(`/api/tenants/${encodeURIComponent(tenantId)}/payment-settings`, undefined, signal),
  /** spec: accounts §7 POST /payment/payout-update. */
  update: (body: TPayoutUpdateRequest) =>
    api.post<{ success: true; message: string; settings: TPaymentSettings }>('/api/payment/payout-update', body),
};
