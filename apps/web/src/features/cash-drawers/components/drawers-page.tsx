import { Alert, Anchor, Button, Card, Group, Loader, Modal, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { DRAWER_PATHS, type TCashDrawer } from '@marquee/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSiteContext } from '../../../shared/site-context';
import { errorMessage } from '../../../ui/api-client';
import { formatMoney } from '../../../ui/money';
import { PageHeader } from '../../../ui/page-header';
import { differenceLabel, drawerKeys, drawersApi } from '../api';
import { DrawerFigures, DrawerHeading, DrawerMovements, DrawerStatusBadge, formatDateTime } from './drawer-parts';

// Issue 23 part B: the tenant admin sees every staff member's cash drawer (list, detail) and
// downloads them as CSV.

function DrawerDetail({ tenantId, drawerId }: { tenantId: string; drawerId: string }) {
  const q = useQuery({ queryKey: drawerKeys.one(tenantId, drawerId), queryFn: ({ signal }) => drawersApi.get(tenantId, drawerId, signal) });
  if (q.isPending) return <Loader />;
  if (q.isError) return <Alert color="red">{errorMessage(q.error)}</Alert>;
  return (
    <Stack>
      <DrawerHeading d={q.data.details} />
      <DrawerFigures d={q.data.details} />
      <DrawerMovements d={q.data.details} />
    </Stack>
  );
}

export function DrawersPage() {
  const context = useSiteContext();
  const tenantId = context.tenant?.id ?? '';
  const [status, setStatus] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  const list = useQuery({ queryKey: drawerKeys.list(tenantId, status), queryFn: ({ signal }) => drawersApi.list(tenantId, { status }, signal), enabled: !!tenantId });
  const csv = `${DRAWER_PATHS.csv(tenantId)}${status ? `?filters=${encodeURIComponent(`details.status=${status}`)}` : ''}`;
  const rows: TCashDrawer[] = list.data?.result ?? [];
  return (
    <Stack gap="md">
      <PageHeader
        title="Cash drawers"
        description="Every staff member's drawer: float, cash sales and refunds, what was expected at close, what was counted and the difference."
        actions={
          <Button component="a" href={csv} download variant="default">
            Download CSV
          </Button>
        }
      />
      <SegmentedControl
        w="fit-content"
        value={status}
        onChange={setStatus}
        data={[
          { value: '', label: 'All' },
          { value: 'open', label: 'Open' },
          { value: 'closed', label: 'Closed' },
        ]}
      />
      {list.isPending && <Loader />}
      {list.isError && <Alert color="red">{errorMessage(list.error)}</Alert>}
      {list.isSuccess && rows.length === 0 && (
        <Text c="dimmed">No cash drawers yet. A box office seller opens one before taking cash.</Text>
      )}
      {rows.length > 0 && (
        <Card withBorder radius="md" p={0}>
          <Table.ScrollContainer minWidth={340}>
            <Table highlightOnHover verticalSpacing="sm" fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Staff</Table.Th>
                  <Table.Th visibleFrom="sm">Opened</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th ta="right" visibleFrom="md">Float</Table.Th>
                  <Table.Th ta="right" visibleFrom="md">Cash sales</Table.Th>
                  <Table.Th ta="right" visibleFrom="md">Cash refunds</Table.Th>
                  <Table.Th ta="right">Expected</Table.Th>
                  <Table.Th ta="right" visibleFrom="sm">Counted</Table.Th>
                  <Table.Th ta="right">Difference</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.id} style={{ cursor: 'pointer' }} onClick={() => setOpenId(r.id)} data-testid="drawer-row">
                    <Table.Td>
                      <Anchor component="button" fz="sm" onClick={() => setOpenId(r.id)}>
                        {r.details.staffName || r.details.staffEmail}
                      </Anchor>
                    </Table.Td>
                    <Table.Td visibleFrom="sm">{formatDateTime(r.details.openedAt)}</Table.Td>
                    <Table.Td>
                      <DrawerStatusBadge status={r.details.status} />
                    </Table.Td>
                    <Table.Td ta="right" visibleFrom="md">{formatMoney(r.details.openingFloat)}</Table.Td>
                    <Table.Td ta="right" visibleFrom="md">{formatMoney(r.details.cashSales)}</Table.Td>
                    <Table.Td ta="right" visibleFrom="md">{formatMoney(r.details.cashRefunds)}</Table.Td>
                    <Table.Td ta="right">{formatMoney(r.details.expectedCash)}</Table.Td>
                    <Table.Td ta="right" visibleFrom="sm">{r.details.countedAmount === null ? '—' : formatMoney(r.details.countedAmount)}</Table.Td>
                    <Table.Td ta="right" c={r.details.difference ? (r.details.difference < 0 ? 'red' : 'orange') : undefined}>
                      {r.details.difference === null ? '—' : differenceLabel(r.details.difference, formatMoney)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      <Modal opened={openId !== null} onClose={() => setOpenId(null)} title="Cash drawer" size="lg">
        {openId && <DrawerDetail tenantId={tenantId} drawerId={openId} />}
      </Modal>
      <Group />
    </Stack>
  );
}
