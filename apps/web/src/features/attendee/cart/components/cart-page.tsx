import { M_SITE as M, type CartProblem, type TPublicTicketType } from '@marquee/core';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from '../../site/site-router';
import { Button, ButtonLink } from '../../event-site/kit/button';
import { Card } from '../../event-site/kit/card';
import { IconArrowRight, IconTicket, IconTrash } from '../../event-site/kit/icons';
import { Notice } from '../../event-site/kit/notice';
import { Stepper } from '../../event-site/kit/stepper';
import { toast } from '../../event-site/kit/toast';
import { CovidModal } from '../../event-site/components/covid-modal';
import { useEventOutlet } from '../../event-site/components/event-layout';
import site from '../../event-site/components/site.module.css';
import { eventDateLine, money } from '../../event-site/format';
import { useFreshEvent } from '../../event-site/queries';
import { trackRemoveFromCart, trackViewCart } from '../analytics';
import { canAdd, itemOf, nextDown, nextUp, stepperMax } from '../cart-rules';
import { cartSubtotal, cartTicketCount, setQuantity, type CartItem } from '../cart-store';
import { usePrice } from '../queries';
import { useCartChecks, useCurrentCart } from '../use-cart-checks';
import { useSeatHold } from '../../../seating/seat-store';
import { Breakdown } from './breakdown';
import css from './cart.module.css';

/** The line's §5 report: requested, available and excess quantity. */
export function ProblemNote({ problem }: { problem: CartProblem }) {
  const title = problem.kind === 'unavailable' ? M.ticketsRemoved : M.quantityLimitExceeded;
  let figures: string;
  if (problem.kind === 'belowMinimum') figures = `Requested ${problem.requested} · Minimum per order ${problem.available}`;
  else figures = `Requested ${problem.requested} · Available ${problem.available} · Excess ${problem.excess}`;
  return (
    <div className={css.problem} data-testid="line-problem">
      <Notice kind="error">
        <strong>{title}</strong>
        <span className={css.problemFigures}>{figures}</span>
      </Notice>
    </div>
  );
}

