import type { TSurchargeRuleInput, TSurchargeRulePatch, TTicketSettingsUpdateRequest } from '@marquee/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { feesApi, type FeeScope } from './api';
import { feesKey, settingsKey } from './queries';

// Any rule change can move the default (defaultSurchargeRule lives in the settings): refresh both.
function useInvalidateFees(scope: FeeScope) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: feesKey(scope) });
}

export function useCreateRule(scope: FeeScope) {
  const done = useInvalidateFees(scope);
  return useMutation({ mutationFn: (input: TSurchargeRuleInput) => feesApi.createRule(scope, input), onSuccess: done });
}

export function useUpdateRule(scope: FeeScope) {
  const done = useInvalidateFees(scope);
  return useMutation({ mutationFn: ({ id, input }: { id: string; input: TSurchargeRuleInput }) => feesApi.updateRule(scope, id, input), onSuccess: done });
}

export function usePatchRule(scope: FeeScope) {
  const done = useInvalidateFees(scope);
  return useMutation({ mutationFn: ({ id, patch }: { id: string; patch: TSurchargeRulePatch }) => feesApi.patchRule(scope, id, patch), onSuccess: done });
}

export function useDeleteRule(scope: FeeScope) {
  const done = useInvalidateFees(scope);
  return useMutation({ mutationFn: (id: string) => feesApi.deleteRule(scope, id), onSuccess: done });
}

export function useUpdateSettings(scope: FeeScope) {
  const client = useQueryClient();
  const done = useInvalidateFees(scope);
  return useMutation({
    mutationFn: (body: TTicketSettingsUpdateRequest) => feesApi.updateSettings(scope, body),
    onSuccess: (saved) => {
      client.setQueryData(settingsKey(scope), saved.settings);
      return done();
    },
  });
}
