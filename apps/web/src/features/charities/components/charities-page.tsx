import { Box, SegmentedControl, Stack, Text } from '@mantine/core';
import { M, type CharityStatus, type TCharity } from '@marquee/core';
import { IconHeartHandshake } from '@tabler/icons-react';
import { useState } from 'react';
import { confirmDelete } from '../../../ui/confirm-delete';
import { ConsoleListPage, useConsoleList } from '../../../ui/console-list-page';
import type { Column } from '../../../ui/paged-table';
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
  const [status, setStatus] = useState<StatusFilter>('all');
  const page = useConsoleList<TCharity>({ filterKey: status });
  const list = useCharities({ cursor: page.pager.cursor, limit: page.pager.limit, search: page.search || undefined, status: status === 'all' ? undefined : status });
  const remove = useDeleteCharity();

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
          {/* On a phone the status goes under the address instead of in a column of its own. */}
          <Box hiddenFrom="xs" mt={6}>
            <CharityStatusBadge status={c.details.status} />
          </Box>
        </Stack>
      ),
    },
    { key: 'status', header: 'Status', width: 120, visibleFrom: 'xs', render: (c) => <CharityStatusBadge status={c.details.status} /> },
    { key: 'modified', header: 'Last updated', width: 150, visibleFrom: 'md', render: (c) => <Text fz="sm" c="dimmed">{formatDate(c.details.dateModified)}</Text> },
  ];

  const filtered = !!page.search || status !== 'all';
  return (
    <ConsoleListPage
      state={page}
      list={list}
      title="Charities"
      description="The charities tenants can collect donations for. Tenants see and enable only the active ones."
      canWrite={canWrite}
      addLabel="Add Charity"
      searchPlaceholder="Search Charity"
      filters={
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
      }
      tableLabel="Charities"
      columns={columns}
      rowMenu={{ label: (c) => c.details.name, onDelete: askDelete }}
      empty={{
        icon: <IconHeartHandshake size={28} stroke={1.6} />,
        title: filtered ? 'No charities match' : 'No charities yet',
        description: filtered ? 'Try another name or status.' : 'Add the first charity so tenants can collect donations for it.',
      }}
    >
      <CharityModal mode={page.modal?.mode ?? null} charity={page.modal?.row ?? null} onClose={page.closeModal} />
    </ConsoleListPage>
  );
}
