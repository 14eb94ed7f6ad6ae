import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { paymentSettingsApi } from './api';

export const paymentSettingsKey = (tenantId: string) => ['payment-settings', tenantId] as const;
export const paymentAccountKey = (tenantId: string) => ['payment-account', tenantId] as const;

export function usePaymentSettings(tenantId: string) {
  return useQuery({ queryKey: paymentSettingsKey(tenantId), queryFn: ({ signal }) => paymentSettingsApi.get(tenantId, signal), retry: false });
}

export function useUpdatePaymentSettings(tenantId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: paymentSettingsApi.update,
    onSuccess: (saved) => {
      client.setQueryData(paymentSettingsKey(tenantId), saved.settings);
      // A payment.id entered by hand changes where payouts go.
      void client.invalidateQueries({ queryKey: paymentAccountKey(tenantId) });
    },
  });
}

export function usePaymentAccount(tenantId: string) {
  return useQuery({ queryKey: paymentAccountKey(tenantId), queryFn: ({ signal }) => paymentSettingsApi.account(tenantId, signal), retry: false });
}

/** Asks the gateway how far the account got; a connected account also changes the settings' payment.id. */
export function useRefreshPaymentAccount(tenantId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => paymentSettingsApi.refreshAccount(tenantId),
    onSuccess: (account) => {
      client.setQueryData(paymentAccountKey(tenantId), account);
      void client.invalidateQueries({ queryKey: paymentSettingsKey(tenantId) });
    },
  });
}

export function useStartOnboarding(tenantId: string) {
  return useMutation({ mutationFn: () => paymentSettingsApi.startOnboarding(tenantId) });
}
