import { useEffect, useRef, useSyncExternalStore } from 'react';
import { IconAlert, IconCheck, IconInfo, IconX } from './icons';
import css from './kit.module.css';

// The attendee site's toasts: the same call shape as ui/notify (title, message, {duration, id}),
// without Mantine. spec: reports-payouts-checkout §9 toast durations 1.5 to 5 s, 3 s discount,
// 8 s removed tickets; 'Insufficient Capacity' stays until it is resolved (duration null).
export const SITE_TOAST_DEFAULT_MS = 5000;

export type ToastKind = 'success' | 'error' | 'warning' | 'info';
export type SiteToastOptions = { duration?: number | null; id?: string };
type Toast = { id: string; kind: ToastKind; title: string; message?: string };

let toasts: Toast[] = [];
const listeners = new Set<() => void>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();
let seq = 0;

function emit() {
  for (const l of listeners) l();
}

function hide(id: string) {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  if (!toasts.some((t) => t.id === id)) return;
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

function show(kind: ToastKind, title: string, message?: string, opts: SiteToastOptions = {}) {
  const id = opts.id ?? `toast-${++seq}`;
  const next: Toast = { id, kind, title, message };
  // A toast with an id already on screen is replaced rather than stacked.
  toasts = toasts.some((t) => t.id === id) ? toasts.map((t) => (t.id === id ? next : t)) : [...toasts, next].slice(-4);
  const old = timers.get(id);
  if (old) clearTimeout(old);
  timers.delete(id);
  const duration = opts.duration === undefined ? SITE_TOAST_DEFAULT_MS : opts.duration;
  if (duration !== null) timers.set(id, setTimeout(() => hide(id), duration));
  emit();
  return id;
}

export const toast = {
  success: (title: string, message?: string, opts?: SiteToastOptions) => show('success', title, message, opts),
  error: (title: string, message?: string, opts?: SiteToastOptions) => show('error', title, message, opts),
  warning: (title: string, message?: string, opts?: SiteToastOptions) => show('warning', title, message, opts),
  info: (title: string, message?: string, opts?: SiteToastOptions) => show('info', title, message, opts),
  hide,
};

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const snapshot = () => toasts;

const icons = { success: IconCheck, error: IconAlert, warning: IconAlert, info: IconInfo } as const;

/** Modals announce themselves so the toasts can come back on top of them (see Toaster). */
export const TOP_LAYER_EVENT = 'marquee:top-layer';

export function Toaster() {
  const list = useSyncExternalStore(subscribe, snapshot, snapshot);
  const ref = useRef<HTMLDivElement>(null);
  // A modal <dialog> sits in the browser's top layer, above any z-index. The toaster is a manual
  // popover, also in the top layer, and re-enters it after each modal opens to stay visible.
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof el.showPopover !== 'function') return;
    const raise = () => {
      if (el.matches(':popover-open')) el.hidePopover();
      el.showPopover();
    };
    raise();
    window.addEventListener(TOP_LAYER_EVENT, raise);
    return () => window.removeEventListener(TOP_LAYER_EVENT, raise);
  }, []);
  return (
    <div ref={ref} popover="manual" className={css.toaster} aria-live="polite">
      {list.map((t) => {
        const Icon = icons[t.kind];
        return (
          <div key={t.id} className={`${css.toast} ${css[`toast-${t.kind}`]}`} role={t.kind === 'error' || t.kind === 'warning' ? 'alert' : 'status'} data-testid="toast">
            <Icon size={20} className={css.toastIcon} />
            <div className={css.toastBody}>
              <div className={css.toastTitle}>{t.title}</div>
              {t.message && <div className={css.toastMessage}>{t.message}</div>}
            </div>
            <button type="button" className={css.dialogClose} onClick={() => hide(t.id)} aria-label="Dismiss">
              <IconX size={16} />
            </button>
          </div>
        );
      })}
    </div>
  );
}
