import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';

export type ConfirmDeleteOptions = {
  title?: string;
  /** What is deleted, in the spec's words where it gives them. */
  message: ReactNode;
  confirmLabel?: string;
  /** The button that backs out ('Cancel'); name it otherwise when the action itself is a cancel. */
  cancelLabel?: string;
  /** Runs on confirm; the modal closes when it settles. */
  onConfirm: () => unknown | Promise<unknown>;
  onCancel?: () => void;
};

/** A red confirmation modal, the one used before every delete, disable or void. */
export function confirmDelete({ title = 'Delete', message, confirmLabel = 'Delete', cancelLabel = 'Cancel', onConfirm, onCancel }: ConfirmDeleteOptions) {
  modals.openConfirmModal({
    title,
    centered: true,
    children: typeof message === 'string' ? <Text fz="sm">{message}</Text> : message,
    labels: { confirm: confirmLabel, cancel: cancelLabel },
    confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
    onConfirm: () => void onConfirm(),
    onCancel,
  });
}

/** The same, as a promise: resolves true on confirm, false on cancel or close. */
export function askConfirmDelete(opts: Omit<ConfirmDeleteOptions, 'onConfirm' | 'onCancel'>): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    modals.openConfirmModal({
      title: opts.title ?? 'Delete',
      centered: true,
      children: typeof opts.message === 'string' ? <Text fz="sm">{opts.message}</Text> : opts.message,
      labels: { confirm: opts.confirmLabel ?? 'Delete', cancel: opts.cancelLabel ?? 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        settled = true;
        resolve(true);
      },
      onClose: () => {
        if (!settled) resolve(false);
      },
    });
  });
}
