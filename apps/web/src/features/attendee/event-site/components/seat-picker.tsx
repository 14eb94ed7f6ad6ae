import type { TPublicEvent, TPublicTicketType, TSeatHold, TSeatHoldRequest, TSeatMap } from '@marquee/core';
import { memo, useMemo, useState } from 'react';
import { isApiError } from '../../../../ui/api-client';
import { holdSeats, releaseSeats } from '../../../seating/api';
import { SeatCanvas, SeatLegend } from '../../../seating/components/seat-canvas';
import { setSeatHold, useSeatHold } from '../../../seating/seat-store';
import { itemOf } from '../../cart/cart-rules';
import { setQuantity } from '../../cart/cart-store';
import { Button } from '../kit/button';
import { Stepper } from '../kit/stepper';
import { toast } from '../kit/toast';
import { money } from '../format';
import css from './seat-picker.module.css';

// Issue 27.4: choosing seats on the ticket menu (lazy-loaded: events without seats never load it).
// Every change of the selection holds the whole selection again on the server (the earlier hold is
// given back in the same transaction), so what the buyer sees as theirs is held for them; the cart
// follows: each seated ticket type's quantity is its number of seats.

export type SeatPickerProps = { event: TPublicEvent; eventName: string; map: TSeatMap; states: string; refresh: () => void };

/**
 * Issue 27 (pan4): rendered again only when its props change (memo, below). The ticket menu renders twice
 * every 2 s poll of the states (when the poll starts and when it answers), and each render of the picker
 * went through its list alternative's buttons (a section's 2,500 seats) and the canvas: a long task on a
 * phone that landed in the middle of a pan. A poll that brings the same states now renders the menu alone.
 */
