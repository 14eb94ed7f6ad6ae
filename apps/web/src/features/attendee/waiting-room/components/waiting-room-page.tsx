import type { TWaitingRoomPlace } from '@marquee/core';
import { useEffect, useState } from 'react';
import { useSearchParams } from '../../site/site-router';
import { errorMessage } from '../../../../ui/api-client';
import type { CheckoutLocationState } from '../../checkout/components/checkout-page';
import { useEventOutlet } from '../../event-site/components/event-layout';
import site from '../../event-site/components/site.module.css';
import { eventDateLine } from '../../event-site/format';
import { ButtonLink } from '../../event-site/kit/button';
import { Card } from '../../event-site/kit/card';
import { Notice, Spinner } from '../../event-site/kit/notice';
import { enterWaitingRoom } from '../api';
import css from './waiting-room.module.css';

/** Where an admitted visitor goes on: back where the line sent them from, else the ticket menu. */
const NEXT_PAGES = new Set(['tickets', 'cart', 'account']);

/** How often the page asks again: often near the front, gently further back. */
const refreshSeconds = (p: TWaitingRoomPlace) => Math.min(30, Math.max(3, Math.round(p.estimateSeconds / 10)));

export function estimateText(seconds: number): string {
  if (seconds < 60) return 'less than a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `about ${hours} hour${hours === 1 ? '' : 's'}${rest ? ` ${rest} minute${rest === 1 ? '' : 's'}` : ''}`;
}

/**
 * /{eventName}/line: the on-sale's waiting room (issue 13; ours: the spec has none). The place is
 * held by the server (a signed cookie), so a reload keeps it; the page asks again on its own.
 */
export function WaitingRoomPage() {
  const { event, eventName } = useEventOutlet();
  const [params] = useSearchParams();
  const next = NEXT_PAGES.has(params.get('next') ?? '') ? params.get('next')! : 'tickets';
  const [place, setPlace] = useState<TWaitingRoomPlace | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    enterWaitingRoom(event.tenantId, event.id)
      .then((p) => {
        if (cancelled) return;
        setPlace(p);
        setProblem(null);
        if (!p.admitted) timer = setTimeout(() => setTick((t) => t + 1), refreshSeconds(p) * 1000);
      })
      .catch((e: unknown) => {
        if (cancelled) return;
        setProblem(errorMessage(e));
        timer = setTimeout(() => setTick((t) => t + 1), 10_000);
      });
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [event.tenantId, event.id, tick]);

  const d = event.details;
  const opensAt = place?.opensAt ? new Date(place.opensAt) : null;
  const beforeOpening = opensAt !== null && opensAt.getTime() > Date.now();

  return (
    <div className={site.container}>
      <div className={css.wrap}>
        <Card className={css.card} data-testid="waiting-room">
          <p className={css.eyebrow}>{d.name}</p>
          <p className={css.when}>{eventDateLine(d.startDateTime, d.timeZone)}</p>
          {!place && !problem && (
            <div className={css.loading}>
              <Spinner large label="Finding your place in line" />
            </div>
          )}
          {place && (place.admitted ? (
            <div role="status" aria-live="polite">
              <h1 className={css.title}>It's your turn</h1>
              <p className={css.lead}>Thanks for waiting. You can choose your tickets now.</p>
              {/* Checkout opens only from the cart: a buyer the checkout sent here goes back to it with their cart. */}
              <ButtonLink to={`/${eventName}/${next}`} state={next === 'account' ? ({ fromCart: true } satisfies CheckoutLocationState) : undefined} size="lg" block data-testid="waiting-room-continue">
                Continue
              </ButtonLink>
            </div>
          ) : (
            <div>
              <h1 className={css.title}>You are in line</h1>
              <div className={css.figures} role="status" aria-live="polite" aria-atomic="true">
                <div className={css.figure}>
                  <span className={css.label}>Your place</span>
                  <span className={css.value} data-testid="waiting-room-position">
                    {place.position.toLocaleString('en-US')}
                  </span>
                </div>
                <div className={css.figure}>
                  <span className={css.label}>Estimated wait</span>
                  <span className={css.valueSm} data-testid="waiting-room-estimate">
                    {estimateText(place.estimateSeconds)}
                  </span>
                </div>
              </div>
              {beforeOpening && opensAt && (
                <p className={css.note}>
                  The sale opens at {opensAt.toLocaleString('en-US', { timeZone: d.timeZone, dateStyle: 'medium', timeStyle: 'short' })}. Everyone who arrives
                  before then gets a random place, so there is no need to rush.
                </p>
              )}
              <p className={css.note}>
                Keep this page open: it updates on its own, and you keep your place if you reload it. We let people in a few at a time so the sale stays fair.
              </p>
            </div>
          ))}
          {problem && <Notice kind="warning">{problem} We will try again in a moment; your place is kept.</Notice>}
        </Card>
      </div>
    </div>
  );
}
