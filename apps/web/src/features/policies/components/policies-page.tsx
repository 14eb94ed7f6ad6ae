import { ActionIcon, Badge, Button, Group, Menu, Text } from '@mantine/core';
import { M, type TPolicy } from '@marquee/core';
import { IconDots, IconFileText, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { confirmDelete } from '../../../ui/confirm-delete';
import { EmptyState } from '../../../ui/empty-state';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { fromListQuery, PagedTable, useCursorPager, type Column } from '../../../ui/paged-table';
import { SearchInput } from '../../../ui/search-input';
import { usePlatformAccess } from '../../../shared/access';
import { useDeletePolicy, usePolicies } from '../queries';
import { PolicyModal } from './policy-modal';

/** spec: accounts §2 screen 11 Global Policies. */
export function PoliciesPage() {
  const { canWrite } = usePlatformAccess();
  const [search, setSearch] = useState('');
  const pager = useCursorPager({ resetKey: search });
  const list = usePolicies({ cursor: pager.cursor, limit: pager.limit, search: search || undefined });
  const remove = useDeletePolicy();
  const [modal, setModal] = useState<{ mode: 'create' | 'edit'; policy: TPolicy | null } | null>(null);

  const askDelete = (p: TPolicy) =>
    confirmDelete({
      title: 'Delete policy',
      message: `Delete the policy “${p.details.name}” (${p.id})? Pages that link to it will no longer show it.`,
      onConfirm: () =>
        remove.mutateAsync(p.id).then(
          () => notify.success('Policy deleted', `${p.details.name} was deleted.`),
          () => notify.error(M.policyDeleteFailed),
        ),
    });

  const columns: Column<TPolicy>[] = [
    { key: 'id', header: 'ID', render: (p) => <Text fz="sm" ff="monospace">{p.id}</Text> },
    { key: 'name', header: 'Name', render: (p) => <Text fz="sm" fw={600}>{p.details.name}</Text> },
    { key: 'group', header: 'Group', render: (p) => <Badge variant="light" color="gray" radius="sm">{p.details.group}</Badge> },
    { key: 'type', header: 'Type', render: (p) => <Badge variant="light" color="brand" radius="sm">{p.details.type}</Badge> },
    {
      key: 'modified',
      header: 'Last updated',
      visibleFrom: 'md',
      width: 150,
      render: (p) => <Text fz="sm" c="dimmed">{new Date(p.details.dateModified).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' })}</Text>,
    },
    {
      key: 'actions',
      header: <span style={{ position: 'absolute', left: -10000 }}>Actions</span>,
      width: 56,
      align: 'right',
      render: (p) =>
        canWrite && (
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${p.id}`} onClick={(e) => e.stopPropagation()}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
              <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setModal({ mode: 'edit', policy: p })}>
                Edit
              </Menu.Item>
              <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => askDelete(p)}>
                Delete
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Global Policies"
        description="The policies attendees read on every tenant's site. Checkout links to the refund policy and the terms."
        actions={
          canWrite && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setModal({ mode: 'create', policy: null })}>
              Add Policy
            </Button>
          )
        }
      />
      <Group mb="md">
        <SearchInput placeholder="Search by name" onSearch={setSearch} w={{ base: '100%', sm: 360 }} />
      </Group>
      <PagedTable
        aria-label="Global policies"
        columns={columns}
        {...fromListQuery(list)}
        rowKey={(p) => p.id}
        pager={pager}
        onRowClick={canWrite ? (p) => setModal({ mode: 'edit', policy: p }) : undefined}
        empty={<EmptyState bare icon={<IconFileText size={28} stroke={1.6} />} title={search ? 'No policies match your search' : 'No policies yet'} />}
      />
      <PolicyModal mode={modal?.mode ?? null} policy={modal?.policy ?? null} onClose={() => setModal(null)} />
    </>
  );
}