function SeatPicker({ event, eventName, map, states, refresh }: SeatPickerProps) {
  const hold = useSeatHold(event.id);
  const [busy, setBusy] = useState(false);
  const seatedTypes = useMemo(() => {
    const ids = new Set(map.categories.map((c) => c.ticketTypeId).filter(Boolean));
    return event.ticketTypes.filter((t) => ids.has(t.id));
  }, [map, event.ticketTypes]);
  const [bestType, setBestType] = useState<string>(() => seatedTypes[0]?.id ?? '');
  const [bestCount, setBestCount] = useState(2);
  const [listSection, setListSection] = useState(0);

  // Seats of a hold that was bought, or ran out, are not the buyer's any more.
  const mine = useMemo(() => new Set((hold?.seats ?? []).filter((s) => states === '' || states[s.n] === 'h').map((s) => s.n)), [hold, states]);

  const syncCart = (next: TSeatHold | null) => {
    for (const t of seatedTypes) {
      const count = next ? next.seats.filter((s) => s.ticketTypeId === t.id).length : 0;
      setQuantity(eventName, itemOf(t as TPublicTicketType), count);
    }
  };

  const run = async (body: TSeatHoldRequest | null) => {
    setBusy(true);
    try {
      if (body === null) {
        if (hold) await releaseSeats(event.tenantId, event.id, hold.holdId, hold.token).catch(() => undefined);
        setSeatHold(event.id, null);
        syncCart(null);
      } else {
        const next = await holdSeats(event.tenantId, event.id, { ...body, replace: hold ? { holdId: hold.holdId, token: hold.token } : null });
        setSeatHold(event.id, next);
        syncCart(next);
      }
    } catch (e) {
      toast.warning('Seats not held', isApiError(e) ? e.message : 'Please try again.', { id: 'seat-hold' });
    } finally {
      setBusy(false);
      refresh();
    }
  };

  const toggle = (n: number) => {
    if (busy) return;
    const state = states[n];
    if (mine.has(n)) {
      const rest = [...mine].filter((m) => m !== n);
      void run(rest.length ? { seats: rest } : null);
    } else if (state === 'f') {
      void run({ seats: [...mine, n] });
    }
  };

  const bestMax = seatedTypes.find((t) => t.id === bestType)?.details.maxTicketPerOrder ?? 10;
  const sectionSeats = useMemo(() => {
    const rows = new Map<string, number[]>();
    map.seats.forEach((s, n) => {
      if (s[0] !== listSection) return;
      const row = rows.get(s[1]);
      if (row) row.push(n);
      else rows.set(s[1], [n]);
    });
    return [...rows];
  }, [map, listSection]);

  const label = (n: number) => {
    const s = map.seats[n]!;
    return `${map.sections[s[0]]} · Row ${s[1]} · Seat ${s[2]}`;
  };

  return (
    <section className={css.picker} aria-labelledby="seat-picker-title">
      <div className={css.head}>
        <h2 id="seat-picker-title" className={css.title}>
          Choose your seats
        </h2>
        <p className={css.hint}>Tap a seat to add or remove it. Pinch or use + and − to zoom, drag to move around.</p>
      </div>

      <div className={css.best}>
        <span className={css.bestLabel}>Best available</span>
        {seatedTypes.length > 1 && (
          <select className={css.select} value={bestType} onChange={(e) => setBestType(e.target.value)} aria-label="Ticket type for best available">
            {seatedTypes.map((t) => (
              <option key={t.id} value={t.id}>
                {t.details.name} · {money(t.details.allInPrice)}
              </option>
            ))}
          </select>
        )}
        <Stepper
          label="Seats together"
          value={bestCount}
          onIncrement={() => setBestCount((c) => Math.min(bestMax, c + 1))}
          onDecrement={() => setBestCount((c) => Math.max(1, c - 1))}
          canIncrement={bestCount < bestMax}
          canDecrement={bestCount > 1}
          testId="best-count"
        />
        <Button variant="secondary" disabled={busy || !bestType} onClick={() => void run({ best: { ticketTypeId: bestType, quantity: bestCount } })} data-testid="best-available">
          Find {bestCount} together
        </Button>
      </div>

      <SeatCanvas map={map} states={states} mine={mine} onToggle={toggle} label={`Seat map of ${event.details.name}`} height={360} />
      <SeatLegend map={map} price={money} />

      {mine.size > 0 && (
        <div className={css.chosen} data-testid="chosen-seats" aria-live="polite">
          <strong>Your seats</strong>
          <ul>
            {[...mine].sort((a, b) => a - b).map((n) => (
              <li key={n}>
                {label(n)}
                <button type="button" className={css.remove} onClick={() => toggle(n)} aria-label={`Remove ${label(n)}`} disabled={busy}>
                  ×
                </button>
              </li>
            ))}
          </ul>
          {hold && <span className={css.expiry}>Held for you until {new Date(hold.expiresAt).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' })}</span>}
        </div>
      )}

      <details className={css.list}>
        <summary>Choose from a list of seats instead</summary>
        <label className={css.sectionPick}>
          Section{' '}
          <select className={css.select} value={listSection} onChange={(e) => setListSection(Number(e.target.value))}>
            {map.sections.map((s, i) => (
              <option key={s} value={i}>
                {s}
              </option>
            ))}
          </select>
        </label>
        {sectionSeats.map(([row, seats]) => (
          <fieldset key={row} className={css.row}>
            <legend>Row {row}</legend>
            {seats.map((n) => {
              const state = states[n];
              const own = mine.has(n);
              const free = state === 'f';
              return (
                <button
                  key={n}
                  type="button"
                  className={`${css.seatButton} ${own ? css.seatMine : ''}`}
                  aria-pressed={own}
                  aria-label={`${label(n)}${own ? ', yours' : free ? ', free' : ', not available'}`}
                  disabled={busy || (!own && !free)}
                  onClick={() => toggle(n)}
                >
                  {map.seats[n]![2]}
                </button>
              );
            })}
          </fieldset>
        ))}
      </details>
    </section>
  );
}

export default memo(SeatPicker);
