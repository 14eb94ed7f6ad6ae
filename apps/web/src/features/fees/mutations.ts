import type { TSurchargeRuleInput, TSurchargeRulePatch, TTicketSettingsUpdateRequest } from '@marquee/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { domainCodeOf } from '../../ui/api-client';
import { paymentSettingsKey } from '../payment-settings/queries';
import { feesApi, type FeeScope } from './api';
import { feesKey, settingsKey } from './queries';

// Any rule change can move the default (defaultSurchargeRule lives in the settings): refresh both.
// FEES_LOCKED: the right to write has gone since the page was read (spec §6: the platform switched
// 'Allow Tenant to Edit Fees Settings' off): re-read the settings so the page turns read-only.
function useFeesRefresh(scope: FeeScope) {
  const client = useQueryClient();
  const done = () => client.invalidateQueries({ queryKey: feesKey(scope) });
  const refused = (e: unknown) => {
    if (domainCodeOf(e) === 'FEES_LOCKED') void done();
  };
  return { done, refused };
}

export function useCreateRule(scope: FeeScope) {
  const { done, refused } = useFeesRefresh(scope);
  return useMutation({ mutationFn: (input: TSurchargeRuleInput) => feesApi.createRule(scope, input), onSuccess: done, onError: refused });
}

export function useUpdateRule(scope: FeeScope) {
  const { done, refused } = useFeesRefresh(scope);
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: TSurchargeRuleInput }) => feesApi.updateRule(scope, id, input),
    onSuccess: done,
    onError: refused,
  });
}

export function usePatchRule(scope: FeeScope) {
  const { done, refused } = useFeesRefresh(scope);
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: TSurchargeRulePatch }) => feesApi.patchRule(scope, id, patch),
    onSuccess: done,
    onError: refused,
  });
}

export function useDeleteRule(scope: FeeScope) {
  const { done, refused } = useFeesRefresh(scope);
  return useMutation({ mutationFn: (id: string) => feesApi.deleteRule(scope, id), onSuccess: done, onError: refused });
}

export function useUpdateSettings(scope: FeeScope) {
  const client = useQueryClient();
  const { done, refused } = useFeesRefresh(scope);
  return useMutation({
    mutationFn: (body: TTicketSettingsUpdateRequest) => feesApi.updateSettings(scope, body),
    onSuccess: (saved) => {
      client.setQueryData(settingsKey(scope), saved.settings);
      // The Payment/Payouts tab shows the round-up and pass-along options read-only from these settings.
      const payment = scope.kind === 'tenant' ? client.invalidateQueries({ queryKey: paymentSettingsKey(scope.tenantId) }) : undefined;
      return Promise.all([done(), payment]);
    },
    onError: refused,
  });
}
