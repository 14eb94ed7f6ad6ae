import { M, type TExportStatus } from '@marquee/core';
import { useState } from 'react';
import { errorMessage } from '../../ui/api-client';
import { notify } from '../../ui/notify';
import { payoutsApi } from './api';

// spec §7: the payout downloads; §8: 'Failed to export payout transactions', 'Failed to export
// payout list', or 'Error Downloading Report' with the server's message or 'Unknown error' (5 s).
const EXPORT_ERROR_MS = 5000;
const POLL_MS = 700;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type PayoutExportKind = 'transactions' | 'list' | 'payout';

function failure(kind: PayoutExportKind, serverMessage: string | null): [string, string | undefined] {
  if (kind === 'transactions') return [M.exportPayoutTransactionsFailed, undefined];
  if (kind === 'list') return [M.exportPayoutListFailed, undefined];
  return [M.errorDownloadingReport, serverMessage || M.unknownError];
}

export function usePayoutExport() {
  const [running, setRunning] = useState(false);
  const start = async (opts: { kind: PayoutExportKind; path: string; statusPath: (id: string) => string; filters: string[] }) => {
    setRunning(true);
    try {
      let status: TExportStatus = await payoutsApi.startExport(opts.path, opts.filters);
      while (status.status === 'pending' || status.status === 'running') {
        await sleep(POLL_MS);
        status = await payoutsApi.exportStatus(opts.statusPath(status.exportId));
      }
      if (status.status === 'failed') {
        const [title, message] = failure(opts.kind, status.error);
        notify.error(title, message, { duration: EXPORT_ERROR_MS });
        return;
      }
      // spec §7 says a new window; a window opened after the export's wait is blocked as a pop-up,
      // so the CSV is downloaded from a link instead, as the report exports do (docs/decisions.md).
      const a = document.createElement('a');
      a.href = status.downloadUrl;
      a.download = status.fileName;
      a.rel = 'noopener';
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch (e) {
      const [title, message] = failure(opts.kind, errorMessage(e, M.unknownError));
      notify.error(title, message, { duration: EXPORT_ERROR_MS });
    } finally {
      setRunning(false);
    }
  };
  return { start, running };
}
