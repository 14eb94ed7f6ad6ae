import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { TCheckinTicket } from '@marquee/core';

const STATE: Record<TCheckinTicket['state'], { label: string; color: string }> = {
  valid: { label: 'Not checked in', color: 'blue' },
  used: { label: 'Checked in', color: 'green' },
  voided: { label: 'Voided', color: 'red' },
  refunded: { label: 'Refunded', color: 'red' },
};

/** "Checked in at 7:42 PM by Ada Lovelace (Door 2 · 7f3a)": when, who and where, as far as known. */
export function describeUse(usedAt: string | null, name: string | null, deviceId: string | null): string {
  const when = usedAt ? new Date(usedAt).toLocaleString(undefined, { hour: 'numeric', minute: '2-digit', month: 'short', day: 'numeric' }) : null;
  const who = [name, deviceId ? `(${deviceId})` : null].filter(Boolean).join(' ');
  return ['Checked in', when ? `at ${when}` : null, who ? `by ${who}` : null].filter(Boolean).join(' ') + '.';
}

/** One ticket in the search results, with its own check-in button. */
export function TicketRow({ ticket, onCheckIn }: { ticket: TCheckinTicket; onCheckIn: () => void }) {
  const state = STATE[ticket.state];
  return (
    <Card withBorder radius="md" padding="sm">
      <Group justify="space-between" wrap="nowrap" align="center">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={700} truncate>
            {ticket.fullName || 'No name'}
          </Text>
          <Text fz="sm" c="gray.7" truncate>
            {ticket.ticketTypeName} · {ticket.email}
          </Text>
          <Text fz="xs" c="gray.7" ff="monospace">
            {ticket.ticketUid} · order {ticket.orderId}
          </Text>
          <Badge color={state.color} variant="light" w="fit-content">
            {state.label}
          </Badge>
          {ticket.state === 'used' && (
            <Text fz="xs" c="gray.7">
              {describeUse(ticket.usedAt, ticket.usedBy?.name ?? null, ticket.usedBy?.deviceId ?? null)}
            </Text>
          )}
        </Stack>
        <Button size="md" onClick={onCheckIn} disabled={ticket.state !== 'valid'} aria-label={`Check in ${ticket.fullName || ticket.ticketUid}`} style={{ flexShrink: 0 }}>
          Check in
        </Button>
      </Group>
    </Card>
  );
}
