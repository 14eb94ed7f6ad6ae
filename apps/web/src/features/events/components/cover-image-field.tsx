import { AspectRatio, Image, Text } from '@mantine/core';
import { COVER_MAX_BYTES, M, type TEvent } from '@marquee/core';
import { IconPhoto } from '@tabler/icons-react';
import { useDeleteCover, useUploadCover } from '../mutations';
import { EventImageField, type EventImageKind } from './event-image-field';

const COVER: EventImageKind = {
  noun: 'cover image',
  icon: <IconPhoto size={18} />,
  // Issue 15: the server checks the bytes and makes the crops; these only keep a wrong file from being sent.
  accept: { 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'], 'image/webp': ['.webp'] },
  maxBytes: COVER_MAX_BYTES,
  typeMessage: M.coverType,
  sizeMessage: M.coverSize,
  inputLabel: 'Cover image',
  dropText: 'Drop the cover image here or click to choose',
  formatsText: 'JPG, PNG or WebP, less than 10MB, at least 800 × 400 pixels (1600 × 800 or larger looks best)',
  uploadedText: 'It shows on the event page, in link previews and on the tickets.',
  removeTitle: 'Remove cover image',
  removeText: 'The event page, link previews and new tickets will show no picture.',
  testId: 'cover',
};

export type CoverImageFieldProps = { event: TEvent | null; disabled?: boolean };

/** The event's cover image: upload (JPG, PNG or WebP, under 10 MB), the hero crop as preview, replace, remove. */
export function CoverImageField({ event, disabled }: CoverImageFieldProps) {
  const upload = useUploadCover(event?.id ?? '');
  const remove = useDeleteCover(event?.id ?? '');
  // Each upload has its own URL, so no cache busting is needed.
  const src = event?.details.coverImageSmallUrl ?? null;
  return (
    <EventImageField
      kind={COVER}
      hasEvent={!!event}
      disabled={disabled}
      upload={upload}
      remove={remove}
      preview={
        src && (
          <AspectRatio ratio={2}>
            <Image src={src} alt={`Cover image of ${event!.details.name}`} radius="sm" fit="cover" bg="gray.0" data-testid="cover-preview" />
          </AspectRatio>
        )
      }
      note={
        <Text fz="xs" c="dimmed">
          Cropped to 2:1 for the event page and to 1.91:1 for link previews, keeping the busiest part of the picture.
        </Text>
      }
    />
  );
}
