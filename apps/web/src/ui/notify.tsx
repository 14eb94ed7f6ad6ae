import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck, IconInfoCircle, IconX } from '@tabler/icons-react';

// spec: accounts-admin-fees §9 toast durations 2000 to 9000 ms; 5000 unless a screen says otherwise.
export const TOAST_MIN_MS = 2000;
export const TOAST_MAX_MS = 9000;
export const TOAST_DEFAULT_MS = 5000;

export type ToastOptions = { duration?: number; id?: string; onClose?: () => void };
type Kind = 'success' | 'error' | 'warning' | 'info';

const look: Record<Kind, { color: string; icon: React.ReactNode }> = {
  success: { color: 'teal', icon: <IconCheck size={18} /> },
  error: { color: 'red', icon: <IconX size={18} /> },
  warning: { color: 'yellow', icon: <IconAlertTriangle size={18} /> },
  info: { color: 'brand', icon: <IconInfoCircle size={18} /> },
};

export const clampDuration = (ms: number | undefined) => Math.min(TOAST_MAX_MS, Math.max(TOAST_MIN_MS, ms ?? TOAST_DEFAULT_MS));

function show(kind: Kind, title: string, message?: string, opts: ToastOptions = {}) {
  const { color, icon } = look[kind];
  // A toast with an id that is still on screen is not shown twice (Mantine dedupes by id).
  return notifications.show({
    id: opts.id,
    title,
    // Mantine needs a message; a title-only toast shows the title as its message.
    message: message ?? '',
    color,
    icon,
    autoClose: clampDuration(opts.duration),
    onClose: opts.onClose,
    withBorder: true,
    // WCAG 2.2: the close button needs a name, and the message must keep 4.5:1 on the toast's white.
    closeButtonProps: { 'aria-label': 'Close notification' },
    styles: { description: { color: 'var(--mantine-color-gray-7)' } },
  });
}

export const notify = {
  success: (title: string, message?: string, opts?: ToastOptions) => show('success', title, message, opts),
  error: (title: string, message?: string, opts?: ToastOptions) => show('error', title, message, opts),
  warning: (title: string, message?: string, opts?: ToastOptions) => show('warning', title, message, opts),
  info: (title: string, message?: string, opts?: ToastOptions) => show('info', title, message, opts),
};
