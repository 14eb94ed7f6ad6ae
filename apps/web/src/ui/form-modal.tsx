import { Button, Group, Modal, Text, type ModalProps } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';

export type FormModalProps = ModalProps & {
  /** The form has unsaved edits (a Mantine form's `isDirty()`): closing asks first. */
  dirty: boolean;
  /** A save is under way: closing is refused until it settles. */
  busy?: boolean;
};

/** Mantine's open popovers (a Select's options, a date picker's calendar), portalled to <body>. */
const OPEN_DROPDOWN = '.mantine-Popover-dropdown, .mantine-Combobox-dropdown';

/** Esc belongs to an open dropdown (it closes only that) rather than to the modal. */
function escapeIsForDropdown(target: EventTarget | null): boolean {
  const el = target instanceof Element ? target : null;
  if (el?.closest('[aria-expanded="true"], [data-mantine-stop-propagation="true"]')) return true;
  if (el?.closest(OPEN_DROPDOWN)) return true;
  // Some stay mounted while closed (display: none), such as the phone input's country list.
  return Array.from(document.querySelectorAll<HTMLElement>(OPEN_DROPDOWN)).some((d) => d.checkVisibility());
}

/**
 * The one modal for console forms (issue 15): a dirty form asks "Discard changes?" before it closes
 * on a click on the overlay, Esc or the close button; a clean form closes at once; Esc inside an open
 * dropdown or date picker closes only that. The form's own Cancel button calls `onClose` directly:
 * it is the explicit way to throw the edits away.
 */
export function FormModal({ dirty, busy = false, opened, onClose, children, ...modal }: FormModalProps) {
  const [asking, setAsking] = useState(false);
  const content = useRef<HTMLDivElement>(null);
  const prompt = useRef<HTMLDivElement>(null);
  // The listener below reads the latest props without being re-attached on every keystroke.
  const latest = useRef({ dirty, busy, asking, onClose });
  latest.current = { dirty, busy, asking, onClose };

  useEffect(() => {
    if (!opened) setAsking(false);
  }, [opened]);

  const requestClose = () => {
    const { dirty: isDirty, busy: isBusy, onClose: close } = latest.current;
    if (isBusy) return;
    if (isDirty) setAsking(true);
    else close();
  };

  useEffect(() => {
    if (!opened) return;
    // Esc pressed in a dialog opened over this one is that dialog's.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.isComposing) return;
      const target = event.target as Node | null;
      const inPrompt = !!prompt.current && !!target && prompt.current.contains(target);
      if (latest.current.asking) {
        if (inPrompt || target === document.body) setAsking(false);
        return;
      }
      const inModal = !!content.current && !!target && content.current.contains(target);
      // Esc from outside the modal counts too (the focus is still on the button that opened it until
      // Mantine's focus trap moves it in, a timer later), unless it was pressed in another dialog.
      if (!inModal && target instanceof Element && target.closest('[role="dialog"]')) return;
      if (escapeIsForDropdown(event.target)) return;
      requestClose();
    };
    // Capture, so a dropdown's own Esc handler has not closed it yet when we look for it.
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [opened]);

  return (
    <>
      {/* While the prompt is up, it holds the focus. */}
      <Modal {...modal} ref={content} opened={opened} onClose={requestClose} closeOnEscape={false} trapFocus={!asking}>
        {children}
      </Modal>
      <Modal
        ref={prompt}
        opened={opened && asking}
        onClose={() => setAsking(false)}
        closeOnEscape={false}
        title="Discard changes?"
        centered
        size="sm"
        zIndex={400}
      >
        <Text fz="sm">Your changes have not been saved. If you close this form now, they will be lost.</Text>
        <Group justify="flex-end" gap="sm" mt="lg">
          <Button variant="default" onClick={() => setAsking(false)} data-autofocus>
            Keep editing
          </Button>
          <Button
            color="red"
            onClick={() => {
              setAsking(false);
              latest.current.onClose();
            }}
          >
            Discard
          </Button>
        </Group>
      </Modal>
    </>
  );
}
