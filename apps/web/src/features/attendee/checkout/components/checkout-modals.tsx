import { M_SITE as M, type CartProblem } from '@marquee/core';
import { ButtonLink } from '../../event-site/kit/button';
import { Modal } from '../../event-site/kit/modal';
import { Notice, Spinner } from '../../event-site/kit/notice';
import css from './checkout.module.css';

/** spec §8 Cart: modal 'Ticket Availability Issue'. */
export function AvailabilityIssueModal({ opened, problems, cartPath, onClose }: { opened: boolean; problems: CartProblem[]; cartPath: string; onClose: () => void }) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={M.ticketAvailabilityIssue}
      data-testid="availability-modal"
      actions={
        <ButtonLink to={cartPath} data-testid="availability-back-to-cart">
          GO BACK TO CART
        </ButtonLink>
      }
    >
      <Notice kind="warning">
        <strong>{M.ticketsNoLongerAvailable}</strong>
        <div>{M.reviewYourCart}</div>
      </Notice>
      {problems.length > 0 && (
        <ul className={css.problems}>
          {problems.map((p) => (
            <li key={p.ticketTypeId}>
              <strong>{p.ticketName || 'A ticket'}</strong>:{' '}
              {p.kind === 'unavailable'
                ? 'no longer available'
                : p.kind === 'belowMinimum'
                  ? `requested ${p.requested}, minimum per order ${p.available}`
                  : `requested ${p.requested}, available ${p.available}, excess ${p.excess}`}
            </li>
          ))}
        </ul>
      )}
      <p>{M.updateCartToProceed}</p>
    </Modal>
  );
}

export const PROCESSING_TITLE = 'Processing Payment';

/** spec §4 Checkout: shown on PLACE ORDER until the browser leaves for the payment page. */
export function ProcessingPaymentModal({ opened }: { opened: boolean }) {
  return (
    <Modal opened={opened} title={PROCESSING_TITLE} dismissable={false} data-testid="processing-modal">
      <div className={css.processing}>
        <Spinner large label={PROCESSING_TITLE} />
        <p>We are reserving your tickets and taking you to our secure payment page.</p>
        <p className={css.deliveryNote}>Please do not close or refresh this window.</p>
      </div>
    </Modal>
  );
}

/**
 * Issue 28: the widget in a plain <iframe> could not send the top window to the payment page (the
 * browser wants a click for that): the buyer follows this link to it, in the whole window.
 */
export function ContinueToPaymentModal({ url }: { url: string | null }) {
  return (
    <Modal opened={url !== null} title="Continue to payment" dismissable={false} data-testid="continue-to-payment">
      <div className={css.processing}>
        <p>Your tickets are reserved. The payment page opens in the whole window.</p>
        {url && (
          <a href={url} target="_top" rel="noopener" className={css.payLink} data-testid="pay-link">
            Continue to payment
          </a>
        )}
      </div>
    </Modal>
  );
}