/** /{eventName}/cart (spec: reports-payouts-checkout §2 Cart page, §4 Cart, §5 Cart validation). */
export function CartPage() {
  const outlet = useEventOutlet();
  const { eventName } = outlet;
  // The cart decides on availability: fetch what is left now rather than trust a cached menu.
  const { event, fresh: isFresh } = useFreshEvent(outlet.event, eventName);
  // Names and prices as the event has them now, not as they were when the tickets were chosen.
  const items = useCurrentCart(eventName, event, isFresh);
  const seatHold = useSeatHold(event.id);
  const navigate = useNavigate();
  const [covidOpen, setCovidOpen] = useState(false);
  const validation = useCartChecks({ event, eventName, items, fresh: isFresh });
  const price = usePrice(eventName, items, null, isFresh);
  const d = event.details;
  const count = cartTicketCount(items);

  const viewed = useRef(false);
  useEffect(() => {
    // Once per visit, when the fresh cart has its items (they are read from the browser after hydration).
    if (!isFresh || viewed.current || !items.length) return;
    viewed.current = true;
    trackViewCart(d.name, items);
  }, [isFresh, items, d.name]);

  const typeOf = (id: string): TPublicTicketType | undefined => event.ticketTypes.find((t) => t.id === id);
  const problemOf = (id: string) => validation.problems.find((p) => p.ticketTypeId === id);

  const increment = (item: CartItem, t: TPublicTicketType) => {
    const next = nextUp(t, item.quantity);
    const check = canAdd(t, event, items, next);
    if (!check.ok) {
      toast.warning(M.quantityLimitExceeded, `Only ${check.remaining} ${t.details.name} ticket${check.remaining === 1 ? '' : 's'} remaining.`, {
        id: `limit-${t.id}`,
      });
      return;
    }
    setQuantity(eventName, itemOf(t), next);
  };

  const decrement = (item: CartItem, t: TPublicTicketType | undefined) => {
    const next = nextDown(t, item.quantity);
    trackRemoveFromCart(d.name, [{ ...item, quantity: item.quantity - next }]);
    setQuantity(eventName, item, next);
  };

  const remove = (item: CartItem) => {
    trackRemoveFromCart(d.name, [item]);
    setQuantity(eventName, item, 0);
  };

  // spec §5: CONTINUE is disabled when the cart is empty, nothing is left, the cart asks for more
  // than is left, or a line asks for more than its ticket type has.
  const blocked = !isFresh || validation.blocked;

  return (
    <div className={site.container}>
      <div className={site.pageHead}>
        <h1 className={site.pageTitle}>Your cart</h1>
      </div>
      <div className={site.columns}>
        <div className={site.stack}>
          <Card title="Ticket Details" data-testid="ticket-details">
            <div className={css.eventRow}>
              <span className={css.eventIcon}>
                <IconTicket size={22} />
              </span>
              <div>
                <div className={css.eventName}>{d.name}</div>
                <div className={css.eventDate} data-testid="cart-event-date">
                  {eventDateLine(d.startDateTime, d.timeZone)}
                </div>
              </div>
            </div>

            {items.length === 0 ? (
              <p className={css.empty} data-testid="cart-empty">
                Your cart is empty. Choose your tickets from the ticket menu.
              </p>
            ) : (
              <ul className={css.lines}>
                {items.map((item) => {
                  const t = typeOf(item.id);
                  // Issue 27: a seated line's quantity is its seats; they change on the map.
                  const seats = (seatHold?.seats ?? []).filter((s) => s.ticketTypeId === item.id);
                  const problem = problemOf(item.id);
                  return (
                    <li key={item.id} className={css.line} data-testid={`cart-line-${item.ticketName}`}>
                      <div className={css.lineGrid}>
                        <div className={css.lineInfo}>
                          <div className={css.lineName}>{item.ticketName}</div>
                          <div className={css.lineEach}>{money(item.price)} each</div>
                          {seats.length > 0 && (
                            <ul className={css.seats} data-testid={`cart-seats-${item.ticketName}`}>
                              {seats.map((s) => (
                                <li key={s.n}>{s.label}</li>
                              ))}
                            </ul>
                          )}
                        </div>
                        <div className={css.lineStepper}>
                          {seats.length > 0 ? (
                            <ButtonLink to={`/${eventName}/tickets`} variant="secondary" size="sm">
                              Change seats
                            </ButtonLink>
                          ) : (
                          <Stepper
                            label={item.ticketName}
                            value={item.quantity}
                            onIncrement={() => t && increment(item, t)}
                            onDecrement={() => decrement(item, t)}
                            canIncrement={!!t && nextUp(t, item.quantity) <= stepperMax(t)}
                            canDecrement={item.quantity > 0}
                            testId={`cart-qty-${item.ticketName}`}
                          />
                          )}
                        </div>
                        <div className={css.lineTotal}>{money(item.price * item.quantity)}</div>
                        <button type="button" className={css.remove} onClick={() => remove(item)} aria-label={`Remove ${item.ticketName}`}>
                          <IconTrash size={18} />
                        </button>
                      </div>
                      {problem && <ProblemNote problem={problem} />}
                    </li>
                  );
                })}
              </ul>
            )}

            {d.covidSafety && (
              <div className={css.covid}>
                <Notice kind="info" data-testid="covid-note">
                  This event follows a COVID safety protocol.{' '}
                  <button type="button" className={css.linkButton} onClick={() => setCovidOpen(true)}>
                    Read the COVID Safety Protocol
                  </button>
                </Notice>
              </div>
            )}

            {isFresh && (validation.blockReason === 'noCapacity' || validation.blockReason === 'overCapacity') && (
              <div className={css.blockHint}>
                <Notice kind="warning">
                  <strong>{M.insufficientCapacity}</strong> — only {Math.max(0, event.settings.remainingCapacity)} ticket
                  {event.settings.remainingCapacity === 1 ? ' is' : 's are'} left. Please update your ticket numbers.
                </Notice>
              </div>
            )}

            <div className={css.actions}>
              <ButtonLink to={`/${eventName}/tickets`} variant="secondary" data-testid="ticket-menu">
                TICKET MENU
              </ButtonLink>
              <ButtonLink to={`/${eventName}/`} variant="ghost">
                Back to Home
              </ButtonLink>
              <span className={css.spacer} />
              <Button
                size="lg"
                disabled={blocked}
                onClick={() => navigate(`/${eventName}/account`, { state: { fromCart: true } })}
                data-testid="continue"
              >
                CONTINUE <IconArrowRight size={18} />
              </Button>
            </div>
          </Card>
        </div>

        <aside className={site.sticky}>
          <Card title="Item Summary" data-testid="item-summary">
            <Breakdown breakdown={items.length ? price.data : undefined} stale={price.isFetching} fallbackSubtotal={cartSubtotal(items)} fallbackCount={count} />
            <p className={css.summaryNote}>Have a discount code? Apply it at checkout, where you review everything before you pay.</p>
          </Card>
        </aside>
      </div>
      <CovidModal opened={covidOpen} text={d.covidSafetyText} onClose={() => setCovidOpen(false)} />
    </div>
  );
}
