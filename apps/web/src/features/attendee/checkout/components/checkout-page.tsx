import { M_SITE as M, PRICE_ERRORS, assertNever, domainCodeAmong, placeOrderErrorOf, type CartProblem, type TAttendeeForm } from '@marquee/core';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from '../../site/site-router';
import { domainCodeOf, errorCode, isApiError, isBadInput, isNotFound } from '../../../../ui/api-client';
import { useSiteSession } from '../../site/site-session';
import { trackBeginCheckout } from '../../cart/analytics';
import { priceCart } from '../../cart/api';
import { checkCart, currentItems } from '../../cart/cart-rules';
import { cartLines, cartSubtotal, cartTicketCount, setCart, useCart } from '../../cart/cart-store';
import { Breakdown } from '../../cart/components/breakdown';
import { usePrice } from '../../cart/queries';
import { useCartChecks, useCurrentCart } from '../../cart/use-cart-checks';
import { CovidModal } from '../../event-site/components/covid-modal';
import { useEventOutlet } from '../../event-site/components/event-layout';
import site from '../../event-site/components/site.module.css';
import { eventDateLine, localTime, money } from '../../event-site/format';
import { Button, ButtonLink } from '../../event-site/kit/button';
import { Card } from '../../event-site/kit/card';
import { IconArrowLeft, IconMail, IconShield } from '../../event-site/kit/icons';
import { Notice } from '../../event-site/kit/notice';
import { toast } from '../../event-site/kit/toast';
import { useFreshEvent } from '../../event-site/queries';
import { createOrder, fetchAttendeeForm, holdCart } from '../api';
import { attendeeLinesOf, fitAttendees, formAsks, toRequest, type AttendeeErrors, type AttendeeValues } from '../attendee-values';
import { getContactDraft, getPendingOrder, saveContactDraft, savePendingOrder, type PendingOrder } from '../checkout-storage';
import { emptyContact, toOrderContact, useContactForm, type ContactValues } from '../use-contact-form';
import { useDonation } from '../use-donation';
import { embedReturnUrls, goToPayment } from '../../site/embed';
import { AvailabilityIssueModal, ContinueToPaymentModal, ProcessingPaymentModal } from './checkout-modals';
import { HoldTimer } from './hold-timer';
import { ContactSections } from './contact-sections';
import { DiscountBox } from './discount-box';
import { DonationBox } from './donation-box';
import { SeatMap } from './seat-map';
import { seatHoldRef, setSeatHold } from '../../../seating/seat-store';
import css from './checkout.module.css';

/** How long PLACE ORDER waits for the checkout's hold still on its way (a slow network), before placing without it. */
const HOLD_WAIT_MS = 10_000;

// Issue 24: the attendees' details and the organiser's questions load with the questions, only for an event that asks.
const loadAttendeeDetails = () => import('./attendee-details');
const AttendeeDetails = lazy(loadAttendeeDetails);

const DISCOUNT_TOAST_MS = 3000; // spec §9 3 s discount
const PRINT_AT_HOME = 'Print At Home (Email)'; // spec §9 the only delivery option

export type CheckoutLocationState = { fromCart?: boolean } | null;

/**
 * /{eventName}/account (spec: reports-payouts-checkout §2): reachable only from the cart, or when
 * the payment page sends the buyer back to the draft this browser holds; otherwise the ticket menu.
 */
export function CheckoutPage() {
  const { eventName } = useEventOutlet();
  const location = useLocation();
  const [search] = useSearchParams();
  const items = useCart(eventName);
  const pending = useMemo(() => getPendingOrder(eventName), [eventName]);
  const returning = search.get('payment') === 'cancelled' && pending !== null;
  const fromCart = (location.state as CheckoutLocationState)?.fromCart === true;
  if ((!fromCart && !returning) || items.length === 0) return <Navigate to={`/${eventName}/tickets`} replace />;
  return <Checkout pending={pending} returning={returning} />;
}

