import { useEffect, useState } from 'react';
import css from './hold-timer.module.css';

/** Issue 15: warn this long before the hold ends. */
export const HOLD_WARNING_MS = 60_000;

const clock = (ms: number) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * The time left on this browser's hold, counted down to the expiry the server answered at PLACE
 * ORDER (holdExpiresAt), never a guess of the client's. A minute before the end it warns, and at
 * the end says what happened and what to do; both through a polite live region, since the
 * countdown itself is not announced every second.
 */
export function HoldTimer({ expiresAt, onEnd, now = Date.now }: { expiresAt: string; onEnd?: () => void; now?: () => number }) {
  const end = Date.parse(expiresAt);
  const [left, setLeft] = useState(() => end - now());
  useEffect(() => {
    const tick = () => setLeft(end - now());
    tick();
    const id = window.setInterval(tick, 1000);
    return () => window.clearInterval(id);
  }, [end, now]);
  const ended = left <= 0;
  useEffect(() => {
    if (ended) onEnd?.();
  }, [ended, onEnd]);
  const warning = !ended && left <= HOLD_WARNING_MS;
  return (
    <div className={`${css.timer} ${warning ? css.warning : ''} ${ended ? css.ended : ''}`} data-testid="hold-timer" data-state={ended ? 'ended' : warning ? 'warning' : 'running'}>
      {!ended && (
        <p className={css.line}>
          Your tickets are held for <strong className={css.clock} data-testid="hold-time-left" role="timer" aria-label={`${clock(left)} minutes left`}>{clock(left)}</strong>
        </p>
      )}
      <div aria-live="polite" aria-atomic="true" className={css.live}>
        {warning && <p data-testid="hold-warning">Less than a minute left: complete your order now or your tickets will be released.</p>}
        {ended && (
          <p data-testid="hold-ended">
            <strong>Your hold has ended.</strong> The tickets were released for other buyers. Place your order again to reserve them, if they are still
            available.
          </p>
        )}
      </div>
    </div>
  );
}
