import '@mantine/dropzone/styles.css';
import { Anchor, Box, Button, Group, Image, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { M, SEATMAP_MAX_BYTES, type TEvent } from '@marquee/core';
import { IconArmchair, IconPhotoUp, IconTrash, IconUpload, IconX } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { askConfirmDelete } from '../../../ui/confirm-delete';
import { notify } from '../../../ui/notify';
import { useDeleteSeatMap, useUploadSeatMap } from '../mutations';

// spec: reports-payouts-checkout §7: the attendee site serves /{eventName}/assets/seatmap.{png|jpg|jpeg|gif}.
const ACCEPT = { 'image/png': ['.png'], 'image/jpeg': ['.jpg', '.jpeg'], 'image/gif': ['.gif'] };

function rejectionMessage(rejections: FileRejection[]): string {
  const codes = rejections.flatMap((r) => r.errors.map((e) => e.code));
  return codes.includes('file-too-large') ? M.seatmapSize : M.seatmapType;
}

export type SeatMapFieldProps = { event: TEvent | null; disabled?: boolean };

/** The seat map image shown at checkout: upload (PNG, JPG or GIF, under 5 MB), preview, replace, remove. */
export function SeatMapField({ event, disabled }: SeatMapFieldProps) {
  const upload = useUploadSeatMap(event?.id ?? '');
  const remove = useDeleteSeatMap(event?.id ?? '');
  const openRef = useRef<() => void>(null);
  const [problem, setProblem] = useState<string | null>(null);

  if (!event) {
    return (
      <Paper withBorder radius="md" p="md" bg="gray.0">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" color="gray" radius="xl" size="lg">
            <IconArmchair size={18} />
          </ThemeIcon>
          <Text fz="sm" c="dimmed">
            Save the event first, then add its seat map.
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
      onSuccess: () => notify.success('Seat map uploaded', 'Attendees see it at checkout.'),
      onError: (e) => {
        const message = errorMessage(e, M.seatmapType);
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

  const removeMap = async () => {
    const ok = await askConfirmDelete({ title: 'Remove seat map', message: 'Attendees will no longer see a seat map at checkout.', confirmLabel: 'Remove' });
    if (!ok) return;
    remove.mutate(undefined, {
      onSuccess: () => notify.success('Seat map removed'),
      onError: (e) => notify.error('Could not remove the seat map', errorMessage(e)),
    });
  };

  const seatMap = event.details.seatMap;
  // The path stays the same when the image is replaced: the modification time busts the cache.
  const src = seatMap ? `${seatMap}?v=${encodeURIComponent(event.details.dateModified)}` : null;

  return (
    <Stack gap="xs">
      <Dropzone
        onDrop={send}
        onReject={reject}
        accept={ACCEPT}
        maxSize={SEATMAP_MAX_BYTES}
        multiple={false}
        loading={upload.isPending}
        disabled={disabled}
        openRef={openRef}
        activateOnClick={!src}
        radius="md"
        p={src ? 6 : 'md'}
        // The hidden file input needs its own name (WCAG 1.3.1, 4.1.2); the drop area reads its visible text.
        inputProps={{ 'aria-label': 'Seat map image' }}
        data-testid="seatmap-dropzone"
      >
        {src ? (
          <Box pos="relative">
            <Image src={src} alt="Seat map" radius="sm" mah={240} fit="contain" bg="gray.0" data-testid="seatmap-preview" />
          </Box>
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
              Drop the seat map here or click to choose
            </Text>
            <Text fz="xs" c="dimmed" ta="center">
              PNG, JPG or GIF, less than 5MB
            </Text>
          </Stack>
        )}
      </Dropzone>
      {src && (
        <Group justify="space-between" gap="xs">
          <Anchor href={seatMap!} target="_blank" rel="noreferrer" fz="xs">
            Open full size
          </Anchor>
          <Group gap="xs">
            <Button size="xs" variant="default" leftSection={<IconUpload size={14} />} onClick={() => openRef.current?.()} disabled={disabled} loading={upload.isPending}>
              Replace
            </Button>
            <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} />} onClick={() => void removeMap()} disabled={disabled} loading={remove.isPending}>
              Remove
            </Button>
          </Group>
        </Group>
      )}
      {problem && (
        <Text fz="xs" c="red" role="alert">
          {problem}
        </Text>
      )}
    </Stack>
  );
}
