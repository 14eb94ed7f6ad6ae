import type { TPublicEvent } from '@marquee/core';

export type EventCoverProps = {
  details: Pick<TPublicEvent['details'], 'name' | 'coverImageUrl' | 'coverImageSmallUrl'>;
  className?: string;
};

/**
 * The event's cover in the hero (issue 15): the page's largest paint, so fetched first; its width
 * and height are set (2:1, the crop's own) so nothing moves when it arrives. The server makes an
 * 800 and a 1600 px crop; `sizes` follows the hero's layout in event-home.module.css.
 */
export function EventCover({ details, className }: EventCoverProps) {
  if (!details.coverImageUrl) return null;
  const small = details.coverImageSmallUrl;
  return (
    <img
      className={className}
      src={details.coverImageUrl}
      srcSet={small ? `${small} 800w, ${details.coverImageUrl} 1600w` : undefined}
      sizes="(max-width: 768px) 100vw, (max-width: 1024px) calc(100vw - 48px), 500px"
      width={1600}
      height={800}
      alt={details.name}
      fetchPriority="high"
      data-testid="event-cover"
    />
  );
}
