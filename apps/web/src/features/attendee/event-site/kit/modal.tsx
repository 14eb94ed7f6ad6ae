import { useEffect, useId, useRef, type ReactNode } from 'react';
import { IconX } from './icons';
import { TOP_LAYER_EVENT } from './toast';
import css from './kit.module.css';

export type ModalProps = {
  opened: boolean;
  onClose?: () => void;
  title: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  /** A modal that must not be dismissed (a payment in flight) has no close button and ignores Escape. */
  dismissable?: boolean;
  /**
   * Whether a click on the backdrop closes it (default). Off for a modal opened by a button a buyer may
   * double-click: the second click would land on the backdrop and close it at once.
   */
  closeOnBackdrop?: boolean;
  wide?: boolean;
  'data-testid'?: string;
};

/** A modal on the native <dialog>: focus trap, Escape and the backdrop come from the browser. */
export function Modal({ opened, onClose, title, children, actions, dismissable = true, closeOnBackdrop = true, wide, ...rest }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const inner = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (opened && !dialog.open) {
      dialog.showModal();
      // The content takes the focus rather than the close button: no stray focus ring on open.
      inner.current?.focus();
      window.dispatchEvent(new Event(TOP_LAYER_EVENT));
    }
    if (!opened && dialog.open) dialog.close();
  }, [opened]);

  return (
    <dialog
      ref={ref}
      className={`${css.dialog} ${wide ? css.dialogWide : ''}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        if (dismissable) onClose?.();
      }}
      onClick={(e) => {
        // A click on the backdrop lands on the dialog element itself.
        if (dismissable && closeOnBackdrop && e.target === e.currentTarget) onClose?.();
      }}
      {...rest}
    >
      {opened && (
        <div className={css.dialogInner} tabIndex={-1} ref={inner}>
          <div className={css.dialogHead}>
            <h2 className={css.dialogTitle} id={titleId}>
              {title}
            </h2>
            {dismissable && onClose && (
              <button type="button" className={css.dialogClose} onClick={onClose} aria-label="Close">
                <IconX size={18} />
              </button>
            )}
          </div>
          {children}
          {actions && <div className={css.dialogActions}>{actions}</div>}
        </div>
      )}
    </dialog>
  );
}
