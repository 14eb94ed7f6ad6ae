import { isRichDescription } from '@marquee/core';
import { useMemo, useState } from 'react';
import { useSiteContext } from '../../../../shared/site-context';
import { ButtonLink } from '../kit/button';
import { Card } from '../kit/card';
import { IconArrowRight, IconCalendar, IconHeart, IconPin, IconShield } from '../kit/icons';
import { Notice } from '../kit/notice';
import { menuTicketTypes, offSaleLabel, ticketState, withCapacityCap } from '../../cart/cart-rules';
import { eventBadge, eventDay, eventTime, money, shortMoment, venueLines } from '../format';
import { CovidModal } from './covid-modal';
import { EventCover } from './event-cover';
import { Lazy } from '../../site/site-router';
import { publishedEventPage } from '../published-page';
import { usePublishedPage } from '../queries';
import { EVENT_CANCELLED, eventCancelledBody, isCancelled, useEventOutlet } from './event-layout';
import css from './event-home.module.css';

/** /{eventName}/ : the event home (spec: reports-payouts-checkout §2). */
export function EventHomePage() {
  const outlet = useEventOutlet();
  const { eventName } = outlet;
  // What is left of each ticket type never exceeds what the event can still sell.
  const event = useMemo(() => withCapacityCap(outlet.event), [outlet.event]);
  const organiser = useSiteContext().tenant?.name ?? '';
  const cancelled = isCancelled(event);
  const d = event.details;
  const [covidOpen, setCovidOpen] = useState(false);
  const badge = eventBadge(d.startDateTime, d.timeZone);
  const venue = venueLines(d);
  // Issue 15: the all-in price (fees the buyer pays included), as the server priced it.
  const prices = event.ticketTypes.map((t) => t.details.allInPrice);
  const withFees = event.ticketTypes.some((t) => t.details.allInPrice !== t.details.price);
  const from = prices.length ? Math.min(...prices) : null;
  const endTime = d.endDateTime ? eventTime(d.endDateTime, d.timeZone) : '';
  // issue 10: an event with a published page shows it, with the live ticket menu in it.
  const published = usePublishedPage(eventName);
  if (published.isPending) return null;
  // Its own chunk (with the ticket menu): the default home's first load does not carry it.
  if (published.data && !cancelled) return <Lazy of={publishedEventPage} page={published.data} />;

  return (
    <>
      <section className={css.hero}>
        <div className={d.coverImageUrl ? `${css.heroInner} ${css.heroInnerCover}` : css.heroInner}>
          {badge ? (
            <div className={css.badge} aria-hidden="true">
              <div className={css.badgeMonth}>{badge.month}</div>
              <div className={css.badgeDay}>{badge.day}</div>
            </div>
          ) : (
            <span />
          )}
          <div>
            <span className={css.kicker}>{cancelled ? 'Cancelled' : d.status === 'draft' ? 'Preview' : 'Live event'}</span>
            <h1 className={css.title} data-testid="event-name">
              {d.name}
            </h1>
            <div className={css.facts}>
              <span className={css.fact} data-testid="event-date">
                <IconCalendar size={18} />
                {eventDay(d.startDateTime, d.timeZone)}
                {d.startDateTime && ` · ${eventTime(d.startDateTime, d.timeZone)}`}
              </span>
              {venue[0] && (
                <span className={css.fact}>
                  <IconPin size={18} />
                  {venue[0]}
                  {d.city && d.venueName ? `, ${d.city}` : ''}
                </span>
              )}
            </div>
            {!cancelled && d.status !== 'draft' && (
              <div className={css.ctaRow}>
                <ButtonLink to={`/${eventName}/tickets`} variant="light" size="lg" data-testid="get-tickets">
                  Get Tickets <IconArrowRight size={18} />
                </ButtonLink>
                {from !== null && (
                  <span className={css.from}>
                    from <strong>{money(from)}</strong>
                    {withFees && ' incl. fees'}
                  </span>
                )}
              </div>
            )}
          </div>
          <EventCover details={d} className={css.cover} />
        </div>
      </section>

      <div className={css.body}>
        <div className={css.column}>
          {cancelled && (
            <Notice kind="warning" data-testid="event-cancelled">
              <strong>{EVENT_CANCELLED}</strong>
              <br />
              {eventCancelledBody(organiser)}
              {d.contactEmail && (
                <>
                  <br />
                  Questions? Write to the organiser: <a href={`mailto:${d.contactEmail}`} data-testid="organiser-contact">{d.contactEmail}</a>
                </>
              )}
            </Notice>
          )}
          <Card title="About this event">
            {d.description && isRichDescription(d.description) ? (
              // Sanitised by the server with the policies' allow-list (modules/events cleanDescription).
              <div className={css.aboutRich} data-testid="event-description" dangerouslySetInnerHTML={{ __html: d.description }} />
            ) : (
              <p className={css.about} data-testid="event-description">
                {d.description || 'More details about this event will be announced soon.'}
              </p>
            )}
            {d.covidSafety && (
              <div className={css.safety}>
                <IconShield size={18} />
                <span>
                  This event follows a COVID safety protocol.{' '}
                  <button type="button" className={css.linkButton} onClick={() => setCovidOpen(true)}>
                    Read the protocol
                  </button>
                </span>
              </div>
            )}
            {event.settings.charity && (
              <div className={css.safety} data-testid="event-charity">
                <IconHeart size={18} />
                <span>
                  This event supports <strong>{event.settings.charity.name}</strong>: you can add a donation at checkout.
                </span>
              </div>
            )}
          </Card>
          {event.ticketTypes.length > 0 && (
            <Card title="Tickets" data-testid="ticket-preview">
              <ul className={css.tickets}>
                {menuTicketTypes(event).map((t) => {
                    const off = offSaleLabel(ticketState(t, event), t, (iso) => shortMoment(iso, d.timeZone));
                    return (
                      <li key={t.id} className={css.ticketRow}>
                        <div>
                          <div className={css.ticketName}>{t.details.name}</div>
                          {t.details.details && <div className={css.infoLine}>{t.details.details}</div>}
                        </div>
                        <div className={css.ticketPrice}>
                          {money(t.details.allInPrice)}
                          {t.details.allInPrice !== t.details.price && <span className={css.inclFees}>incl. fees · ticket {money(t.details.price)}</span>}
                          {off && <span className={css.ticketOff}>{off}</span>}
                        </div>
                      </li>
                    );
                  })}
              </ul>
            </Card>
          )}
        </div>
        <Card as="aside" title="Event details" className={css.aside}>
          <div className={css.infoList}>
            <div className={css.info}>
              <span className={css.infoIcon}>
                <IconCalendar size={20} />
              </span>
              <div>
                <div className={css.infoLabel}>Date and time</div>
                <div className={css.infoValue}>{eventDay(d.startDateTime, d.timeZone)}</div>
                {d.startDateTime && (
                  <div className={css.infoLine}>
                    {eventTime(d.startDateTime, d.timeZone)}
                    {endTime && ` – ${endTime}`}
                  </div>
                )}
              </div>
            </div>
            {venue.length > 0 && (
              <div className={css.info}>
                <span className={css.infoIcon}>
                  <IconPin size={20} />
                </span>
                <div>
                  <div className={css.infoLabel}>Location</div>
                  <div className={css.infoValue}>{venue[0]}</div>
                  {venue.slice(1).map((line) => (
                    <div key={line} className={css.infoLine}>
                      {line}
                    </div>
                  ))}
                </div>
              </div>
            )}
          </div>
          {!cancelled && d.status !== 'draft' && (
            <div className={css.sideCta}>
              <ButtonLink to={`/${eventName}/tickets`} block size="lg">
                Get Tickets
              </ButtonLink>
            </div>
          )}
        </Card>
      </div>
      <CovidModal opened={covidOpen} text={d.covidSafetyText} onClose={() => setCovidOpen(false)} />
    </>
  );
}
