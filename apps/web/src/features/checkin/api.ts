import {
  CHECKIN_PATHS,
  type TCheckinCounters,
  type TCheckinManifest,
  type TCheckinScanAnswer,
  type TCheckinScanRequest,
  type TCheckinSearchResponse,
  type TCheckinSyncRequest,
  type TCheckinSyncResponse,
  type TCheckinUndoResponse,
} from '@marquee/core';
import { api } from '../../ui/api-client';

// The check-in API (issue 11): refused scans are answers (200 with a result), not errors.
export const checkinApi = {
  manifest: (tenantId: string, eventId: string) => api.get<TCheckinManifest>(CHECKIN_PATHS.manifest(tenantId, eventId)),
  scan: (tenantId: string, eventId: string, body: TCheckinScanRequest) => api.post<TCheckinScanAnswer>(CHECKIN_PATHS.scans(tenantId, eventId), body),
  undo: (tenantId: string, eventId: string, scanId: string, deviceId: string) =>
    api.post<TCheckinUndoResponse>(CHECKIN_PATHS.undo(tenantId, eventId, scanId), { deviceId }),
  sync: (tenantId: string, eventId: string, body: TCheckinSyncRequest) => api.post<TCheckinSyncResponse>(CHECKIN_PATHS.sync(tenantId, eventId), body),
  search: (tenantId: string, eventId: string, q: string) => api.get<TCheckinSearchResponse>(CHECKIN_PATHS.search(tenantId, eventId, q)),
  counters: (tenantId: string, eventId: string) => api.get<TCheckinCounters>(CHECKIN_PATHS.counters(tenantId, eventId)),
};
