import { Alert, Button, Group, List, Paper, Skeleton, Stack, Text, Textarea, ThemeIcon } from '@mantine/core';
import { CANCEL_MESSAGE_MAX, type TCancellationProgress } from '@marquee/core';
import { IconMail, IconReceiptRefund, IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { FormModal } from '../../../ui/form-modal';
import { formatMoney } from '../../../ui/money';
import { useCancellationPreview } from '../queries';

export type CancelEventModalProps = {
  eventId: string;
  eventName: string;
  opened: boolean;
  busy: boolean;
  onClose: () => void;
  /** Cancels with the message to buyers ('' for none). */
  onConfirm: (message: string) => void;
};

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The confirm button says what it does: it refunds money when there is money to refund. */
export function cancelButtonLabel(p: TCancellationProgress | undefined): string {
  return p && p.toRefund > 0 ? `Cancel event and refund ${formatMoney(p.toRefund)}` : 'Cancel event';
}

/** What cancelling will do to the orders, in what is actually left to refund (issue 21.9). */
function WhatHappens({ p, withMessage }: { p: TCancellationProgress; withMessage: boolean }) {
  if (p.total === 0 && p.notices === 0) {
    return (
      <Text fz="sm" data-testid="cancel-preview">
        Nobody has bought tickets yet: no one is refunded or e-mailed.
      </Text>
    );
  }
  return (
    <List spacing="xs" size="sm" center={false} data-testid="cancel-preview">
      {p.total > 0 && (
        <List.Item
          icon={
            <ThemeIcon color="red" variant="light" size={24} radius="xl">
              <IconReceiptRefund size={14} />
            </ThemeIcon>
          }
        >
          <Text fz="sm" span fw={600} data-testid="cancel-preview-refunds">
            {plural(p.total, 'paid order')} {p.total === 1 ? 'is' : 'are'} refunded automatically: {formatMoney(p.toRefund)} in all.
          </Text>{' '}
          <Text fz="sm" span c="dimmed">
            Each order gets back what it still holds, to the card it was paid with.
            {p.refundedElsewhere > 0 && ` ${formatMoney(p.refundedElsewhere)} you already refunded is not refunded again.`}
          </Text>
        </List.Item>
      )}
      {p.alreadyRefunded > 0 && (
        <List.Item
          icon={
            <ThemeIcon color="gray" variant="light" size={24} radius="xl">
              <IconInfoCircle size={14} />
            </ThemeIcon>
          }
        >
          <Text fz="sm" span data-testid="cancel-preview-already">
            {plural(p.alreadyRefunded, 'order')} already refunded in full {p.alreadyRefunded === 1 ? 'gets' : 'get'} nothing more back.
          </Text>
        </List.Item>
      )}
      {p.notices > 0 && (
        <List.Item
          icon={
            <ThemeIcon color="brand" variant="light" size={24} radius="xl">
              <IconMail size={14} />
            </ThemeIcon>
          }
        >
          <Text fz="sm" span data-testid="cancel-preview-notices">
            {plural(p.notices, 'buyer')} {p.notices === 1 ? 'is' : 'are'} e-mailed a cancellation notice{withMessage ? ' with your message' : ''}, saying what comes back to
            them.
          </Text>
        </List.Item>
      )}
    </List>
  );
}

/**
 * Cancel event (issue 21.9): says, before anything happens, how many orders are refunded and how
 * much (what is left on each, not what was paid), who is e-mailed, and takes an optional message
 * for the buyers' notice. The preview is read when the dialog opens.
 */
export function CancelEventModal({ eventId, eventName, opened, busy, onClose, onConfirm }: CancelEventModalProps) {
  const [message, setMessage] = useState('');
  const preview = useCancellationPreview(eventId, opened);
  useEffect(() => {
    if (!opened) setMessage('');
  }, [opened]);
  const p = preview.data;

  return (
    <FormModal dirty={message !== ''} busy={busy} opened={opened} onClose={onClose} title="Cancel event" centered size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onConfirm(message);
        }}
      >
        <Stack gap="md">
          <Text fz="sm">
            Cancel “{eventName}”? Ticket sales stop at once and the event can no longer be edited or published. This cannot be undone.
          </Text>
          <Paper withBorder radius="md" p="md" bg="var(--mantine-color-gray-0)">
            <Text fz="xs" fw={700} tt="uppercase" c="dimmed" mb="xs" style={{ letterSpacing: 0.4 }}>
              What happens to the orders
            </Text>
            {preview.error ? (
              <Alert color="red" variant="light" p="xs">
                <Text fz="sm">The orders could not be counted: {errorMessage(preview.error)}</Text>
                <Button size="xs" variant="light" mt="xs" onClick={() => void preview.refetch()}>
                  Try again
                </Button>
              </Alert>
            ) : !p ? (
              <Stack gap={6}>
                <Skeleton height={14} />
                <Skeleton height={14} width="70%" />
              </Stack>
            ) : (
              <WhatHappens p={p} withMessage={message.trim() !== ''} />
            )}
          </Paper>
          <Textarea
            label="Message to buyers (optional)"
            description="Added to the cancellation e-mail, for example why the event is off or what comes next."
            autosize
            minRows={3}
            maxRows={8}
            maxLength={CANCEL_MESSAGE_MAX}
            value={message}
            onChange={(e) => setMessage(e.currentTarget.value)}
            data-testid="cancel-message"
          />
          {message.length > CANCEL_MESSAGE_MAX * 0.8 && (
            <Text fz="xs" c="dimmed" ta="right" mt={-10}>
              {message.length.toLocaleString('en-US')} / {CANCEL_MESSAGE_MAX.toLocaleString('en-US')}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Keep event
            </Button>
            <Button type="submit" color="red" loading={busy} disabled={!p} data-testid="confirm-cancel-event">
              {cancelButtonLabel(p)}
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}
