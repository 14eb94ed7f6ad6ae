import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TWaitlistSettings } from '@marquee/core';
import { useTenantId } from '../../shared/tenant';
import { fetchWaitlist, offerToEntry, removeEntry, saveWaitlistSettings } from './api';

export const waitlistKey = (tenantId: string, eventId: string) => ['events', tenantId, eventId, 'waitlist'] as const;

export function useWaitlist(eventId: string) {
  const tenantId = useTenantId();
  return useQuery({ queryKey: waitlistKey(tenantId, eventId), queryFn: () => fetchWaitlist(tenantId, eventId) });
}

export function useWaitlistActions(eventId: string) {
  const tenantId = useTenantId();
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: waitlistKey(tenantId, eventId) });
  return {
    save: useMutation({
      mutationFn: (s: TWaitlistSettings) => saveWaitlistSettings(tenantId, eventId, s),
      onSuccess: (data) => client.setQueryData(waitlistKey(tenantId, eventId), data),
    }),
    offer: useMutation({ mutationFn: (entryId: string) => offerToEntry(tenantId, eventId, entryId), onSettled: refresh }),
    remove: useMutation({ mutationFn: (entryId: string) => removeEntry(tenantId, eventId, entryId), onSettled: refresh }),
  };
}
