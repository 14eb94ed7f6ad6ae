import { WAITLIST_CLAIM_ERRORS, assertNever, domainCodeAmong } from '@marquee/core';
import { useEffect, useRef, useState } from 'react';
import { isApiError, isNotFound } from '../../../../ui/api-client';
import { setCart, type CartItem } from '../../cart/cart-store';
import { setSeatHold } from '../../../seating/seat-store';
import { savePendingOrder } from '../../checkout/checkout-storage';
import { useEventOutlet } from '../../event-site/components/event-layout';
import site from '../../event-site/components/site.module.css';
import { ButtonLink } from '../../event-site/kit/button';
import { Card } from '../../event-site/kit/card';
import { Notice, Spinner } from '../../event-site/kit/notice';
import { useNavigate, useSearchParams } from '../../site/site-router';
import { claimOffer } from '../api';
import css from './waitlist.module.css';

/**
 * /{eventName}/waitlist/claim?entry=…&token=… (issue 24): the link in a waiting-list offer mail.
 * The offer's hold becomes this browser's hold (as the checkout's own, with its countdown) and the
 * cart its tickets; then the checkout, where the person pays as usual.
 */
export function WaitlistClaimPage() {
  const { event, eventName } = useEventOutlet();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  const started = useRef(false);
  const entryId = search.get('entry') ?? '';
  const token = search.get('token') ?? '';

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!entryId || !token) return setProblem('This link is incomplete. Please open the link from your e-mail again.');
    claimOffer(event.tenantId, event.id, { entryId, token })
      .then((offer) => {
        const types = new Map(event.ticketTypes.map((t) => [t.id, t]));
        const items: CartItem[] = offer.lines.map((l) => {
          const t = types.get(l.ticketTypeId);
          return { id: l.ticketTypeId, ticketName: t?.details.name ?? 'Tickets', price: t?.details.price ?? 0, quantity: l.quantity, details: t?.details.details ?? '' };
        });
        // Issue 27: a seated ticket type's offer comes with its best seats held; the checkout sends them.
        setSeatHold(event.id, offer.seatHold);
        savePendingOrder({ orderUID: offer.orderUID, token: offer.orderToken, eventName, email: offer.email, holdExpiresAt: offer.holdExpiresAt, breakdown: offer.breakdown, items, waitlist: true });
        setCart(eventName, items);
        navigate(`/${eventName}/account`, { replace: true, state: { fromCart: true } });
      })
      .catch((e: unknown) => {
        if (!isApiError(e)) return setProblem('We could not open your offer. Please try again.');
        const code = domainCodeAmong(e.domainCode, WAITLIST_CLAIM_ERRORS);
        switch (code) {
          case 'WAITLIST_OFFER_EXPIRED':
          case 'WAITLIST_OFFER_USED':
            return setProblem(e.message);
          case null:
            return setProblem(isNotFound(e) ? 'This offer link is not valid. Please open the link from your e-mail again.' : e.message);
          default:
            return assertNever(code);
        }
      });
  }, [entryId, token, event, eventName, navigate]);

  return (
    <div className={site.container}>
      <div className={css.claim}>
        <Card className={css.claimBody}>
          <h1 className={site.pageTitle}>Your waiting-list offer</h1>
          {problem ? (
            <>
              <Notice kind="warning" data-testid="waitlist-claim-problem">
                {problem}
              </Notice>
              <ButtonLink to={`/${eventName}/tickets`} variant="secondary">
                See tickets
              </ButtonLink>
            </>
          ) : (
            <p>
              <Spinner label="Opening your offer" /> Holding your tickets…
            </p>
          )}
        </Card>
      </div>
    </div>
  );
}
