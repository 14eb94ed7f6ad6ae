import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { M, type TOrderTicket } from '@marquee/core';
import { useEffect, useState } from 'react';
import { FormModal } from '../../../ui/form-modal';

export type VoidTicketModalProps = {
  ticket: TOrderTicket | null;
  busy: boolean;
  onClose: () => void;
  onSubmit: (reason: string) => void;
};

/** spec §4 Ticket void: toggles the ticket's voided state, with a required reason (§5). */
export function VoidTicketModal({ ticket, busy, onClose, onSubmit }: VoidTicketModalProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setReason('');
    setError(null);
  }, [ticket?.id]);
  const unvoid = !!ticket?.details.voided;
  const verb = unvoid ? 'Unvoid' : 'Void';

  return (
    <FormModal dirty={reason !== ''} busy={busy} opened={!!ticket} onClose={onClose} title={`${verb} ticket ${ticket?.details.ticketUID ?? ''}`} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!reason.trim()) return setError(M.reasonRequired);
          onSubmit(reason.trim());
        }}
      >
        <Stack gap="md">
          <Text fz="sm" c="dimmed">
            {unvoid
              ? 'The ticket becomes valid again and takes back its place in the event.'
              : 'A voided ticket no longer gets in: its QR code is refused at the door. No money is returned; use Refund for that.'}
          </Text>
          <Textarea
            label="Reason"
            withAsterisk
            autosize
            minRows={2}
            maxLength={500}
            data-autofocus
            value={reason}
            error={error}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              if (e.currentTarget.value.trim()) setError(null);
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color={unvoid ? 'brand' : 'red'} loading={busy}>
              {verb} Ticket
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}
