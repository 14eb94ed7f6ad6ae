import type { TPublicEvent } from '@marquee/core';
import { useEffect, useMemo } from 'react';
import { Link, Outlet, useOutletContext, useParams } from 'react-router';
import { useSiteContext } from '../../../app/site-context';
import { isApiError } from '../../../ui/api-client';
import { cartTicketCount, useCart } from '../../cart/cart-store';
import { withOwnHold } from '../../cart/own-hold';
import { getPendingOrder } from '../../checkout/checkout-storage';
import { Button } from '../kit/button';
import { IconCart, IconTicket } from '../kit/icons';
import { Spinner } from '../kit/notice';
import { useEvent } from '../queries';
import css from './site.module.css';

export type EventOutlet = { event: TPublicEvent; eventName: string; refetch: () => Promise<unknown> };

/** The event every page under /{eventName}/ works on. */
export function useEventOutlet(): EventOutlet {
  return useOutletContext<EventOutlet>();
}

/** Header, footer and the event for every attendee page (spec: reports-payouts-checkout §2 attendee routes). */
export function EventLayout() {
  const { eventName = '' } = useParams();
  const query = useEvent(eventName);
  const site = useSiteContext();
  const organiser = site.tenant?.name ?? '';
  const data = query.data;
  const event = useMemo(() => (data ? withOwnHold(data, getPendingOrder(eventName)) : undefined), [data, eventName]);
  const items = useCart(eventName);
  const count = cartTicketCount(items);

  useEffect(() => {
    document.title = event ? `${event.details.name} · ${organiser}` : organiser || 'Tickets';
  }, [event, organiser]);

  let body;
  if (event) body = <Outlet context={{ event, eventName, refetch: query.refetch } satisfies EventOutlet} />;
  else if (query.isPending) body = <PageLoading />;
  else if (isApiError(query.error) && query.error.status === 404) body = <EventNotFound />;
  else body = <LoadProblem retry={() => void query.refetch()} />;

  return (
    <div className={css.shell}>
      <header className={css.header}>
        <div className={css.headerInner}>
          <Link to={`/${eventName}/`} className={css.brand}>
            <span className={css.brandMark}>
              <IconTicket size={18} />
            </span>
            <span className={css.brandText}>
              {event ? (
                <>
                  <span className={css.brandOrganiser}>{organiser}</span>
                  <span className={css.brandEvent}>{event.details.name}</span>
                </>
              ) : (
                <span className={css.brandEvent}>{organiser}</span>
              )}
            </span>
          </Link>
          {event && (
            <Link to={`/${eventName}/cart`} className={css.cartLink} data-testid="header-cart" aria-label={`Cart, ${count} tickets`}>
              <IconCart size={18} />
              <span className={css.cartLabel}>Cart</span>
              {count > 0 && <span className={css.cartCount}>{count}</span>}
            </Link>
          )}
        </div>
      </header>
      <main className={css.main}>{body}</main>
      <footer className={css.footer}>
        <div className={`${css.container} ${css.footerInner}`}>
          <span>
            © {new Date().getFullYear()} {organiser}
          </span>
          <span>Tickets by Marquee · Secure checkout</span>
        </div>
      </footer>
    </div>
  );
}

export function PageLoading() {
  return (
    <div className={css.center} aria-busy="true">
      <Spinner large />
    </div>
  );
}

export function EventNotFound() {
  return (
    <div className={css.center}>
      <div className={css.centerBox}>
        <span className={css.centerIcon}>
          <IconTicket size={28} />
        </span>
        <h1>Event not found</h1>
        <p className={css.muted}>There is no event on sale at this address. Please check the link you followed.</p>
      </div>
    </div>
  );
}

function LoadProblem({ retry }: { retry: () => void }) {
  return (
    <div className={css.center}>
      <div className={css.centerBox}>
        <h1>This page could not be shown</h1>
        <p className={css.muted}>We could not reach the box office. Please check your connection and try again.</p>
        <Button onClick={retry}>Try again</Button>
      </div>
    </div>
  );
}
