import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { paymentSettingsApi } from './api';

export const paymentSettingsKey = (tenantId: string) => ['payment-settings', tenantId] as const;

export function usePaymentSettings(tenantId: string) {
  return useQuery({ queryKey: paymentSettingsKey(tenantId), queryFn: ({ signal }) => paymentSettingsApi.get(tenantId, signal), retry: false });
}

export function useUpdatePaymentSettings(tenantId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: paymentSettingsApi.update,
    onSuccess: (saved) => client.setQueryData(paymentSettingsKey(tenantId), saved.settings),
  });
}
