import { ActionIcon, Alert, Button, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { assertNever, BOX_OFFICE_SALE_ERRORS, domainCodeAmong, isSoldOn, type TGuestListResponse } from '@marquee/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTenantId } from '../../../shared/tenant';
import { domainCodeOf, errorMessage, isApiError } from '../../../ui/api-client';
import { FormModal } from '../../../ui/form-modal';
import { notify } from '../../../ui/notify';
import { useAllTicketTypes } from '../../ticket-types/queries';
import { boxOfficeApi } from '../api';

type Guest = { firstName: string; lastName: string; email: string; quantity: number };
const emptyGuest = (): Guest => ({ firstName: '', lastName: '', email: '', quantity: 1 });

/** Why a guest list was refused, by its code (the list's own words for the limit); others by their message. */
function refusalText(e: unknown): string {
  const code = domainCodeAmong(domainCodeOf(e), BOX_OFFICE_SALE_ERRORS);
  if (code === null) return errorMessage(e);
  switch (code) {
    case 'COMPLIMENTARY_LIMIT':
    case 'CART_CONFLICT':
    case 'CART_CHANGED':
    case 'EVENT_NOT_ON_SALE':
    case 'EVENT_CANCELLED':
    case 'TICKET_TYPE_NOT_AT_BOX_OFFICE':
    case 'DISCOUNT_INVALID':
    case 'CASH_TENDERED_SHORT':
    case 'TERMINAL_REFERENCE_REQUIRED':
    case 'IDEMPOTENCY_KEY_REUSED':
      return errorMessage(e);
    default:
      return assertNever(code);
  }
}

/** The console's guest list (issue 23): complimentary tickets, one order per guest, mailed to each. */
export function GuestListModal({ eventId, opened, onClose }: { eventId: string; opened: boolean; onClose: () => void }) {
  const tenantId = useTenantId();
  const types = useAllTicketTypes(eventId);
  const options = (types.data ?? []).filter((t) => t.details.active && isSoldOn(t.details.soldAt, 'backend')).map((t) => ({ value: t.id, label: t.details.name }));
  const [ticketTypeId, setTicketTypeId] = useState<string | null>(null);
  const [guests, setGuests] = useState<Guest[]>([emptyGuest()]);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const dirty = guests.some((g) => g.firstName || g.email);
  const set = (i: number, patch: Partial<Guest>) => setGuests((list) => list.map((g, j) => (j === i ? { ...g, ...patch } : g)));

  const close = () => {
    setGuests([emptyGuest()]);
    setProblem(null);
    setFields({});
    setKey(crypto.randomUUID());
    onClose();
  };

  const send = async () => {
    if (!ticketTypeId) return setProblem('Choose a ticket type.');
    setBusy(true);
    setProblem(null);
    setFields({});
    try {
      const answer: TGuestListResponse = await boxOfficeApi.guestList(tenantId, eventId, { ticketTypeId, idempotencyKey: key, guests });
      const n = answer.orders.reduce((s, o) => s + o.tickets, 0);
      notify.success('Guest list sent', `${n} complimentary ${n === 1 ? 'ticket' : 'tickets'} mailed to ${answer.orders.length} ${answer.orders.length === 1 ? 'guest' : 'guests'}.`);
      close();
    } catch (e) {
      setProblem(refusalText(e));
      setFields(isApiError(e) ? e.fields : {});
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormModal dirty={dirty} busy={busy} opened={opened} onClose={close} title="Guest list" size="lg" centered>
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          Complimentary tickets, one order per guest, mailed to each. They count against the event&apos;s limit on complimentary tickets.
        </Text>
        <Select label="Ticket type" data={options} value={ticketTypeId} onChange={setTicketTypeId} allowDeselect={false} required data-testid="guest-list-type" />
        {guests.map((g, i) => (
          <Group key={i} gap="xs" align="flex-end" wrap="wrap">
            <TextInput label="First name" required value={g.firstName} onChange={(e) => set(i, { firstName: e.currentTarget.value })} error={fields[`guests.${i}.firstName`]} style={{ flex: '1 1 120px' }} />
            <TextInput label="Last name" value={g.lastName} onChange={(e) => set(i, { lastName: e.currentTarget.value })} style={{ flex: '1 1 120px' }} />
            <TextInput label="E-mail" required type="email" value={g.email} onChange={(e) => set(i, { email: e.currentTarget.value })} error={fields[`guests.${i}.email`]} style={{ flex: '2 1 200px' }} />
            <NumberInput label="Tickets" min={1} max={10} allowDecimal={false} value={g.quantity} onChange={(v) => set(i, { quantity: Number(v) || 1 })} w={80} />
            <ActionIcon variant="subtle" color="red" size="lg" mb={4} aria-label={`Remove guest ${i + 1}`} disabled={guests.length === 1} onClick={() => setGuests((list) => list.filter((_, j) => j !== i))}>
              <IconTrash size={18} />
            </ActionIcon>
          </Group>
        ))}
        <Button variant="subtle" leftSection={<IconPlus size={16} />} onClick={() => setGuests((list) => [...list, emptyGuest()])} w="fit-content">
          Add a guest
        </Button>
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button onClick={() => void send()} loading={busy} data-testid="send-guest-list">
            Send tickets
          </Button>
        </Group>
      </Stack>
    </FormModal>
  );
}
