import type { TPublicEvent } from '@marquee/core';
import { useEffect, useMemo } from 'react';
import { Link, Outlet, useBasename, useMatch, useOutletContext, useParams } from '../../site/site-router';
import { useSiteContext } from '../../../../shared/site-context';
import { isNotFound } from '../../../../ui/api-client';
import { cartTicketCount, useCart } from '../../cart/cart-store';
import { withOwnHold } from '../../cart/own-hold';
import { getPendingOrder } from '../../checkout/checkout-storage';
import { Button, ButtonLink } from '../kit/button';
import { IconCart, IconTicket, IconX } from '../kit/icons';
import { Spinner } from '../kit/notice';
import { useHydrated } from '../../site/use-hydrated';
import { useEvent } from '../queries';
import css from './site.module.css';

export type EventOutlet = { event: TPublicEvent; eventName: string; refetch: () => Promise<unknown> };

/**
 * The success page's outlet: the event, or null when it is not found any more (an unpublished event):
 * a buyer's order is shown from its own data either way.
 */
export type SuccessOutlet = Omit<EventOutlet, 'event'> & { event: TPublicEvent | null };

/** The event every page under /{eventName}/ works on. */
export function useEventOutlet(): EventOutlet {
  return useOutletContext<EventOutlet>();
}

export const isCancelled = (event: TPublicEvent) => event.details.status === 'cancelled';

/** The pages that sell: a cancelled event shows its notice there instead. */
const SALES_PAGES = new Set(['tickets', 'cart', 'account']);

/** Header, footer and the event for every attendee page (spec: reports-payouts-checkout §2 attendee routes). */
export function EventLayout() {
  const { eventName = '' } = useParams();
  const query = useEvent(eventName);
  const site = useSiteContext();
  const organiser = site.tenant?.name ?? '';
  const data = query.data;
  // The buyer's own held tickets count as theirs; the browser alone knows them (read after hydration).
  const hydrated = useHydrated();
  const event = useMemo(() => (data ? withOwnHold(data, hydrated ? getPendingOrder(eventName) : null) : undefined), [data, eventName, hydrated]);
  const items = useCart(eventName);
  const count = cartTicketCount(items);
  const onSuccessPage = useMatch('/:eventName/success') !== null;
  const page = useMatch('/:eventName/:page')?.params.page ?? '';

  useEffect(() => {
    document.title = event ? `${event.details.name} · ${organiser}` : organiser || 'Tickets';
  }, [event, organiser]);

  // A 404 wins over data fetched before: the event was unpublished while the page was open.
  const notFound = isNotFound(query.error);
  let body;
  if (onSuccessPage && (event || notFound)) body = <Outlet context={{ event: notFound ? null : (event ?? null), eventName, refetch: query.refetch } satisfies SuccessOutlet} />;
  else if (notFound) body = <EventNotFound />;
  else if (event && isCancelled(event) && SALES_PAGES.has(page)) body = <EventCancelled eventName={eventName} organiser={organiser} />;
  else if (event) body = <Outlet context={{ event, eventName, refetch: query.refetch } satisfies EventOutlet} />;
  else if (query.isPending) body = <PageLoading />;
  else body = <LoadProblem retry={() => void query.refetch()} />;
  const shown = notFound ? undefined : event;
  const embedded = useBasename() !== '';

  if (embedded) {
    // Issue 28: the ticket widget in an organiser's page: the pages without the site's header and
    // footer (the organiser's page is around them), as tall as their content.
    return (
      <div className={css.embedShell} data-testid="embed-shell">
        <main>{body}</main>
        <p className={css.embedFooter}>
          {shown && !isCancelled(shown) && (
            <Link to={`/${eventName}/cart`} className={css.footerLink} data-testid="header-cart" aria-label={`Cart, ${count} tickets`}>
              Cart{count > 0 ? ` (${count})` : ''}
            </Link>
          )}
          <span>Tickets by Marquee · Secure checkout</span>
        </p>
      </div>
    );
  }

  return (
    <div className={css.shell}>
      <header className={css.header}>
        <div className={css.headerInner}>
          <Link to={`/${eventName}/`} className={css.brand}>
            <span className={css.brandMark}>
              <IconTicket size={18} />
            </span>
            <span className={css.brandText}>
              {shown ? (
                <>
                  <span className={css.brandOrganiser}>{organiser}</span>
                  <span className={css.brandEvent}>{shown.details.name}</span>
                </>
              ) : (
                <span className={css.brandEvent}>{organiser}</span>
              )}
            </span>
          </Link>
          {shown && !isCancelled(shown) && (
            <Link to={`/${eventName}/cart`} className={css.cartLink} data-testid="header-cart" aria-label={`Cart, ${count} tickets`}>
              <IconCart size={18} />
              <span className={css.cartLabel}>Cart</span>
              {count > 0 && <span className={css.cartCount}>{count}</span>}
            </Link>
          )}
        </div>
      </header>
      {shown?.details.status === 'draft' && (
        <div className={css.previewBanner} role="status" data-testid="preview-banner">
          <strong>Preview: not published</strong> · Only the event's staff can see this page. Tickets go on sale once you publish.
        </div>
      )}
      <main className={css.main}>{body}</main>
      <footer className={css.footer}>
        <div className={`${css.container} ${css.footerInner}`}>
          <span>
            © {new Date().getFullYear()} {organiser}
          </span>
          <Link to={`/${eventName}/find-tickets`} className={css.footerLink} data-testid="find-my-tickets">
            Find my tickets
          </Link>
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

/** spec §2 has no cancelled state: the ticket menu, cart and checkout of a cancelled event say so and sell nothing. */
export function EventCancelled({ eventName, organiser }: { eventName: string; organiser: string }) {
  return (
    <div className={css.center}>
      <div className={css.centerBox} data-testid="event-cancelled">
        <span className={css.centerIcon}>
          <IconX size={28} />
        </span>
        <h1>{EVENT_CANCELLED}</h1>
        <p className={css.muted}>{eventCancelledBody(organiser)}</p>
        <ButtonLink to={`/${eventName}/`} variant="secondary">
          Back to Home
        </ButtonLink>
      </div>
    </div>
  );
}

export const EVENT_CANCELLED = 'This event has been cancelled';
/**
 * What a cancelled event's pages tell the buyer; `organiser` is the tenant's name, when known. The
 * cancellation refunds every paid order by itself (issue 21.9): nobody has to ask for it.
 */
export const eventCancelledBody = (organiser: string) =>
  `Tickets are no longer on sale. If you bought tickets, your payment is refunded automatically to the card you paid with, and ${organiser || 'the organiser'} has e-mailed you about it: there is nothing you need to do.`;

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
