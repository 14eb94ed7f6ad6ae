import '@mantine/dropzone/styles.css';
import { AspectRatio, Box, Button, Group, Image, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { COVER_MAX_BYTES, M, type TEvent } from '@marquee/core';
import { IconPhoto, IconPhotoUp, IconTrash, IconUpload, IconX } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { askConfirmDelete } from '../../../ui/confirm-delete';
import { notify } from '../../../ui/notify';
import { useDeleteCover, useUploadCover } from '../mutations';

// Issue 15: the server checks the bytes and makes the crops; these only keep a wrong file from being sent.
const ACCEPT = { 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'], 'image/webp': ['.webp'] };

function rejectionMessage(rejections: FileRejection[]): string {
  const codes = rejections.flatMap((r) => r.errors.map((e) => e.code));
  return codes.includes('file-too-large') ? M.coverSize : M.coverType;
}

export type CoverImageFieldProps = { event: TEvent | null; disabled?: boolean };

/** The event's cover image: upload (JPG, PNG or WebP, under 10 MB), the hero crop as preview, replace, remove. */
export function CoverImageField({ event, disabled }: CoverImageFieldProps) {
  const upload = useUploadCover(event?.id ?? '');
  const remove = useDeleteCover(event?.id ?? '');
  const openRef = useRef<() => void>(null);
  const [problem, setProblem] = useState<string | null>(null);

  if (!event) {
    return (
      <Paper withBorder radius="md" p="md" bg="gray.0">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" color="gray" radius="xl" size="lg">
            <IconPhoto size={18} />
          </ThemeIcon>
          <Text fz="sm" c="dimmed">
            Save the event first, then add its cover image.
          </Text>
        </Group>
      </Paper>
    );
  }

  const send = (files: File[]) => {
    const file = files[0];
    if (!file) return;
    setProblem(null);
    upload.mutate(file, {
      onSuccess: () => notify.success('Cover image uploaded', 'It shows on the event page, in link previews and on the tickets.'),
      onError: (e) => {
        const message = errorMessage(e, M.coverType);
        setProblem(message);
        notify.error('Upload failed', message);
      },
    });
  };

  const reject = (rejections: FileRejection[]) => {
    const message = rejectionMessage(rejections);
    setProblem(message);
    notify.error('Upload failed', message);
  };

  const removeCover = async () => {
    const ok = await askConfirmDelete({
      title: 'Remove cover image',
      message: 'The event page, link previews and new tickets will show no picture.',
      confirmLabel: 'Remove',
    });
    if (!ok) return;
    remove.mutate(undefined, {
      onSuccess: () => notify.success('Cover image removed'),
      onError: (e) => notify.error('Could not remove the cover image', errorMessage(e)),
    });
  };

  // Each upload has its own URL, so no cache busting is needed.
  const src = event.details.coverImageSmallUrl ?? null;

  return (
    <Stack gap="xs">
      <Dropzone
        onDrop={send}
        onReject={reject}
        accept={ACCEPT}
        maxSize={COVER_MAX_BYTES}
        multiple={false}
        loading={upload.isPending}
        disabled={disabled}
        openRef={openRef}
        activateOnClick={!src}
        radius="md"
        p={src ? 6 : 'md'}
        inputProps={{ 'aria-label': 'Cover image' }}
        data-testid="cover-dropzone"
      >
        {src ? (
          <AspectRatio ratio={2}>
            <Image src={src} alt={`Cover image of ${event.details.name}`} radius="sm" fit="cover" bg="gray.0" data-testid="cover-preview" />
          </AspectRatio>
        ) : (
          <Stack align="center" gap={6} py="md" style={{ pointerEvents: 'none' }}>
            <Dropzone.Accept>
              <IconUpload size={36} stroke={1.5} color="var(--mantine-color-brand-6)" />
            </Dropzone.Accept>
            <Dropzone.Reject>
              <IconX size={36} stroke={1.5} color="var(--mantine-color-red-6)" />
            </Dropzone.Reject>
            <Dropzone.Idle>
              <IconPhotoUp size={36} stroke={1.5} color="var(--mantine-color-gray-5)" />
            </Dropzone.Idle>
            <Text fz="sm" fw={500} ta="center">
              Drop the cover image here or click to choose
            </Text>
            <Text fz="xs" c="dimmed" ta="center">
              JPG, PNG or WebP, less than 10MB, at least 800 × 400 pixels (1600 × 800 or larger looks best)
            </Text>
          </Stack>
        )}
      </Dropzone>
      {src && (
        <Box>
          <Text fz="xs" c="dimmed">
            Cropped to 2:1 for the event page and to 1.91:1 for link previews, keeping the busiest part of the picture.
          </Text>
          <Group justify="flex-end" gap="xs" mt={6}>
            <Button size="xs" variant="default" leftSection={<IconUpload size={14} />} onClick={() => openRef.current?.()} disabled={disabled} loading={upload.isPending}>
              Replace
            </Button>
            <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} />} onClick={() => void removeCover()} disabled={disabled} loading={remove.isPending}>
              Remove
            </Button>
          </Group>
        </Box>
      )}
      {problem && (
        <Text fz="xs" c="red" role="alert">
          {problem}
        </Text>
      )}
    </Stack>
  );
}
