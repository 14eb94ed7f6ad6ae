import type { TCreateQuestionRequest, TOrderAnswersInput, TUpdateAttendeeSettingsRequest } from '@marquee/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTenantId } from '../../shared/tenant';
import { questionsApi } from './api';

export const questionKeys = {
  event: (tenantId: string, eventId: string) => ['questions', tenantId, eventId] as const,
  list: (tenantId: string, eventId: string) => ['questions', tenantId, eventId, 'list'] as const,
  settings: (tenantId: string, eventId: string) => ['questions', tenantId, eventId, 'settings'] as const,
  report: (tenantId: string, eventId: string) => ['questions', tenantId, eventId, 'report'] as const,
  order: (tenantId: string, eventId: string, orderUID: string) => ['questions', tenantId, eventId, 'order', orderUID] as const,
};

export function useQuestions(eventId: string) {
  const tenantId = useTenantId();
  return useQuery({ queryKey: questionKeys.list(tenantId, eventId), queryFn: ({ signal }) => questionsApi.list(tenantId, eventId, signal) });
}
export function useAttendeeSettings(eventId: string) {
  const tenantId = useTenantId();
  return useQuery({ queryKey: questionKeys.settings(tenantId, eventId), queryFn: ({ signal }) => questionsApi.settings(tenantId, eventId, signal) });
}
export function useAnswersReport(eventId: string) {
  const tenantId = useTenantId();
  return useQuery({ queryKey: questionKeys.report(tenantId, eventId), queryFn: ({ signal }) => questionsApi.report(tenantId, eventId, signal) });
}
export function useOrderAnswers(eventId: string, orderUID: string) {
  const tenantId = useTenantId();
  return useQuery({ queryKey: questionKeys.order(tenantId, eventId, orderUID), queryFn: ({ signal }) => questionsApi.orderAnswers(tenantId, eventId, orderUID, signal) });
}

function useRefresh(eventId: string) {
  const client = useQueryClient();
  const tenantId = useTenantId();
  return () => client.invalidateQueries({ queryKey: questionKeys.event(tenantId, eventId) });
}

export function useSaveQuestion(eventId: string) {
  const tenantId = useTenantId();
  const refresh = useRefresh(eventId);
  return useMutation({
    mutationFn: ({ id, details }: { id: string | null; details: TCreateQuestionRequest['details'] }) =>
      id ? questionsApi.update(tenantId, eventId, id, details) : questionsApi.create(tenantId, eventId, details),
    onSuccess: refresh,
  });
}
export function useRemoveQuestion(eventId: string) {
  const tenantId = useTenantId();
  const refresh = useRefresh(eventId);
  return useMutation({ mutationFn: (id: string) => questionsApi.remove(tenantId, eventId, id), onSuccess: refresh });
}
export function useReorderQuestions(eventId: string) {
  const tenantId = useTenantId();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => questionsApi.reorder(tenantId, eventId, ids),
    onSuccess: (list) => client.setQueryData(questionKeys.list(tenantId, eventId), list),
  });
}
export function useSaveAttendeeSettings(eventId: string) {
  const tenantId = useTenantId();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdateAttendeeSettingsRequest) => questionsApi.saveSettings(tenantId, eventId, body),
    onSuccess: (s) => client.setQueryData(questionKeys.settings(tenantId, eventId), s),
  });
}
export function useSaveOrderAnswers(eventId: string, orderUID: string) {
  const tenantId = useTenantId();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TOrderAnswersInput) => questionsApi.saveOrderAnswers(tenantId, eventId, orderUID, body),
    onSuccess: (a) => {
      client.setQueryData(questionKeys.order(tenantId, eventId, orderUID), a);
      void client.invalidateQueries({ queryKey: questionKeys.report(tenantId, eventId) });
    },
  });
}
