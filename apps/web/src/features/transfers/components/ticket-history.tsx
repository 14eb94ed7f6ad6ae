import { Badge, Group, Paper, Skeleton, Stack, Text, Timeline, Title } from '@mantine/core';
import type { TicketHistoryKind, TTicketHistory } from '@marquee/core';
import { IconArrowsExchange, IconBan, IconDoorEnter, IconArrowBackUp, IconReceiptRefund, IconTicket, IconRestore } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { transfersApi } from '../api';

const KIND: Record<TicketHistoryKind, { label: string; icon: ReactNode; color: string }> = {
  sold: { label: 'Sold', icon: <IconTicket size={14} />, color: 'gray' },
  transferred: { label: 'Transferred', icon: <IconArrowsExchange size={14} />, color: 'blue' },
  checked_in: { label: 'Checked in', icon: <IconDoorEnter size={14} />, color: 'teal' },
  check_in_undone: { label: 'Check-in undone', icon: <IconArrowBackUp size={14} />, color: 'yellow' },
  voided: { label: 'Voided', icon: <IconBan size={14} />, color: 'red' },
  unvoided: { label: 'Unvoided', icon: <IconRestore size={14} />, color: 'gray' },
  refunded: { label: 'Refunded', icon: <IconReceiptRefund size={14} />, color: 'red' },
};

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });

/**
 * Issue 24: each ticket of the order and what happened to it, oldest first: sold, transferred (from
 * whom to whom), checked in, voided, refunded. `queryKey` is under the order page's own key, so that
 * whatever refreshes the order refreshes this too.
 */
export function TicketHistory({ tenantId, eventId, orderUID, queryKey }: { tenantId: string; eventId: string; orderUID: string; queryKey: readonly unknown[] }) {
  const query = useQuery({ queryKey: [...queryKey, 'ticket-history'], queryFn: () => transfersApi.history(tenantId, eventId, orderUID) });
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="ticket-history">
      <Title order={3} fz="md" mb="sm">
        Ticket history
      </Title>
      {query.isPending ? (
        <Skeleton h={80} />
      ) : query.isError ? (
        <Text c="red" fz="sm">
          {errorMessage(query.error)}
        </Text>
      ) : (
        <Stack gap="lg">
          {query.data.result.map((t) => (
            <TicketEntries key={t.ticketId} ticket={t} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}

function TicketEntries({ ticket: t }: { ticket: TTicketHistory['result'][number] }) {
  return (
    <div data-testid="ticket-history-ticket">
      <Group gap="xs" mb={8} wrap="wrap">
        <Text fw={600}>{t.fullName || t.email || 'No name'}</Text>
        <Text c="dimmed" fz="sm">
          {t.ticketTypeName} ·{' '}
          <Text span ff="monospace" fz="sm">
            {t.ticketUID}
          </Text>
        </Text>
      </Group>
      <Timeline bulletSize={24} lineWidth={2}>
        {t.entries.map((e, i) => (
          <Timeline.Item
            key={i}
            bullet={KIND[e.kind].icon}
            color={KIND[e.kind].color}
            title={
              <Group gap={8} wrap="wrap">
                <Badge variant="light" color={KIND[e.kind].color} size="sm">
                  {KIND[e.kind].label}
                </Badge>
                <Text fz="sm" c="dimmed">
                  {when(e.at)}
                </Text>
              </Group>
            }
            data-testid="ticket-history-entry"
            data-kind={e.kind}
          >
            {(e.detail || e.by) && (
              <Text fz="sm" mt={2} style={{ overflowWrap: 'anywhere' }}>
                {e.detail}
                {e.by ? `${e.detail ? ' · ' : ''}by ${e.by}` : ''}
              </Text>
            )}
          </Timeline.Item>
        ))}
      </Timeline>
    </div>
  );
}
