import '@mantine/dropzone/styles.css';
import { Box, Button, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconPhotoUp, IconTrash, IconUpload, IconX } from '@tabler/icons-react';
import type { UseMutationResult } from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { askConfirmDelete } from '../../../ui/confirm-delete';
import { notify } from '../../../ui/notify';

/** What differs between an event's images (the seat map, the cover): words, formats, limits, preview. */
export type EventImageKind = {
  /** 'seat map', 'cover image': in "Save the event first, then add its …" and the toasts. */
  noun: string;
  icon: ReactNode;
  accept: Record<string, string[]>;
  maxBytes: number;
  typeMessage: string;
  sizeMessage: string;
  /** The hidden file input's own name (WCAG 1.3.1, 4.1.2); the drop area reads its visible text. */
  inputLabel: string;
  dropText: string;
  formatsText: string;
  uploadedText: string;
  removeTitle: string;
  removeText: string;
  testId: string;
};

export type EventImageFieldProps = {
  kind: EventImageKind;
  hasEvent: boolean;
  disabled?: boolean;
  upload: UseMutationResult<unknown, Error, File>;
  remove: UseMutationResult<unknown, Error, void>;
  /** The image shown once there is one (null: none yet). */
  preview: ReactNode | null;
  /** Beside Replace and Remove (e.g. a link to the full size). */
  aside?: ReactNode;
  /** Above Replace and Remove (e.g. how the image is cropped). */
  note?: ReactNode;
};

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A quiet grey box with the image kind's icon, in place of the image field. */
function QuietNote({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" bg="gray.0">
      <Group gap="sm" wrap="nowrap">
        <ThemeIcon variant="light" color="gray" radius="xl" size="lg">
          {icon}
        </ThemeIcon>
        <Text fz="sm" c="dimmed">
          {children}
        </Text>
      </Group>
    </Paper>
  );
}

/** Upload (checked again by the server), preview, replace and remove one of an event's images. */
export function EventImageField({ kind, hasEvent, disabled, upload, remove, preview, aside, note }: EventImageFieldProps) {
  const openRef = useRef<() => void>(null);
  const [problem, setProblem] = useState<string | null>(null);

  if (!hasEvent) return <QuietNote icon={kind.icon}>Save the event first, then add its {kind.noun}.</QuietNote>;

  // Read-only (check-in staff, a cancelled event): the image as it is, or a plain "none"; nothing
  // that looks like it could be dropped on or clicked.
  if (disabled) {
    return (
      <Stack gap="xs" data-testid={`${kind.testId}-readonly`}>
        {preview ? (
          <Paper withBorder radius="md" p={6}>
            {preview}
          </Paper>
        ) : (
          <QuietNote icon={kind.icon}>No {kind.noun}.</QuietNote>
        )}
        {preview && aside}
      </Stack>
    );
  }

  const fail = (message: string) => {
    setProblem(message);
    notify.error('Upload failed', message);
  };
  const send = (files: File[]) => {
    const file = files[0];
    if (!file) return;
    setProblem(null);
    upload.mutate(file, {
      onSuccess: () => notify.success(`${capitalised(kind.noun)} uploaded`, kind.uploadedText),
      onError: (e) => fail(errorMessage(e, kind.typeMessage)),
    });
  };
  const reject = (rejections: FileRejection[]) => {
    const codes = rejections.flatMap((r) => r.errors.map((e) => e.code));
    fail(codes.includes('file-too-large') ? kind.sizeMessage : kind.typeMessage);
  };
  const removeImage = async () => {
    const ok = await askConfirmDelete({ title: kind.removeTitle, message: kind.removeText, confirmLabel: 'Remove' });
    if (!ok) return;
    remove.mutate(undefined, {
      onSuccess: () => notify.success(`${capitalised(kind.noun)} removed`),
      onError: (e) => notify.error(`Could not remove the ${kind.noun}`, errorMessage(e)),
    });
  };

  return (
    <Stack gap="xs">
      <Dropzone
        onDrop={send}
        onReject={reject}
        accept={kind.accept}
        maxSize={kind.maxBytes}
        multiple={false}
        loading={upload.isPending}
        openRef={openRef}
        activateOnClick={!preview}
        radius="md"
        p={preview ? 6 : 'md'}
        inputProps={{ 'aria-label': kind.inputLabel }}
        data-testid={`${kind.testId}-dropzone`}
      >
        {preview ?? (
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
              {kind.dropText}
            </Text>
            <Text fz="xs" c="dimmed" ta="center">
              {kind.formatsText}
            </Text>
          </Stack>
        )}
      </Dropzone>
      {preview && (
        <Box>
          {note}
          <Group justify={aside ? 'space-between' : 'flex-end'} gap="xs" mt={note ? 6 : 0}>
            {aside}
            <Group gap="xs">
              <Button size="xs" variant="default" leftSection={<IconUpload size={14} />} onClick={() => openRef.current?.()} loading={upload.isPending}>
                Replace
              </Button>
              <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} />} onClick={() => void removeImage()} loading={remove.isPending}>
                Remove
              </Button>
            </Group>
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
