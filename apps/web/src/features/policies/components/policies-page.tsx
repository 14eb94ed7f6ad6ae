import { Badge, Group, Stack, Text } from '@mantine/core';
import { M, type TPolicy } from '@marquee/core';
import { IconFileText } from '@tabler/icons-react';
import { confirmDelete } from '../../../ui/confirm-delete';
import { ConsoleListPage, useConsoleList } from '../../../ui/console-list-page';
import { notify } from '../../../ui/notify';
import type { Column } from '../../../ui/paged-table';
import { usePlatformAccess } from '../../../shared/access';
import { useDeletePolicy, usePolicies } from '../queries';
import { PolicyModal } from './policy-modal';

const groupBadge = (p: TPolicy) => (
  <Badge variant="light" color="gray" radius="sm">
    {p.details.group}
  </Badge>
);
const typeBadge = (p: TPolicy) => (
  <Badge variant="light" color="brand" radius="sm">
    {p.details.type}
  </Badge>
);

/** spec: accounts §2 screen 11 Global Policies. */
export function PoliciesPage() {
  const { canWrite } = usePlatformAccess();
  const page = useConsoleList<TPolicy>();
  const list = usePolicies({ cursor: page.pager.cursor, limit: page.pager.limit, search: page.search || undefined });
  const remove = useDeletePolicy();

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
    { key: 'id', header: 'ID', visibleFrom: 'sm', render: (p) => <Text fz="sm" ff="monospace">{p.id}</Text> },
    {
      key: 'name',
      header: 'Name',
      render: (p) => (
        <Stack gap={4}>
          <Text fz="sm" fw={600}>
            {p.details.name}
          </Text>
          {/* On a phone the id, group and type go under the name instead of in columns of their own. */}
          <Stack gap={6} hiddenFrom="sm">
            <Text fz="xs" ff="monospace" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {p.id}
            </Text>
            <Group gap={6}>
              {groupBadge(p)}
              {typeBadge(p)}
            </Group>
          </Stack>
        </Stack>
      ),
    },
    { key: 'group', header: 'Group', visibleFrom: 'sm', render: groupBadge },
    { key: 'type', header: 'Type', visibleFrom: 'sm', render: typeBadge },
    {
      key: 'modified',
      header: 'Last updated',
      // Beside the sidebar (md up) there is room for it only from lg; the badges come first.
      visibleFrom: 'lg',
      width: 150,
      render: (p) => <Text fz="sm" c="dimmed">{new Date(p.details.dateModified).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' })}</Text>,
    },
  ];

  return (
    <ConsoleListPage
      state={page}
      list={list}
      title="Global Policies"
      description="The policies attendees read on every tenant's site. Checkout links to the refund policy and the terms."
      canWrite={canWrite}
      addLabel="Add Policy"
      searchPlaceholder="Search by name"
      tableLabel="Global policies"
      columns={columns}
      rowMenu={{ label: (p) => p.id, onDelete: askDelete }}
      empty={{ icon: <IconFileText size={28} stroke={1.6} />, title: page.search ? 'No policies match your search' : 'No policies yet' }}
    >
      <PolicyModal mode={page.modal?.mode ?? null} policy={page.modal?.row ?? null} onClose={page.closeModal} />
    </ConsoleListPage>
  );
}
