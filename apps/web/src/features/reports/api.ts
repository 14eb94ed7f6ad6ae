import {
  encodeFilters,
  REPORT_PATHS,
  type TEvent,
  type TExportStatus,
  type TReportDashboard,
  type TSalesOverTime,
  type TTenantList,
  type TTicketTypeSalesList,
} from '@marquee/core';
import { api } from '../../ui/api-client';

export const reportsApi = {
  /** spec §7: the event basics, for its name in report titles. */
  eventBasics: (tenantId: string, eventId: string, signal?: AbortSignal) => api.get<TEvent>(REPORT_PATHS.eventBasics(tenantId, eventId), undefined, signal),
  dashboard: (path: string, signal?: AbortSignal) => api.get<TReportDashboard>(path, undefined, signal),
  salesOverTime: (path: string, signal?: AbortSignal) => api.get<TSalesOverTime>(path, undefined, signal),
  ticketTypes: (path: string, signal?: AbortSignal) => api.get<TTicketTypeSalesList>(path, undefined, signal),
  /** spec §7: every `…/download` answers {downloadUrl}; ours adds the export's id and progress. */
  startExport: (path: string, filters: string[]) => api.get<TExportStatus>(path, { filters: filters.length ? filters : undefined }),
  exportStatus: (path: string, signal?: AbortSignal) => api.get<TExportStatus>(path, undefined, signal),
  /** spec §7: GET /tenants?filters=details.url={url}, result[0].id. */
  tenantIdByUrl: async (url: string) => {
    const answer = await api.get<TTenantList>('/api/tenants', { filters: encodeFilters([{ field: 'details.url', op: '=', value: url }]), limit: 1 });
    return answer.result[0]?.id ?? null;
  },
};

export { REPORT_PATHS };
