import { useQuery } from '../../site/site-query';
import { useEffect } from 'react';
import { useSiteContext } from '../../../../shared/site-context';
import { Link } from '../../site/site-router';
import { IconArrowRight, IconCalendar, IconPin, IconTicket } from '../../event-site/kit/icons';
import { Spinner } from '../../event-site/kit/notice';
import { eventBadge, eventDateLine, money } from '../../event-site/format';
import site from '../../event-site/components/site.module.css';
import type { TPublicEventSummary } from '@marquee/core';
import { fetchPublicEvents, publicEventsQueryKey } from '../api';
import css from './public-events.module.css';

/** The tenant host's /events for the public (issue 13): the organiser's upcoming events, soonest first. */
export function PublicEventsPage() {
  const organiser = useSiteContext().tenant?.name ?? '';
  const query = useQuery({ queryKey: publicEventsQueryKey, queryFn: fetchPublicEvents, staleTime: 30_000 });
  const events = query.data?.result ?? [];

  useEffect(() => {
    document.title = `Upcoming events · ${organiser}`;
  }, [organiser]);

  return (
    <div className={site.shell}>
      <header className={site.header}>
        <div className={site.headerInner}>
          <a href="/events" className={site.brand}>
            <span className={site.brandMark}>
              <IconTicket size={18} />
            </span>
            <span className={site.brandText}>
              <span className={site.brandEvent}>{organiser}</span>
            </span>
          </a>
        </div>
      </header>
      <main className={site.main}>
        <div className={site.container}>
          <div className={site.pageHead}>
            <h1 className={site.pageTitle}>Upcoming events</h1>
            <p className={site.pageSub}>Tickets for every upcoming event by {organiser}.</p>
          </div>
          {query.isPending ? (
            <div className={site.center} aria-busy="true">
              <Spinner large />
            </div>
          ) : events.length === 0 ? (
            <p className={css.empty} data-testid="no-events">
              There are no upcoming events right now. Please check back soon.
            </p>
          ) : (
            <ul className={css.grid} data-testid="public-events">
              {events.map((e) => (
                <EventCard key={e.urlName} event={e} />
              ))}
            </ul>
          )}
        </div>
      </main>
      <footer className={site.footer}>
        <div className={`${site.container} ${site.footerInner}`}>
          <span>
            © {new Date().getFullYear()} {organiser}
          </span>
          <span>Tickets by Marquee · Secure checkout</span>
        </div>
      </footer>
    </div>
  );
}

function EventCard({ event: e }: { event: TPublicEventSummary }) {
  const badge = eventBadge(e.startDateTime, e.timeZone);
  const cancelled = e.status === 'cancelled';
  const href = `/${e.urlName}/`;
  return (
    <li className={css.card} data-testid={`public-event-${e.urlName}`}>
      {/* A fixed 16:9 slot: the cover when there is one, else the date on the brand's gradient; nothing moves when it loads. */}
      <Link to={href} className={css.cover} tabIndex={-1} aria-hidden="true">
        {e.coverImageUrl ? (
          <img src={e.coverImageUrl} alt="" width={640} height={360} loading="lazy" decoding="async" />
        ) : (
          badge && (
            <span className={css.badge}>
              <span className={css.badgeMonth}>{badge.month}</span>
              <span className={css.badgeDay}>{badge.day}</span>
            </span>
          )
        )}
      </Link>
      <div className={css.body}>
        <h2 className={css.name}>
          <Link to={href}>{e.name}</Link>
        </h2>
        <div className={css.fact}>
          <IconCalendar size={16} />
          {eventDateLine(e.startDateTime, e.timeZone)}
        </div>
        {(e.venueName || e.city) && (
          <div className={css.fact}>
            <IconPin size={16} />
            {[e.venueName, e.city].filter(Boolean).join(', ')}
          </div>
        )}
        <div className={css.foot}>
          {cancelled ? (
            <span className={css.cancelled}>Cancelled</span>
          ) : (
            <span className={css.price}>{e.priceFrom !== null ? <>From <strong>{money(e.priceFrom)}</strong></> : 'Tickets soon'}</span>
          )}
          <Link to={href} className={css.more} aria-label={`${cancelled ? 'View' : 'Get tickets for'} ${e.name}`}>
            {cancelled ? 'View' : 'Get Tickets'} <IconArrowRight size={16} />
          </Link>
        </div>
      </div>
    </li>
  );
}
