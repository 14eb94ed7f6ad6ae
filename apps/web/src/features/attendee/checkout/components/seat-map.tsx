import { useEffect, useState } from 'react';
import { Card } from '../../event-site/kit/card';
import { IconZoom } from '../../event-site/kit/icons';
import { Modal } from '../../event-site/kit/modal';
import { probeSeatMap, type SeatMapImage } from '../seat-map-probe';
import css from './checkout.module.css';

/**
 * The optional seating map with click-to-enlarge (spec §2 Checkout page). Nothing shows without one.
 * `listed`: the event says it has one (its public `seatMap`); when it has none, nothing is probed, so a
 * buyer's browser does not ask for four files that are not there (each 404 an error in its console).
 */
export function SeatMap({ eventName, eventTitle, listed }: { eventName: string; eventTitle: string; listed: boolean }) {
  const [image, setImage] = useState<SeatMapImage | null>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!listed) return;
    const controller = new AbortController();
    let found: SeatMapImage | null = null;
    void probeSeatMap(eventName, controller.signal).then((img) => {
      if (controller.signal.aborted) {
        if (img) URL.revokeObjectURL(img.url);
        return;
      }
      found = img;
      setImage(img);
    });
    return () => {
      controller.abort();
      if (found) URL.revokeObjectURL(found.url);
    };
  }, [eventName, listed]);

  if (!image) return null;
  const alt = `Seating map for ${eventTitle}`;
  return (
    <Card title="Seating Map" data-testid="seat-map">
      <button type="button" className={css.seatMapButton} onClick={() => setOpen(true)} aria-label="Enlarge the seating map">
        <img src={image.url} alt={alt} />
        <span className={css.enlarge}>
          <IconZoom size={16} /> Click to enlarge
        </span>
      </button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Seating Map" wide data-testid="seat-map-modal">
        <img className={css.seatMapFull} src={image.url} alt={alt} />
      </Modal>
    </Card>
  );
}
