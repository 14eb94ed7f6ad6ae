import { ActionIcon, Badge, Button, Group, Progress, Stack, Text, Title, Tooltip } from '@mantine/core';
import { formatMoney, isEventWritable, type SalesAvailability, type TEvent, type TTicketType } from '@marquee/core';
import { IconEdit, IconPlus, IconTicket, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { askConfirmDelete } from '../../../ui/confirm-delete';
import { EmptyState } from '../../../ui/empty-state';
import { notify } from '../../../ui/notify';
import { fromListQuery, PagedTable, PHONE_TABLE_MIN_WIDTH, useCursorPager, type Column } from '../../../ui/paged-table';
import { formatWallClock, zoneAbbreviationOnWall } from '../../../ui/time';
import { useDeleteTicketType } from '../mutations';
import { useAllTicketTypes, useTicketTypes } from '../queries';
import { TicketTypeModal } from './ticket-type-modal';
import { useEventAccess } from '../../../shared/access';

function Availability({ t, names, timeZone }: { t: TTicketType; names: Map<string, string>; timeZone: string }) {
  const d = t.details;
  const kind = d.salesAvailability as SalesAvailability;
  if (kind === 'SALES_AVAILABILITY_OPT_2') {
    // Each end in the abbreviation of its own date: a window can span a change to or from summer time.
    const startZone = zoneAbbreviationOnWall(timeZone, d.startDate, d.startTime);
    const endZone = zoneAbbreviationOnWall(timeZone, d.endDate, d.endTime);
    return (
      <Stack gap={0}>
        <Text fz="sm">Sales window</Text>
        <Text fz="xs" c="dimmed">
          {formatWallClock(d.startDate, d.startTime)}
          {startZone === endZone ? '' : ` ${startZone}`} – {formatWallClock(d.endDate, d.endTime)} {endZone}
        </Text>
      </Stack>
    );
  }
  if (kind === 'SALES_AVAILABILITY_OPT_3') {
    return (
      <Stack gap={0}>
        <Text fz="sm">While another is available</Text>
        <Text fz="xs" c="dimmed">
          {names.get(d.otherTicketTypeId ?? '') ?? 'a deleted ticket type'}
        </Text>
      </Stack>
    );
  }
  return <Text fz="sm">Always</Text>;
}

function Remaining({ t }: { t: TTicketType }) {
  const { quantity, remainingQuantity, soldOrHeld } = t.details;
  const pct = quantity > 0 ? (soldOrHeld / quantity) * 100 : 0;
  return (
    <Stack gap={4} miw={110}>
      <Text fz="sm">
        <b>{remainingQuantity.toLocaleString('en-US')}</b>
        <Text span c="dimmed" fz="sm">
          {' '}
          of {quantity.toLocaleString('en-US')}
        </Text>
      </Text>
      <Progress value={pct} size="sm" color={remainingQuantity === 0 ? 'red' : 'brand'} aria-label={`${t.details.sold} sold, ${t.details.held} in checkouts`} />
    </Stack>
  );
}

const priceLabel = (t: TTicketType) => (t.details.price === 0 ? 'Free' : formatMoney(t.details.price));

export type TicketTypesPanelProps = { event: TEvent };

/** An event's ticket types: a table and the add/edit modal. */
export function TicketTypesPanel({ event }: TicketTypesPanelProps) {
  const pager = useCursorPager({ defaultPageSize: 25 });
  const list = useTicketTypes(event.id, { cursor: pager.cursor, limit: pager.limit });
  const all = useAllTicketTypes(event.id);
  const remove = useDeleteTicketType(event.id);
  const [editing, setEditing] = useState<TTicketType | null | undefined>(undefined);
  // Cancelled events, and people who may only read this one (tenant staff, check-in staff).
  const { canEditEvent } = useEventAccess(event.tenantId, event.id);
  const readOnly = !isEventWritable(event.details.status) || !canEditEvent;
  const names = new Map((all.data ?? []).map((t) => [t.id, t.details.name]));

  const deleteType = async (t: TTicketType) => {
    const ok = await askConfirmDelete({ title: 'Delete ticket type', message: `Delete “${t.details.name}”? A ticket type that has sold tickets cannot be deleted; switch it off instead.` });
    if (!ok) return;
    remove.mutate(t.id, {
      onSuccess: () => notify.success('Ticket type deleted', `${t.details.name} was deleted.`),
      onError: (e) => notify.error('Could not delete the ticket type', errorMessage(e)),
    });
  };

  const columns: Column<TTicketType>[] = [
    {
      key: 'name',
      header: 'Ticket type',
      render: (t) => (
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="nowrap">
            <Text fz="sm" fw={600} truncate>
              {t.details.name}
            </Text>
            {!t.details.active && (
              <Badge size="xs" color="gray" variant="light">
                Off sale
              </Badge>
            )}
          </Group>
          {t.details.details && (
            <Text fz="xs" c="dimmed" lineClamp={1}>
              {t.details.details}
            </Text>
          )}
          {/* On a phone the price and what is left go under the name instead of in columns of their own. */}
          <Stack gap={6} mt={6} hiddenFrom="sm">
            <Text fz="sm" fw={500}>
              {priceLabel(t)}
            </Text>
            <Remaining t={t} />
          </Stack>
        </Stack>
      ),
    },
    { key: 'price', header: 'Price', width: 110, align: 'right', visibleFrom: 'sm', render: (t) => <Text fz="sm" fw={500}>{priceLabel(t)}</Text> },
    {
      key: 'sold',
      header: 'Sold',
      width: 110,
      align: 'right',
      visibleFrom: 'md',
      render: (t) => (
        <Stack gap={0} align="flex-end">
          <Text fz="sm">{t.details.sold.toLocaleString('en-US')}</Text>
          {t.details.held > 0 && (
            <Text fz="xs" c="dimmed">
              {t.details.held.toLocaleString('en-US')} in checkouts
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'remaining', header: 'Remaining', width: 140, visibleFrom: 'sm', render: (t) => <Remaining t={t} /> },
    {
      key: 'perOrder',
      header: <span style={{ whiteSpace: 'nowrap' }}>Per order</span>,
      width: 110,
      visibleFrom: 'lg',
      render: (t) => (
        <Text fz="sm">
          {t.details.minTicketPerOrder}–{t.details.maxTicketPerOrder}
        </Text>
      ),
    },
    { key: 'availability', header: 'Availability', visibleFrom: 'sm', render: (t) => <Availability t={t} names={names} timeZone={event.details.timeZone} /> },
    {
      key: 'actions',
      header: <span style={{ position: 'absolute', left: -10000 }}>Actions</span>,
      width: 92,
      align: 'right',
      render: (t) => (
        <Group gap={4} justify="flex-end" wrap="nowrap" onClick={(e) => e.stopPropagation()}>
          <Tooltip label="Edit">
            <ActionIcon variant="subtle" aria-label={`Edit ${t.details.name}`} onClick={() => setEditing(t)} disabled={readOnly}>
              <IconEdit size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon variant="subtle" color="red" aria-label={`Delete ${t.details.name}`} onClick={() => void deleteType(t)} disabled={readOnly}>
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  return (
    <>
      <Group justify="space-between" align="flex-end" mb="md" gap="sm">
        <Stack gap={2}>
          <Title order={3} fz="lg">
            Ticket types
          </Title>
          <Text fz="sm" c="dimmed">
            What attendees can buy, at what price and when.
          </Text>
        </Stack>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} disabled={readOnly} data-testid="add-ticket-type">
          Add ticket type
        </Button>
      </Group>
      <PagedTable
        aria-label="Ticket types"
        columns={columns}
        {...fromListQuery(list)}
        rowKey={(t) => t.id}
        pager={pager}
        pageSizes={[10, 25, 100]}
        onRowClick={readOnly ? undefined : setEditing}
        minWidth={PHONE_TABLE_MIN_WIDTH}
        empty={
          <EmptyState
            bare
            icon={<IconTicket size={28} stroke={1.6} />}
            title="No ticket types yet"
            description={readOnly ? 'This event has no ticket types.' : 'An event needs at least one ticket type before it can be published.'}
            action={
              !readOnly && (
                <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)}>
                  Add ticket type
                </Button>
              )
            }
          />
        }
      />
      <TicketTypeModal event={event} ticketType={editing} siblings={all.data ?? []} onClose={() => setEditing(undefined)} />
    </>
  );
}
