import { M, type ExportKind, type TExportStatus } from '@marquee/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { domainCodeOf, errorMessage } from '../../ui/api-client';
import { notify } from '../../ui/notify';
import { reportsApi } from './api';

// spec §8: export failures are error toasts shown for 5 s.
const EXPORT_ERROR_MS = 5000;
const POLL_MS = 700;
/** An export still running after this long shows a progress toast. */
const PROGRESS_AFTER_MS = 800;

/** spec §8: the toast an export failure shows, by the export's kind. */
export function exportFailure(kind: ExportKind, serverMessage?: string | null): { title: string; message?: string } {
  switch (kind) {
    case 'tenant-list':
      return { title: M.exportTenantReportsFailed };
    case 'taxes':
    case 'donations':
      return { title: M.errorDownloadingReport, message: serverMessage || M.unknownError };
    case 'refunds':
      return { title: M.exportRefundListFailed };
    default:
      return { title: M.exportDownloadFailed };
  }
}

export type StartExport = {
  kind: ExportKind;
  /** The `…/download` path; null when an id it needs is missing. */
  path: string | null;
  /** Where the export's progress is read. */
  statusPath: (exportId: string) => string;
  filters: string[];
  /** Which warning a missing id shows (spec §5: 'No Event Selected' or 'No Event ID'). */
  missing?: string;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function openFile(url: string, fileName: string) {
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * Starts a report export, follows its progress (a toast with a bar for a large one) and opens the
 * CSV once written; failures show the §8 toast.
 */
export function useExport() {
  const [running, setRunning] = useState(false);

  const start = async ({ kind, path, statusPath, filters, missing }: StartExport) => {
    if (!path) {
      notify.warning(missing ?? M.noEventSelected);
      return;
    }
    setRunning(true);
    const toastId = `export-${kind}-${Date.now()}`;
    let shown = false;
    const began = Date.now();
    try {
      let status: TExportStatus = await reportsApi.startExport(path, filters);
      while (status.status === 'pending' || status.status === 'running') {
        if (!shown && Date.now() - began > PROGRESS_AFTER_MS) {
          shown = true;
          notifications.show({ id: toastId, title: 'Preparing your report', message: progressText(status), loading: true, autoClose: false, withCloseButton: false });
        } else if (shown) notifications.update({ id: toastId, message: progressText(status), loading: true, autoClose: false });
        await sleep(POLL_MS);
        status = await reportsApi.exportStatus(statusPath(status.exportId));
      }
      if (shown) notifications.hide(toastId);
      if (status.status === 'failed') {
        const f = exportFailure(kind, status.error);
        notify.error(f.title, f.message, { duration: EXPORT_ERROR_MS });
        return;
      }
      openFile(status.downloadUrl, status.fileName);
      if (shown) notify.success('Report ready', `${status.fileName} (${status.rowCount.toLocaleString('en-US')} rows) is downloading.`);
    } catch (e) {
      if (shown) notifications.hide(toastId);
      // spec §8: 'Refunds Export Failed - Event does not have refunds to export.' (NOTHING_TO_EXPORT).
      if (kind === 'refunds' && domainCodeOf(e) === 'NOTHING_TO_EXPORT') {
        notify.error(M.refundsExportFailed, M.refundsExportEmpty, { duration: EXPORT_ERROR_MS });
        return;
      }
      const f = exportFailure(kind, errorMessage(e, M.unknownError));
      notify.error(f.title, f.message, { duration: EXPORT_ERROR_MS });
    } finally {
      setRunning(false);
    }
  };

  return { start, running };
}

function progressText(s: TExportStatus): string {
  if (s.totalRows) {
    const pct = Math.min(100, Math.floor((s.rowCount / s.totalRows) * 100));
    return `${s.rowCount.toLocaleString('en-US')} of ${s.totalRows.toLocaleString('en-US')} rows (${pct}%)`;
  }
  return s.rowCount ? `${s.rowCount.toLocaleString('en-US')} rows written` : 'Starting…';
}
