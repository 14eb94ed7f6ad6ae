import { useEffect, useState } from 'react';
import { Card } from '../../event-site/kit/card';
import { IconZoom } from '../../event-site/kit/icons';
import { Modal } from '../../event-site/kit/modal';
import { probeSeatMap, type SeatMapImage } from '../seat-map-probe';
import css from './checkout.module.css';

/** The optional seating map with click-to-enlarge (spec §2 Checkout page). Nothing shows without one. */
export function SeatMap({ eventName, eventTitle }: { eventName: string; eventTitle: string }) {
  const [image, setImage] = useState<SeatMapImage | null>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
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
  }, [eventName]);

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
