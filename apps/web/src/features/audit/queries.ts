import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditApi, type AuditFilters, type AuditOwner } from './api';

export const auditKeys = {
  list: (owner: AuditOwner, q: { cursor?: string; limit: number; filters: AuditFilters }) => ['audit-log', owner ?? 'platform', q] as const,
};

export function useAuditLog(owner: AuditOwner, q: { cursor?: string; limit: number; filters: AuditFilters }) {
  return useQuery({ queryKey: auditKeys.list(owner, q), queryFn: ({ signal }) => auditApi.list(owner, q, signal), placeholderData: keepPreviousData, staleTime: 5_000 });
}
