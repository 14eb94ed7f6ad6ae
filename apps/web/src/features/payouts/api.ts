import {
  PAYOUT_PATHS,
  type TExportStatus,
  type TPayout,
  type TPayoutBreakdownList,
  type TPayoutHoldAnswer,
  type TPayoutHoldRequest,
  type TPayoutSettings,
  type TTransferResult,
} from '@marquee/core';
import { api } from '../../ui/api-client';

export const payoutsApi = {
  payout: (path: string, signal?: AbortSignal) => api.get<TPayout>(path, undefined, signal),
  payoutOrders: (path: string, q: { cursor?: string; limit: number; filters?: string[] }, signal?: AbortSignal) => api.get<TPayoutBreakdownList>(path, { ...q }, signal),
  hold: (tenantId: string, body: TPayoutHoldRequest) => api.post<TPayoutHoldAnswer>(PAYOUT_PATHS.hold(tenantId), body),
  transfer: (orderUIDs: string[]) => api.post<TTransferResult>(PAYOUT_PATHS.transfer(), { orderUIDs }),
  startExport: (path: string, filters: string[]) => api.get<TExportStatus>(path, { filters: filters.length ? filters : undefined }),
  exportStatus: (path: string) => api.get<TExportStatus>(path),
  settings: (signal?: AbortSignal) => api.get<TPayoutSettings>(PAYOUT_PATHS.settings(), undefined, signal),
  updateSettings: (body: TPayoutSettings) => api.put<TPayoutSettings>(PAYOUT_PATHS.settings(), body),
};
