import type { TAttendeeAudienceRequest, TCreateAttendeeMessageRequest } from '@marquee/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTenantId } from '../../shared/tenant';
import { mailoutApi, type MessageListQuery } from './api';

export const mailoutKeys = {
  event: (tenantId: string, eventId: string) => ['attendee-messages', tenantId, eventId] as const,
  list: (tenantId: string, eventId: string, q: MessageListQuery) => ['attendee-messages', tenantId, eventId, 'list', q] as const,
  audience: (tenantId: string, eventId: string, a: TAttendeeAudienceRequest['details']) => ['attendee-messages', tenantId, eventId, 'audience', a] as const,
};

/** The history; while a message is queued or sending it is read again every two seconds (the progress). */
export function useAttendeeMessages(eventId: string, q: MessageListQuery) {
  const tenantId = useTenantId();
  return useQuery({
    queryKey: mailoutKeys.list(tenantId, eventId, q),
    queryFn: ({ signal }) => mailoutApi.list(tenantId, eventId, q, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.result.some((m) => m.details.status === 'queued' || m.details.status === 'sending') ? 2_000 : false),
  });
}

/** How many addresses the message would go to, for the recipients chosen (null: the choice is not complete yet). */
export function useAudience(eventId: string, a: TAttendeeAudienceRequest['details'] | null) {
  const tenantId = useTenantId();
  return useQuery({
    queryKey: mailoutKeys.audience(tenantId, eventId, a ?? { recipients: 'all' }),
    queryFn: () => mailoutApi.audience(tenantId, eventId, a!),
    enabled: a !== null,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

export function useSendAttendeeMessage(eventId: string) {
  const tenantId = useTenantId();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (details: TCreateAttendeeMessageRequest['details']) => mailoutApi.send(tenantId, eventId, details),
    onSuccess: () => client.invalidateQueries({ queryKey: mailoutKeys.event(tenantId, eventId) }),
  });
}
