import { ActionIcon, Badge, Button, Code, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { discountCodeState, formatMoney, isEventWritable, type DiscountCodeState, type TDiscountCode, type TEvent } from '@marquee/core';
import { IconDiscount2, IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { askConfirmDelete } from '../../../ui/confirm-delete';
import { EmptyState } from '../../../ui/empty-state';
import { notify } from '../../../ui/notify';
import { fromListQuery, PagedTable, PHONE_TABLE_MIN_WIDTH, useCursorPager, type Column } from '../../../ui/paged-table';
import { formatInZone } from '../../../ui/time';
import { useAllTicketTypes } from '../../ticket-types/queries';
import { useDeleteDiscountCode } from '../mutations';
import { useDiscountCodes } from '../queries';
import { DiscountCodeModal } from './discount-code-modal';
import { useEventAccess } from '../../../shared/access';

/** What an organiser needs to know at a glance: does the code work right now, and if not why. */
const STATE_BADGE: Record<DiscountCodeState, { label: string; color: string }> = {
  off: { label: 'Off', color: 'gray' },
  usedUp: { label: 'Used up', color: 'orange' },
  expired: { label: 'Expired', color: 'red' },
  scheduled: { label: 'Scheduled', color: 'blue' },
  active: { label: 'Active', color: 'teal' },
};
const stateOf = (c: TDiscountCode, now: number) => STATE_BADGE[discountCodeState(c.details, now)];

export const discountLabel = (c: TDiscountCode) => (c.details.kind === 'percent' ? `${c.details.value}% off` : `${formatMoney(c.details.value)} off`);

/** "3 / ∞": used, of the limit. */
function Used({ c }: { c: TDiscountCode }) {
  return (
    <Text fz="sm" span>
      {c.details.usedCount.toLocaleString('en-US')}
      <Text span c="dimmed" fz="sm">
        {' '}
        / {c.details.usageLimit === null ? '∞' : c.details.usageLimit.toLocaleString('en-US')}
      </Text>
    </Text>
  );
}

function StateBadge({ c, now }: { c: TDiscountCode; now: number }) {
  const s = stateOf(c, now);
  return (
    <Badge color={s.color} variant="light" radius="sm">
      {s.label}
    </Badge>
  );
}

export type DiscountCodesPanelProps = { event: TEvent };

export function DiscountCodesPanel({ event }: DiscountCodesPanelProps) {
  const pager = useCursorPager({ defaultPageSize: 25 });
  const list = useDiscountCodes(event.id, { cursor: pager.cursor, limit: pager.limit });
  const ticketTypes = useAllTicketTypes(event.id);
  const remove = useDeleteDiscountCode(event.id);
  const [editing, setEditing] = useState<TDiscountCode | null | undefined>(undefined);
  // Cancelled events, and people who may only read this one (tenant staff, check-in staff).
  const { canEditEvent } = useEventAccess(event.tenantId, event.id);
  const readOnly = !isEventWritable(event.details.status) || !canEditEvent;
  const names = new Map((ticketTypes.data ?? []).map((t) => [t.id, t.details.name]));
  const zone = event.details.timeZone;
  const now = Date.now();

  const deleteCode = async (c: TDiscountCode) => {
    const ok = await askConfirmDelete({ title: 'Delete discount code', message: `Delete ${c.details.code}? Orders that already used it keep their discount.` });
    if (!ok) return;
    remove.mutate(c.id, {
      onSuccess: () => notify.success('Discount code deleted', `${c.details.code} was deleted.`),
      onError: (e) => notify.error('Could not delete the discount code', errorMessage(e)),
    });
  };

  const columns: Column<TDiscountCode>[] = [
    {
      key: 'code',
      header: 'Code',
      render: (c) => (
        <Stack gap={6} align="flex-start" miw={0}>
          <Code fz="sm" fw={600} bg="gray.1" style={{ wordBreak: 'break-all' }}>
            {c.details.code}
          </Code>
          {/* On a phone the discount, its use and its status go under the code (issue 21.16). */}
          <Stack gap={6} hiddenFrom="sm" align="flex-start">
            <Text fz="sm" fw={500}>
              {discountLabel(c)}
              <Text span c="dimmed" fz="sm">
                {' · used '}
              </Text>
              <Used c={c} />
            </Text>
            <StateBadge c={c} now={now} />
          </Stack>
        </Stack>
      ),
    },
    { key: 'discount', header: 'Discount', width: 120, visibleFrom: 'sm', render: (c) => <Text fz="sm" fw={500}>{discountLabel(c)}</Text> },
    {
      key: 'appliesTo',
      header: 'Applies to',
      visibleFrom: 'md',
      render: (c) =>
        c.details.ticketTypeIds.length === 0 ? (
          <Text fz="sm" c="dimmed">
            All ticket types
          </Text>
        ) : (
          <Text fz="sm" lineClamp={2}>
            {c.details.ticketTypeIds.map((id) => names.get(id) ?? 'Deleted ticket type').join(', ')}
          </Text>
        ),
    },
    {
      key: 'used',
      header: 'Used',
      width: 90,
      visibleFrom: 'sm',
      render: (c) => <Used c={c} />,
    },
    {
      key: 'valid',
      header: 'Valid',
      visibleFrom: 'sm',
      render: (c) =>
        !c.details.startsAt && !c.details.endsAt ? (
          <Text fz="sm" c="dimmed">
            Any time
          </Text>
        ) : (
          <Stack gap={0}>
            {c.details.startsAt && <Text fz="xs">From {formatInZone(c.details.startsAt, zone, { withWeekday: false })}</Text>}
            {c.details.endsAt && <Text fz="xs">Until {formatInZone(c.details.endsAt, zone, { withWeekday: false })}</Text>}
          </Stack>
        ),
    },
    {
      key: 'status',
      header: 'Status',
      width: 100,
      visibleFrom: 'sm',
      render: (c) => <StateBadge c={c} now={now} />,
    },
    {
      key: 'actions',
      header: <span style={{ position: 'absolute', left: -10000 }}>Actions</span>,
      width: 92,
      align: 'right',
      render: (c) => (
        <Group gap={4} justify="flex-end" wrap="nowrap" onClick={(e) => e.stopPropagation()}>
          <Tooltip label="Edit">
            <ActionIcon variant="subtle" aria-label={`Edit ${c.details.code}`} onClick={() => setEditing(c)} disabled={readOnly}>
              <IconEdit size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon variant="subtle" color="red" aria-label={`Delete ${c.details.code}`} onClick={() => void deleteCode(c)} disabled={readOnly}>
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
            Discount codes
          </Title>
          <Text fz="sm" c="dimmed">
            Codes attendees enter at checkout for a percentage or a fixed amount off.
          </Text>
        </Stack>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} disabled={readOnly} data-testid="add-discount-code">
          Add discount code
        </Button>
      </Group>
      <PagedTable
        aria-label="Discount codes"
        columns={columns}
        {...fromListQuery(list)}
        rowKey={(c) => c.id}
        pager={pager}
        onRowClick={readOnly ? undefined : setEditing}
        minWidth={PHONE_TABLE_MIN_WIDTH}
        empty={
          <EmptyState
            bare
            icon={<IconDiscount2 size={28} stroke={1.6} />}
            title="No discount codes yet"
            description={readOnly ? 'This event has no discount codes.' : 'Add a code for early birds, members or partners.'}
            action={
              !readOnly && (
                <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)}>
                  Add discount code
                </Button>
              )
            }
          />
        }
      />
      <DiscountCodeModal event={event} code={editing} ticketTypes={ticketTypes.data ?? []} onClose={() => setEditing(undefined)} />
    </>
  );
}
