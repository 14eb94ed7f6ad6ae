import type { TCharityFields } from '@marquee/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { eventKeys } from '../../shared/query-keys';
import { charitiesApi } from './api';
import { charityKeys } from './queries';

/** Every charity list (platform and tenants') and the events, whose charity a change may clear. */
function useRefresh() {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: charityKeys.all }), client.invalidateQueries({ queryKey: eventKeys.all })]);
}

export const useCreateCharity = () => useMutation({ mutationFn: (fields: TCharityFields) => charitiesApi.create(fields), onSuccess: useRefresh() });

export const useUpdateCharity = () =>
  useMutation({ mutationFn: ({ id, fields }: { id: string; fields: TCharityFields }) => charitiesApi.update(id, fields), onSuccess: useRefresh() });

export const useDeleteCharity = () => useMutation({ mutationFn: (id: string) => charitiesApi.remove(id), onSuccess: useRefresh() });

/** Enable (assign) or disable (unassign) a charity for the tenant. */
export const useToggleCharity = (tenantId: string) =>
  useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => (enabled ? charitiesApi.assign(id, tenantId) : charitiesApi.unassign(id, tenantId)),
    onSuccess: useRefresh(),
  });
