import { M_SITE as M, type TPublicTicketType } from '@marquee/core';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef } from 'react';
import { fetchSeatMap, fetchSeatStates } from '../../../seating/api';
import { useQuery } from '../../site/site-query';
import { Link } from '../../site/site-router';
import { canAdd, currentItems, itemOf, menuTicketTypes, nextDown, nextUp, offSaleLabel, stepperMax, ticketState, withCapacityCap, type TicketState } from '../../cart/cart-rules';
import { cartTicketCount, setQuantity, useCart } from '../../cart/cart-store';
import { usePrice } from '../../cart/queries';
import { trackRemoveFromCart } from '../../cart/analytics';
import { Button, ButtonLink } from '../kit/button';
import { IconArrowLeft, IconArrowRight, IconCalendar, IconPin } from '../kit/icons';
import { Stepper } from '../kit/stepper';
import { toast } from '../kit/toast';
import { eventDateLine, money, shortMoment, venueLines } from '../format';
import { JoinWaitlist } from '../../waitlist/components/join-waitlist';
import { useEventOutlet } from './event-layout';
import { SeatMapPreview } from './seat-map-preview';
import site from './site.module.css';
import css from './ticket-menu.module.css';

const LOW_STOCK = 10;
// Issue 27: the seat map loads only for an event that sells seats (the first load stays as it was).
const SeatPicker = lazy(() => import('./seat-picker'));
/** Seat states are polled this often while the map is open (an unchanged poll is a 304). */
const SEAT_POLL_MS = 2_000;

function statusPill(state: TicketState, t: TPublicTicketType, timeZone: string) {
  const off = offSaleLabel(state, t, (iso) => shortMoment(iso, timeZone));
  if (off) return <span className={`${css.pill} ${css.pillOff}`}>{off}</span>;
  return t.details.remainingQuantity <= LOW_STOCK ? (
    <span className={`${css.pill} ${css.pillLow}`}>Only {t.details.remainingQuantity} left</span>
  ) : (
    <span className={`${css.pill} ${css.pillOk}`}>Available</span>
  );
}

function limitsText(t: TPublicTicketType): string {
  const parts: string[] = [];
  if (t.details.minTicketPerOrder > 1) parts.push(`Min ${t.details.minTicketPerOrder}`);
  parts.push(`Max ${stepperMax(t)} per order`);
  return parts.join(' · ');
}