function Checkout({ pending, returning }: { pending: PendingOrder | null; returning: boolean }) {
  const outlet = useEventOutlet();
  const navigate = useNavigate();
  const { eventName } = outlet;
  const fresh = useFreshEvent(outlet.event, eventName);
  const { event, fresh: isFresh } = fresh;
  // Your Basket shows the names and prices the event has now: the ones the server charges.
  const items = useCurrentCart(eventName, event, isFresh);
  const validation = useCartChecks({ event, eventName, items, fresh: isFresh });
  const { user } = useSiteSession();
  const d = event.details;

  // A waiting-list offer is held for the address it was sent to (issue 24): that one, whoever is signed in.
  const knownEmail = pending?.waitlist && pending.email ? pending.email : (user?.email ?? (returning ? (pending?.email ?? null) : null));
  // Read once: what the buyer typed before (back from the payment page) and the address we know.
  const [initial] = useState(() => initialContact(eventName, knownEmail));
  const form = useContactForm(initial);
  const { values, setField } = form;

  // The session answers after the first paint: a signed-in buyer's address is the one we use.
  useEffect(() => {
    if (knownEmail && values.email !== knownEmail) setField('email', knownEmail);
  }, [knownEmail, values.email, setField]);

  useEffect(() => {
    saveContactDraft(eventName, values);
  }, [eventName, values]);

  // Issue 21.8: the hold this browser has for the event: taken when the checkout opens (or the draft
  // of an earlier PLACE ORDER), counted down on the page, and replaced by PLACE ORDER.
  const [hold, setHold] = useState<PendingOrder | null>(pending);
  const [holdEnded, setHoldEnded] = useState(false);

  const [applied, setApplied] = useState<string | null>(returning ? (pending?.breakdown.discountCode ?? null) : null);
  // The optional donation to the event's charity; none when the event has no charity (any more).
  const charity = event.settings.charity;
  const donation = useDonation(returning ? (pending?.breakdown.donation ?? 0) : 0);
  const price = usePrice(eventName, items, applied, isFresh, charity ? donation.priced : 0);

  // A code that stops working (its last use went to someone else) is cleared, as an invalid one is.
  // A donation the server refuses (the event no longer has that charity) is taken off, and the
  // event read again so the donation offer follows it.
  const resetDonation = donation.reset;
  const refetchEvent = fresh.refetch;
  useEffect(() => {
    const e = price.error;
    if (!isApiError(e)) return;
    const dropCode = () => {
      setApplied(null);
      toast.error(M.invalidInput, M.invalidInputBody, { duration: DISCOUNT_TOAST_MS, id: 'discount' });
    };
    const dropDonation = () => {
      resetDonation();
      void refetchEvent();
      toast.error(e.message, M.donationTakenOff, { id: 'donation' });
    };
    const code = domainCodeAmong(e.domainCode, PRICE_ERRORS);
    switch (code) {
      case 'DISCOUNT_INVALID':
        if (applied) dropCode();
        return;
      case 'DONATION_NO_CHARITY':
      case 'DONATION_CHARITY_CHANGED':
        dropDonation();
        return;
      case null:
        // Input the server could not read (a code too long): the field it names goes, as a refused one does.
        if (errorCode(e) !== 'VALIDATION') return;
        if (applied && e.fields.discountCode) dropCode();
        else if (e.fields.donation) dropDonation();
        return;
      default:
        return assertNever(code);
    }
  }, [price.error, applied, resetDonation, refetchEvent]);

  const began = useRef(false);
  useEffect(() => {
    if (began.current || !price.data || price.isPlaceholderData) return;
    began.current = true;
    trackBeginCheckout(d.name, items, price.data.totalAmount, price.data.discountCode);
  }, [price.data, price.isPlaceholderData, d.name, items]);

  // Issue 24: what the event asks each attendee and the order; the form's code loads only when it asks this cart something.
  const [attendeeForm, setAttendeeForm] = useState<TAttendeeForm | null>(null);
  useEffect(() => {
    const ctrl = new AbortController();
    fetchAttendeeForm(event.tenantId, event.id, ctrl.signal)
      .then(setAttendeeForm)
      .catch(() => setAttendeeForm(null));
    return () => ctrl.abort();
  }, [event.tenantId, event.id]);
  const attendeeLinesKey = JSON.stringify(cartLines(items));
  const attendeeLines = useMemo(() => attendeeLinesOf(JSON.parse(attendeeLinesKey) as Array<{ ticketTypeId: string; quantity: number }>), [attendeeLinesKey]);
  const asks = formAsks(attendeeForm, attendeeLines.map((l) => l.ticketTypeId));
  const [attendeeInput, setAttendeeInput] = useState<AttendeeValues>({ answers: {}, attendees: [] });
  const attendeeValues = useMemo(() => fitAttendees(attendeeInput, attendeeLines), [attendeeInput, attendeeLines]);
  const [attendeeErrors, setAttendeeErrors] = useState<AttendeeErrors>({});
  const changeAttendees = (next: AttendeeValues) => {
    setAttendeeInput(next);
    // Once the buyer was told what is wrong, each change checks again (the messages go as they are fixed).
    if (attendeeForm && Object.keys(attendeeErrors).length)
      void loadAttendeeDetails().then((m) => setAttendeeErrors(m.checkAttendees(attendeeForm, attendeeLines, next)));
  };
  const ticketNames = useMemo(() => Object.fromEntries(items.map((i) => [i.id, i.ticketName])), [items]);

  const [issue, setIssue] = useState<CartProblem[] | null>(null);
  const [covidOpen, setCovidOpen] = useState(false);
  const [covidAgreed, setCovidAgreed] = useState(false);
  const [processing, setProcessing] = useState(false);
  // Issue 28: a plain <iframe> that may not send the top window to the payment page offers a link instead.
  const [payLink, setPayLink] = useState<string | null>(null);

  // Back from the payment page with the browser's Back button: the page comes out of the
  // back/forward cache as it was left, with Processing Payment still open.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) setProcessing(false);
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  // spec §8: tickets that ran out since the cart was filled open 'Ticket Availability Issue'.
  // Opened once per new set of problems (lines no longer on sale are removed, with their own message).
  const problems = useRef(validation.problems);
  problems.current = validation.problems;
  const problemsKey = isFresh ? validation.problems.map((p) => `${p.ticketTypeId}:${p.kind}`).join('|') : '';
  useEffect(() => {
    if (problemsKey && problems.current.some((p) => p.kind !== 'unavailable')) setIssue(problems.current);
  }, [problemsKey]);

  const applyDiscount = async (code: string): Promise<boolean> => {
    try {
      await priceCart(eventName, { lines: cartLines(items), discountCode: code });
      setApplied(code);
      toast.success(M.discountApplied, undefined, { duration: DISCOUNT_TOAST_MS, id: 'discount' });
      return true;
    } catch (e) {
      if (domainCodeOf(e) === 'DISCOUNT_INVALID' || errorCode(e) === 'VALIDATION') {
        setApplied(null);
        toast.error(M.invalidInput, M.invalidInputBody, { duration: DISCOUNT_TOAST_MS, id: 'discount' });
      } else toast.error('The discount could not be checked', isApiError(e) ? e.message : undefined);
      return false;
    }
  };

  // Issue 21.8: opening the checkout holds the cart (a changed cart is held again in place of the
  // earlier hold), so the tickets are the buyer's while they fill in the form. Back from the payment
  // page, the draft placed then is the hold. Without a hold PLACE ORDER still works as before.
  const cartKey = JSON.stringify(cartLines(items));
  const holding = useRef<string | null>(null);
  // The hold being taken: PLACE ORDER waits for it, so a quick buyer's own hold is not counted
  // against them (on a slow network the last ticket answered 'no longer available').
  const holdInFlight = useRef<Promise<PendingOrder | null> | null>(null);
  useEffect(() => {
    if (returning || !isFresh || items.length === 0 || validation.blocked || holding.current === cartKey) return;
    const live = hold && Date.parse(hold.holdExpiresAt) > Date.now() ? hold : null;
    if (live && JSON.stringify(cartLines(live.items)) === cartKey) return;
    holding.current = cartKey;
    holdInFlight.current = holdCart(event.tenantId, event.id, { lines: cartLines(items), draft: live ? { orderUID: live.orderUID, token: live.token } : null, seatHold: seatHoldRef(event.id) })
      .then((answer) => {
        const next: PendingOrder = { orderUID: answer.orderUID, token: answer.orderToken, eventName, email: '', holdExpiresAt: answer.holdExpiresAt, breakdown: answer.breakdown, items };
        savePendingOrder(next);
        setHold(next);
        setHoldEnded(false);
        return next;
      })
      .catch((e: unknown) => {
        if (!isApiError(e)) return null;
        // The waiting room refused the hold (not this visitor's turn yet, or the turn's orders are
        // used): no hold; PLACE ORDER says so and leads to the line, as it did before the hold.
        if (e.domainCode === 'WAITING_ROOM_REQUIRED' || e.domainCode === 'WAITING_ROOM_ORDER_LIMIT') return null;
        const code = isNotFound(e) ? 'EVENT_NOT_ON_SALE' : placeOrderErrorOf(e.domainCode);
        if (code === 'CART_CONFLICT' || code === 'CART_CHANGED') void showAvailabilityIssue();
        else if (code === 'SEAT_HOLD_EXPIRED' || code === 'SEATS_DO_NOT_MATCH_CART') seatsGone(e.message);
        else if (code === 'EVENT_NOT_ON_SALE') void outlet.refetch();
        return null;
      });
    // Held once per cart: the hold, the event and the items are read as they are when the cart changes.
  }, [cartKey, isFresh, returning, validation.blocked]);

  const seatsGone = (message: string) => {
    setSeatHold(event.id, null);
    toast.error('Please choose your seats again', message, { id: 'seats' });
    void navigate(`/${eventName}/tickets`);
  };

  const showAvailabilityIssue = async () => {
    const ev = await fresh.refetch();
    // Names and prices follow the menu as it is now.
    setCart(eventName, currentItems(ev, items));
    setIssue(checkCart(ev, items).problems);
  };

  const submit = async () => {
    setProcessing(true);
    const origin = window.location.origin;
    // At most HOLD_WAIT_MS: a hold that never answers does not keep the buyer from placing the order.
    const inFlight = holdInFlight.current;
    const waited = inFlight ? await Promise.race([inFlight, new Promise<null>((resolve) => setTimeout(() => resolve(null), HOLD_WAIT_MS))]) : null;
    const held = waited ?? hold;
    try {
      const answer = await createOrder(event.tenantId, event.id, {
        order: { ...toOrderContact(values), discountCode: applied, donation: charity ? (donation.cents ?? 0) : 0 },
        lines: cartLines(items),
        // Issue 28: from the widget, back to the organiser's page (an allowed website; the server checks it).
        ...(embedReturnUrls(eventName) ?? { successUrl: `${origin}/${eventName}/success`, cancelUrl: `${origin}/${eventName}/account?payment=cancelled` }),
        draftOrderUID: held?.orderUID ?? null,
        source: 'online',
        seatHold: seatHoldRef(event.id),
        ...(asks ? toRequest(attendeeValues) : {}),
      });
      savePendingOrder({
        orderUID: answer.orderUID,
        token: answer.orderToken,
        eventName,
        email: values.email.trim().toLowerCase(),
        holdExpiresAt: answer.holdExpiresAt,
        breakdown: answer.breakdown,
        items,
      });
      // spec §4 Checkout: the Processing Payment modal stays while the browser goes to the payment URL
      // (from the widget, in the top window: the gateway's page may not be framed).
      if (!goToPayment(answer.message, { uid: answer.orderUID, token: answer.orderToken })) {
        setProcessing(false);
        setPayLink(answer.message);
      }
    } catch (e) {
      setProcessing(false);
      // spec §8: order creation failures are logged; the buyer is also told what to do next.
      console.error('create order failed', e);
      if (!isApiError(e)) {
        toast.error('Your order could not be placed', 'Please try again.');
        return;
      }
      // An event removed while the buyer was here (NOT_FOUND) is the same as one that stopped selling.
      const code = isNotFound(e) ? 'EVENT_NOT_ON_SALE' : placeOrderErrorOf(e.domainCode);
      switch (code) {
        case 'WAITING_ROOM_REQUIRED':
          // The on-sale's waiting room is on and this buyer's turn has not come: into the line, back here after.
          void navigate(`/${eventName}/line?next=account`);
          return;
        case 'EVENT_NOT_ON_SALE':
          // The event stopped selling while the buyer was here (unpublished, cancelled or removed): say so,
          // and read it again so the page shows what it is now (a cancelled event's notice).
          toast.error('Your order could not be placed', M.eventNotOnSale, { id: 'not-on-sale' });
          void outlet.refetch();
          return;
        case 'CART_CONFLICT':
        case 'CART_CHANGED':
          await showAvailabilityIssue();
          return;
        case 'DISCOUNT_INVALID':
          setApplied(null);
          toast.error(M.invalidInput, M.invalidInputBody, { duration: DISCOUNT_TOAST_MS, id: 'discount' });
          return;
        case 'DONATION_NO_CHARITY':
        case 'DONATION_CHARITY_CHANGED':
          donation.reset();
          void fresh.refetch();
          toast.error(e.message, M.donationTakenOff, { id: 'donation' });
          return;
        case 'WAITLIST_OFFER_NOT_YOURS':
          // A waiting-list offer bought with another address (issue 24): the e-mail field says which one.
          form.setServerErrors({ email: e.message });
          focusFirstError();
          return;
        case 'SEAT_HOLD_EXPIRED':
        case 'SEATS_DO_NOT_MATCH_CART':
          // Issue 27: the seats ran out (or differ from the cart): back to the map to choose them again.
          seatsGone(e.message);
          return;
        case 'WAITING_ROOM_ORDER_LIMIT':
          // This turn in line has placed the orders one turn allows (issue 21 §1): the server says so.
          toast.error('Your order could not be placed', e.message, { id: 'waiting-room-limit' });
          return;
        case null:
          break;
        default:
          return assertNever(code);
      }
      // Issue 24: an answer the server refused (the questions changed meanwhile): its own message at its field.
      const answerFields = isBadInput(e) ? Object.fromEntries(Object.entries(e.fields).filter(([k]) => k.startsWith('answers') || k.startsWith('attendees'))) : {};
      if (Object.keys(answerFields).length) {
        setAttendeeErrors(answerFields);
        focusFirstError();
        return;
      }
      if (isBadInput(e) && Object.keys(form.setServerErrors(e.fields)).length) {
        focusFirstError();
        return;
      }
      toast.error('Your order could not be placed', e.message);
    }
  };

  // A double click on PLACE ORDER NOW is one click: the second one arrives while the first is still
  // checking the form (before the button is disabled or the COVID modal is open) and is ignored.
  const placing = useRef(false);
  const placeOrder = async () => {
    if (placing.current) return;
    placing.current = true;
    try {
      const errors = await form.validateAll();
      const donationWrong = !!charity && donation.cents === null;
      if (donationWrong) donation.check();
      let answersWrong = false;
      if (asks && attendeeForm) {
        const found = (await loadAttendeeDetails()).checkAttendees(attendeeForm, attendeeLines, attendeeValues);
        setAttendeeErrors(found);
        answersWrong = Object.keys(found).length > 0;
      }
      if (Object.keys(errors).length || donationWrong || answersWrong) {
        focusFirstError();
        return;
      }
      if (d.covidSafety && !covidAgreed) {
        setCovidOpen(true);
        return;
      }
      await submit();
    } finally {
      placing.current = false;
    }
  };

  const blocked = !isFresh || validation.blocked || processing;
  const count = cartTicketCount(items);
  // Issue 15: a hold still running is counted down on the page; its end updates the notice.
  const holdExpired = holdEnded || (hold ? Date.parse(hold.holdExpiresAt) <= Date.now() : false);
  const timedHold = hold && (!holdExpired || holdEnded) ? hold : null;

  return (
    <div className={site.container}>
      <div className={site.pageHead}>
        <ButtonLink to={`/${eventName}/cart`} variant="ghost" size="sm" className={site.backButton} data-testid="back-to-cart">
          <IconArrowLeft size={16} /> GO BACK TO CART
        </ButtonLink>
        <h1 className={site.pageTitle}>Checkout</h1>
      </div>
      <div className={site.columns}>
        <div className={site.stack}>
          {returning && pending && (
            <Notice kind={holdExpired ? 'warning' : 'info'} data-testid="payment-returned">
              {holdExpired ? (
                <>Your payment was not completed and your reservation has expired. Place your order again to reserve your tickets.</>
              ) : (
                <>
                  Your payment was not completed. Your tickets are held for you until <strong>{localTime(pending.holdExpiresAt)}</strong>. Place
                  your order again to pay.
                </>
              )}
            </Notice>
          )}
          {timedHold && <HoldTimer key={timedHold.orderUID} expiresAt={timedHold.holdExpiresAt} onEnd={() => setHoldEnded(true)} />}
          <SeatMap eventName={eventName} eventTitle={d.name} listed={d.seatMap !== null} />
          <ContactSections values={values} errors={form.errors} setField={form.setField} blurField={form.blurField} emailLocked={!!knownEmail} />
          {asks && attendeeForm && (
            <Suspense fallback={null}>
              <AttendeeDetails
                step={3}
                form={attendeeForm}
                lines={attendeeLines}
                ticketNames={ticketNames}
                values={attendeeValues}
                errors={attendeeErrors}
                onChange={changeAttendees}
              />
            </Suspense>
          )}
          <Card>
            <div className={css.sectionHead}>
              <span className={css.step}>{asks ? 4 : 3}</span>
              <h2 className={css.sectionTitle}>Choose Delivery Option</h2>
            </div>
            <label className={css.delivery}>
              <input type="radio" name="delivery" checked readOnly />
              <IconMail size={22} />
              <span>
                <span className={css.deliveryName}>{PRINT_AT_HOME}</span>
                <br />
                <span className={css.deliveryNote}>Your tickets arrive by e-mail as a PDF.</span>
              </span>
              <span className={css.deliveryFee}>No additional fee</span>
            </label>
            {event.settings.emailDeliveryVerbiage && <p className={css.verbiage}>{event.settings.emailDeliveryVerbiage}</p>}
          </Card>
          {charity && <DonationBox charityName={charity.name} donation={donation} disabled={processing} />}
        </div>

        <aside className={site.sticky}>
          <Card title="Your Basket" data-testid="your-basket">
            <div className={css.basketEvent}>
              <strong>{d.name}</strong>
              <br />
              {eventDateLine(d.startDateTime, d.timeZone)}
            </div>
            <ul className={css.basket}>
              {items.map((i) => (
                <li key={i.id} className={css.basketLine}>
                  <span>
                    <span className={css.basketName}>{i.ticketName}</span>
                    <br />
                    <span className={css.basketQty}>
                      {i.quantity} × {money(i.price)}
                    </span>
                  </span>
                  <span className={css.basketAmount}>{money(i.price * i.quantity)}</span>
                </li>
              ))}
            </ul>
          </Card>
          <Card title="Order Summary" data-testid="order-summary">
            <DiscountBox key={applied ?? ''} applied={applied} onApply={applyDiscount} onRemove={() => setApplied(null)} disabled={processing} />
            <Breakdown breakdown={price.data} stale={price.isFetching} fallbackSubtotal={cartSubtotal(items)} fallbackCount={count} />
            {isFresh && validation.blocked && (
              <div className={css.placeOrder}>
                <Notice kind="warning">{M.updateCartToProceed}</Notice>
              </div>
            )}
            <div className={css.placeOrder}>
              <Button block size="lg" onClick={() => void placeOrder()} disabled={blocked} data-testid="place-order">
                PLACE ORDER NOW
              </Button>
            </div>
            <p className={css.secure}>
              <IconShield size={14} /> Secure payment on the next page
            </p>
            <p className={css.terms}>
              By placing your order you agree to the{' '}
              <a href="/policies/terms" target="_blank" rel="noreferrer">
                terms
              </a>{' '}
              and the{' '}
              <a href="/policies/refund-policy" target="_blank" rel="noreferrer">
                refund policy
              </a>
              .
            </p>
          </Card>
        </aside>
      </div>

      <AvailabilityIssueModal opened={issue !== null} problems={issue ?? []} cartPath={`/${eventName}/cart`} onClose={() => setIssue(null)} />
      <ProcessingPaymentModal opened={processing} />
      <ContinueToPaymentModal url={payLink} />
      <CovidModal
        opened={covidOpen}
        text={d.covidSafetyText}
        onClose={() => setCovidOpen(false)}
        onAgree={() => {
          setCovidOpen(false);
          setCovidAgreed(true);
          void submit();
        }}
      />
    </div>
  );
}

function initialContact(eventName: string, knownEmail: string | null): ContactValues {
  const base = emptyContact(knownEmail ?? '');
  const draft = getContactDraft(eventName);
  if (!draft) return base;
  const merged = { ...base };
  for (const key of Object.keys(base) as (keyof ContactValues)[]) {
    const v = draft[key];
    if (typeof v === typeof base[key]) (merged as Record<string, unknown>)[key] = v;
  }
  if (knownEmail) merged.email = knownEmail;
  return merged;
}

/** Focuses the first field in error. The errors were set from an async step, so React may paint them a few frames later. */
function focusFirstError(framesLeft = 30) {
  requestAnimationFrame(() => {
    const el = document.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!el) {
      if (framesLeft > 0) focusFirstError(framesLeft - 1);
      return;
    }
    el.focus();
    el.scrollIntoView({ block: 'center', behavior: 'smooth' });
  });
}
