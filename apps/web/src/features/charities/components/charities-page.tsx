import { ActionIcon, Button, Group, Menu, SegmentedControl, Stack, Text } from '@mantine/core';
import { M, type CharityStatus, type TCharity } from '@marquee/core';
import { IconDots, IconHeartHandshake, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { confirmDelete } from '../../../ui/confirm-delete';
import { EmptyState } from '../../../ui/empty-state';
import { PageHeader } from '../../../ui/page-header';
import { fromListQuery, PagedTable, useCursorPager, type Column } from '../../../ui/paged-table';
import { SearchInput } from '../../../ui/search-input';
import { usePlatformAccess } from '../../../shared/access';
import { useDeleteCharity } from '../mutations';
import { useCharities } from '../queries';
import { charityToast } from '../toasts';
import { CharityModal } from './charity-modal';
import { CharityStatusBadge } from './charity-status-badge';

export const charityAddress = (c: TCharity['details']) => `${c.street}, ${c.city}, ${c.state} ${c.zip_code}`;
const formatDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

type StatusFilter = 'all' | CharityStatus;

/** spec: accounts §2 screen 19: Charities (platform): list with status badge, create/edit modal, delete confirmation. */
export function CharitiesPage() {
  const { canWrite } = usePlatformAccess();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const pager = useCursorPager({ resetKey: `${search}|${status}` });
  const list = useCharities({ cursor: pager.cursor, limit: pager.limit, search: search || undefined, status: status === 'all' ? undefined : status });
  const remove = useDeleteCharity();
  const [modal, setModal] = useState<{ mode: 'create' | 'edit'; charity: TCharity | null } | null>(null);

  const askDelete = (c: TCharity) =>
    confirmDelete({
      title: 'Delete Charity',
      message: (
        <Stack gap="xs">
          <Text fz="sm">{M.charityDeleteConfirm}</Text>
          <Text fz="sm" c="dimmed">
            {c.details.name} will be removed from every tenant and from the events that use it. Donations already made are kept.
          </Text>
        </Stack>
      ),
      onConfirm: () => remove.mutateAsync(c.id).then(charityToast.removed, charityToast.removeFailed),
    });

  const columns: Column<TCharity>[] = [
    {
      key: 'name',
      header: 'Charity',
      render: (c) => (
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fz="sm" fw={600}>
            {c.details.name}
          </Text>
          <Text fz="xs" c="dimmed">
            {charityAddress(c.details)}
          </Text>
        </Stack>
      ),
    },
    { key: 'status', header: 'Status', width: 120, render: (c) => <CharityStatusBadge status={c.details.status} /> },
    { key: 'modified', header: 'Last updated', width: 150, visibleFrom: 'md', render: (c) => <Text fz="sm" c="dimmed">{formatDate(c.details.dateModified)}</Text> },
    {
      key: 'actions',
      header: <span style={{ position: 'absolute', left: -10000 }}>Actions</span>,
      width: 56,
      align: 'right',
      render: (c) =>
        canWrite && (
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${c.details.name}`} onClick={(e) => e.stopPropagation()}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
              <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setModal({ mode: 'edit', charity: c })}>
                Edit
              </Menu.Item>
              <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => askDelete(c)}>
                Delete
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        ),
    },
  ];

  const filtered = !!search || status !== 'all';
  return (
    <>
      <PageHeader
        title="Charities"
        description="The charities tenants can collect donations for. Tenants see and enable only the active ones."
        actions={
          canWrite && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setModal({ mode: 'create', charity: null })}>
              Add Charity
            </Button>
          )
        }
      />
      <Group mb="md" gap="sm" align="center">
        <SearchInput placeholder="Search Charity" onSearch={setSearch} w={{ base: '100%', sm: 360 }} />
        <SegmentedControl
          aria-label="Status"
          value={status}
          onChange={(v) => setStatus(v as StatusFilter)}
          data={[
            { value: 'all', label: 'All' },
            { value: 'active', label: 'Active' },
            { value: 'inactive', label: 'Inactive' },
          ]}
        />
      </Group>
      <PagedTable
        aria-label="Charities"
        columns={columns}
        {...fromListQuery(list)}
        rowKey={(c) => c.id}
        pager={pager}
        onRowClick={canWrite ? (c) => setModal({ mode: 'edit', charity: c }) : undefined}
        minWidth={520}
        empty={
          <EmptyState
            bare
            icon={<IconHeartHandshake size={28} stroke={1.6} />}
            title={filtered ? 'No charities match' : 'No charities yet'}
            description={filtered ? 'Try another name or status.' : 'Add the first charity so tenants can collect donations for it.'}
          />
        }
      />
      <CharityModal mode={modal?.mode ?? null} charity={modal?.charity ?? null} onClose={() => setModal(null)} />
    </>
  );
}
