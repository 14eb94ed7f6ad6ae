import { useEffect, useState } from 'react';
import { seatPreviewUrl } from '../../../seating/api';
import css from './seat-map-preview.module.css';

// Issue 27 (paint): a seated event's map as the server drew it (every seat a block of pixels in its
// state's colour, the canvas's colours), shown from the first paint until the interactive map (the
// lazy seat picker) takes its place. The server-rendered page carries the image inline with the
// seats' states of the moment (event-pages withSeatPreview), so it paints before any script runs, and
// without JavaScript; a page the app renders asks the same image by this address.

/** The user timing of the preview's first paint (bench/seat-page-lighthouse.ts reads it beside the canvas's `mq-seat-map-painted`). */
export const PREVIEW_PAINTED_MARK = 'mq-seat-map-preview-painted';
const ELEMENT_ID = 'mq-seat-map-preview';

/**
 * The preview's paint time, from the browser's Element Timing entry for the image (buffered: the
 * image usually painted before this code ran), as a user timing at that time. Browsers without
 * Element Timing get no mark.
 */
function markPreviewPaint(): () => void {
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('element')) return () => undefined;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries() as Array<PerformanceEntry & { identifier?: string; renderTime?: number; loadTime?: number }>) {
      if (e.identifier !== ELEMENT_ID || performance.getEntriesByName(PREVIEW_PAINTED_MARK).length > 0) continue;
      performance.mark(PREVIEW_PAINTED_MARK, { startTime: e.renderTime || e.startTime });
      observer.disconnect();
    }
  });
  observer.observe({ type: 'element', buffered: true });
  return () => observer.disconnect();
}

export function SeatMapPreview({ tenantId, eventId, eventTitle }: { tenantId: string; eventId: string; eventTitle: string }) {
  useEffect(() => markPreviewPaint(), []);
  // Said only once the app runs: a page read without JavaScript never gets the interactive map.
  const [running, setRunning] = useState(false);
  useEffect(() => setRunning(true), []);
  return (
    <section className={css.preview} aria-labelledby="seat-preview-title" data-testid="seat-map-preview">
      <h2 id="seat-preview-title" className={css.title}>
        Choose your seats
      </h2>
      <div className={css.frame}>
        {/* The server's answer carries the image inline (a data: URL) where the app asks its address: not a mismatch to repair. */}
        <img
          className={css.image}
          src={seatPreviewUrl(tenantId, eventId)}
          alt={`Seat map of ${eventTitle}: coloured seats are free, grey seats are taken`}
          suppressHydrationWarning
          // Issue 27 (paint2): decoded before the frame that first paints the page (the page no longer
          // waits for a stylesheet, so an image decoded off the main thread could miss that frame).
          decoding="sync"
          {...{ elementtiming: ELEMENT_ID }}
        />
      </div>
      {running && <p className={css.note}>Loading the interactive seat map…</p>}
    </section>
  );
}
