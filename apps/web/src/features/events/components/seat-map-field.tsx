import { Anchor, Box, Image } from '@mantine/core';
import { M, SEATMAP_MAX_BYTES, type TEvent } from '@marquee/core';
import { IconArmchair } from '@tabler/icons-react';
import { useDeleteSeatMap, useUploadSeatMap } from '../mutations';
import { EventImageField, type EventImageKind } from './event-image-field';

const SEAT_MAP: EventImageKind = {
  noun: 'seat map',
  icon: <IconArmchair size={18} />,
  // spec: reports-payouts-checkout §7: the attendee site serves /{eventName}/assets/seatmap.{png|jpg|jpeg|gif}.
  accept: { 'image/png': ['.png'], 'image/jpeg': ['.jpg', '.jpeg'], 'image/gif': ['.gif'] },
  maxBytes: SEATMAP_MAX_BYTES,
  typeMessage: M.seatmapType,
  sizeMessage: M.seatmapSize,
  inputLabel: 'Seat map image',
  dropText: 'Drop the seat map here or click to choose',
  formatsText: 'PNG, JPG or GIF, less than 5MB',
  uploadedText: 'Attendees see it at checkout.',
  removeTitle: 'Remove seat map',
  removeText: 'Attendees will no longer see a seat map at checkout.',
  testId: 'seatmap',
};

export type SeatMapFieldProps = { event: TEvent | null; disabled?: boolean };

/** The seat map image shown at checkout: upload (PNG, JPG or GIF, under 5 MB), preview, replace, remove. */
export function SeatMapField({ event, disabled }: SeatMapFieldProps) {
  const upload = useUploadSeatMap(event?.id ?? '');
  const remove = useDeleteSeatMap(event?.id ?? '');
  const seatMap = event?.details.seatMap;
  // The path stays the same when the image is replaced: the modification time busts the cache.
  const src = event && seatMap ? `${seatMap}?v=${encodeURIComponent(event.details.dateModified)}` : null;
  return (
    <EventImageField
      kind={SEAT_MAP}
      hasEvent={!!event}
      disabled={disabled}
      upload={upload}
      remove={remove}
      preview={
        src && (
          <Box pos="relative">
            <Image src={src} alt="Seat map" radius="sm" mah={240} fit="contain" bg="gray.0" data-testid="seatmap-preview" />
          </Box>
        )
      }
      aside={
        seatMap && (
          <Anchor href={seatMap} target="_blank" rel="noreferrer" fz="xs">
            Open full size
          </Anchor>
        )
      }
    />
  );
}
