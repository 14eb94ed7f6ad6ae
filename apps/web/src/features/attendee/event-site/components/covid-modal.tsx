import type { ReactNode } from 'react';
import { Button } from '../kit/button';
import { IconShield } from '../kit/icons';
import { Modal } from '../kit/modal';
import css from '../kit/kit.module.css';

export const COVID_TITLE = 'COVID Safety Protocol';

export type CovidModalProps = {
  opened: boolean;
  text: string;
  onClose: () => void;
  /** At checkout the buyer agrees before paying; elsewhere the modal only informs. */
  onAgree?: () => void;
};

/** spec: reports-payouts-checkout §2 modal 'COVID Safety Protocol'. */
export function CovidModal({ opened, text, onClose, onAgree }: CovidModalProps) {
  let actions: ReactNode;
  if (onAgree) {
    actions = (
      <>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={onAgree} data-testid="covid-agree">
          I Agree
        </Button>
      </>
    );
  } else actions = <Button onClick={onClose}>Close</Button>;
  return (
    // Not closed by a backdrop click: PLACE ORDER NOW opens it, and the second click of a double click
    // would otherwise land on the backdrop and close it before the buyer sees it. Escape, the close
    // button and Cancel still close it.
    <Modal opened={opened} onClose={onClose} title={COVID_TITLE} actions={actions} closeOnBackdrop={false} data-testid="covid-modal">
      <div className={`${css.notice} ${css['notice-info']}`}>
        <IconShield size={18} />
        <div>The organiser asks every guest to follow these safety measures.</div>
      </div>
      <p style={{ whiteSpace: 'pre-line' }}>{text || 'Please follow the safety guidance of the venue.'}</p>
    </Modal>
  );
}
