import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { TCashDrawerDetail } from '@marquee/core';
import { formatMoney } from '../../../ui/money';
import { differenceLabel } from '../api';

type Details = TCashDrawerDetail['details'];

export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

export function DrawerStatusBadge({ status }: { status: Details['status'] }) {
  return (
    <Badge color={status === 'open' ? 'green' : 'gray'} variant="light">
      {status === 'open' ? 'Open' : 'Closed'}
    </Badge>
  );
}

function Figure({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size={strong ? 'xl' : 'lg'} fw={strong ? 700 : 600} data-testid={`drawer-${label.toLowerCase().replace(/[^a-z]+/g, '-')}`}>
        {value}
      </Text>
    </Paper>
  );
}

/** Float, cash in and out, and what should be in the drawer; once closed, the count and the difference. */
export function DrawerFigures({ d }: { d: Details }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
      <Figure label="Opening float" value={formatMoney(d.openingFloat)} />
      <Figure label={`Cash sales (${d.salesCount})`} value={formatMoney(d.cashSales)} />
      <Figure label={`Cash refunds (${d.refundsCount})`} value={d.cashRefunds ? `-${formatMoney(d.cashRefunds)}` : formatMoney(0)} />
      <Figure label="Expected cash" value={formatMoney(d.expectedCash)} strong />
      {d.countedAmount !== null && <Figure label="Counted" value={formatMoney(d.countedAmount)} />}
      {d.difference !== null && <Figure label="Difference" value={differenceLabel(d.difference, formatMoney)} strong />}
    </SimpleGrid>
  );
}

/** The drawer's cash movements, oldest first. */
export function DrawerMovements({ d }: { d: Details }) {
  if (d.movements.length === 0)
    return (
      <Text c="dimmed" size="sm">
        No cash taken or given back yet.
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={300}>
      <Table striped verticalSpacing="xs" fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Order ID</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th ta="right">Cash</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {d.movements.map((m) => (
            <Table.Tr key={m.id}>
              <Table.Td>{formatDateTime(m.createdAt)}</Table.Td>
              <Table.Td>{m.orderUID}</Table.Td>
              <Table.Td>{m.kind === 'sale' ? 'Cash sale' : 'Cash refund'}</Table.Td>
              <Table.Td ta="right" c={m.amount < 0 ? 'red' : undefined}>
                {m.amount < 0 ? `-${formatMoney(-m.amount)}` : formatMoney(m.amount)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function DrawerHeading({ d }: { d: Details }) {
  return (
    <Stack gap={2}>
      <Group gap="xs">
        <Text fw={600}>{d.staffName || d.staffEmail}</Text>
        <DrawerStatusBadge status={d.status} />
      </Group>
      <Text size="sm" c="dimmed">
        Opened {formatDateTime(d.openedAt)}
        {d.closedAt ? ` · closed ${formatDateTime(d.closedAt)}` : ''}
      </Text>
      {d.note && <Text size="sm">Note: {d.note}</Text>}
    </Stack>
  );
}