/** /{eventName}/tickets : the ticket menu (spec: reports-payouts-checkout §2, §4 Cart). */
export function TicketMenuPage() {
  const outlet = useEventOutlet();
  const { eventName } = outlet;
  // spec §4 Cart: no ticket type offers more than the event can still sell (its remaining capacity).
  const event = useMemo(() => withCapacityCap(outlet.event), [outlet.event]);
  const stored = useCart(eventName);
  const items = useMemo(() => currentItems(event, stored), [event, stored]);
  const d = event.details;
  const count = cartTicketCount(items);
  const types = menuTicketTypes(event);
  const venue = venueLines(d);
  // Issue 21.7: the bar's total is the cart's, all-in: the server's price of this selection (the one
  // pricing function, with the fees and tax the browser is never sent), the same query the cart reads.
  const price = usePrice(eventName, items, null, count > 0);
  const total = count === 0 ? 0 : (price.data?.totalAmount ?? null);
  const pricing = count > 0 && (price.isFetching || price.isPlaceholderData);

  // Issue 27: an event with a seating plan answers its seats' states (an empty string: none).
  const seatStates = useQuery({
    queryKey: ['site', 'seat-states', event.id],
    queryFn: ({ signal }) => fetchSeatStates(event.tenantId, event.id, signal),
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.states ? SEAT_POLL_MS : false),
  });
  const seated = !!seatStates.data?.states;
  // Issue 27 (pan4): one function for the page's life, so that the seat picker (memo) is not rendered
  // again by a poll that changed nothing.
  const refetchStates = useRef(seatStates.refetch);
  refetchStates.current = seatStates.refetch;
  const refreshStates = useCallback(() => void refetchStates.current(), []);
  // Issue 27 (paint): the event says it sells seats (its snapshot), so the plan and the map's code
  // load beside the states rather than after them; the preview image shows the map meanwhile.
  const seatedEvent = !!d.seating;
  const seatMap = useQuery({
    queryKey: ['site', 'seat-map', event.id],
    queryFn: ({ signal }) => fetchSeatMap(event.tenantId, event.id, signal),
    enabled: seated || seatedEvent,
    staleTime: 60_000,
  });
  // The map's code loads beside the plan, not after it (one round trip fewer before the map paints).
  useEffect(() => {
    if (seated || seatedEvent) void import('./seat-picker');
  }, [seated, seatedEvent]);
  const preview = seatedEvent ? <SeatMapPreview tenantId={event.tenantId} eventId={event.id} eventTitle={d.name} /> : null;
  const seatedIds = new Set((seatMap.data?.categories ?? []).map((c) => c.ticketTypeId));

  const quantityOf = (id: string) => items.find((i) => i.id === id)?.quantity ?? 0;

  const increment = (t: TPublicTicketType) => {
    const current = quantityOf(t.id);
    const next = nextUp(t, current);
    const check = canAdd(t, event, items, next);
    if (!check.ok) {
      // spec §8 Cart: 'Quantity Limit Exceeded', N remaining.
      toast.warning(M.quantityLimitExceeded, `Only ${check.remaining} ${t.details.name} ticket${check.remaining === 1 ? '' : 's'} remaining.`, {
        id: `limit-${t.id}`,
      });
      return;
    }
    setQuantity(eventName, itemOf(t), next);
  };

  const decrement = (t: TPublicTicketType) => {
    const current = quantityOf(t.id);
    const next = nextDown(t, current);
    const line = items.find((i) => i.id === t.id);
    if (line) trackRemoveFromCart(d.name, [{ ...line, quantity: current - next }]);
    setQuantity(eventName, itemOf(t), next);
  };

  return (
    <div className={site.container}>
      <div className={site.pageHead}>
        <div className={site.backRow}>
          <Link className={site.back} to={`/${eventName}/`}>
            <IconArrowLeft size={16} /> Back to Home
          </Link>
          {d.seriesUrlName && (
            // Issue 28: a date of a series goes back to the series' page (server-rendered, outside this app's routes).
            <a className={site.back} href={`/series/${encodeURIComponent(d.seriesUrlName)}`} data-testid="all-dates">
              <IconCalendar size={16} /> All dates
            </a>
          )}
        </div>
        <h1 className={site.pageTitle}>Tickets</h1>
        <div className={site.pageSub}>
          <span className={site.meta}>
            <IconCalendar size={16} /> {eventDateLine(d.startDateTime, d.timeZone)}
          </span>
          {venue[0] && (
            <span className={site.meta}>
              <IconPin size={16} /> {venue[0]}
            </span>
          )}
        </div>
      </div>

      {seated && seatMap.data ? (
        <Suspense fallback={preview ?? <p className={css.empty}>Loading the seat map…</p>}>
          <SeatPicker event={event} eventName={eventName} map={seatMap.data} states={seatStates.data?.states ?? ''} refresh={refreshStates} />
        </Suspense>
      ) : (
        preview
      )}

      <div className={css.list}>
        {types.length === 0 && <p className={css.empty}>Tickets for this event are not on sale yet.</p>}
        {types.map((t) => {
          const state = ticketState(t, event);
          const quantity = quantityOf(t.id);
          const onSale = state === 'onSale';
          return (
            <article
              key={t.id}
              className={[css.ticket, !onSale && css.off, quantity > 0 && css.selected].filter(Boolean).join(' ')}
              data-testid={`ticket-type-${t.details.name}`}
            >
              <div>
                <h2 className={css.name}>{t.details.name}</h2>
                {t.details.details && <p className={css.desc}>{t.details.details}</p>}
                <div className={css.row}>
                  <span className={css.price}>
                    {money(t.details.allInPrice)}
                    {t.details.allInPrice !== t.details.price && <span className={css.inclFees}> incl. fees · ticket {money(t.details.price)}</span>}
                  </span>
                  {statusPill(state, t, d.timeZone)}
                  {onSale && <span className={css.limits}>{limitsText(t)}</span>}
                </div>
              </div>
              <div className={css.control}>
                {seatedIds.has(t.id) ? (
                  <span className={css.limits} data-testid={`seated-${t.details.name}`}>
                    {quantity > 0 ? `${quantity} seat${quantity === 1 ? '' : 's'} chosen` : 'Choose seats on the map'}
                  </span>
                ) : (
                <Stepper
                  label={t.details.name}
                  value={quantity}
                  onIncrement={() => increment(t)}
                  onDecrement={() => decrement(t)}
                  canIncrement={onSale && nextUp(t, quantity) <= stepperMax(t)}
                  canDecrement={quantity > 0}
                  testId={`qty-${t.details.name}`}
                />
                )}
              </div>
              {state === 'soldOut' && d.waitlist === true && <JoinWaitlist tenantId={event.tenantId} eventId={event.id} ticketType={t} />}
            </article>
          );
        })}
      </div>

      <div className={css.bar}>
        <div className={css.barInner}>
          <div>
            <div className={css.barCount}>
              {count} ticket{count === 1 ? '' : 's'} selected
            </div>
            <div className={`${css.barTotal} ${pricing ? css.barStale : ''}`} data-testid="bar-total" aria-busy={pricing} aria-live="polite">
              {total !== null ? money(total) : price.isError ? '—' : '…'}
              {count > 0 && (
                <>
                  {' '}
                  <span className={css.barNote}>incl. fees</span>
                </>
              )}
            </div>
          </div>
          {count > 0 ? (
            <ButtonLink to={`/${eventName}/cart`} size="lg" data-testid="view-cart">
              VIEW CART <IconArrowRight size={18} />
            </ButtonLink>
          ) : (
            <Button size="lg" disabled data-testid="view-cart">
              VIEW CART
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}
