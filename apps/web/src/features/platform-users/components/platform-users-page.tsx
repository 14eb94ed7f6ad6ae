import { ActionIcon, Badge, Button, Group, Menu, Stack, Text } from '@mantine/core';
import { M, userStatusLabel, type TPlatformUser } from '@marquee/core';
import { IconDots, IconMailPlus, IconPencil, IconRosetteDiscountCheck, IconTrash, IconUsersGroup } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { confirmDelete } from '../../../ui/confirm-delete';
import { EmptyState } from '../../../ui/empty-state';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { fromListQuery, PagedTable, useCursorPager, type Column } from '../../../ui/paged-table';
import { SearchInput } from '../../../ui/search-input';
import { useSession } from '../../../ui/session';
import { usePlatformAccess } from '../../../shared/access';
import { useDeletePlatformUser, usePlatformUsers, useVerifyPlatformUser } from '../queries';
import { EditUserModal } from './edit-user-modal';
import { InviteModal } from './invite-modal';
import { RoleBadges } from './roles';

// spec: accounts-admin-fees §9: tenant and user tables page size 50.
const USER_PAGE_SIZE = 50;

/** spec: accounts §4 Platform user status: PENDING, ACTIVE, anything else a dash. */
function StatusBadge({ status }: { status: string }) {
  const label = userStatusLabel(status);
  if (label === '-') return <Text fz="sm">-</Text>;
  return (
    <Badge variant="light" radius="sm" color={status === 'ACTIVE' ? 'teal' : 'yellow'}>
      {label}
    </Badge>
  );
}

const formatLastLogin = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' }) : 'Never';

export function PlatformUsersPage() {
  const { canWrite, isSuperUser } = usePlatformAccess();
  const { user: me } = useSession();
  const [search, setSearch] = useState('');
  const pager = useCursorPager({ defaultPageSize: USER_PAGE_SIZE, resetKey: search });
  const list = usePlatformUsers({ cursor: pager.cursor, limit: pager.limit, search: search || undefined });
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<TPlatformUser | null>(null);
  const verify = useVerifyPlatformUser();
  const remove = useDeletePlatformUser();

  const doVerify = (u: TPlatformUser) =>
    verify.mutate(u.id, {
      onSuccess: () => notify.success('User verified', `${u.id} can now use the platform console.`),
      onError: (e) => notify.error(M.userVerificationFailed, errorMessage(e)),
    });

  const askDelete = (u: TPlatformUser) =>
    confirmDelete({
      title: 'Delete platform user',
      message: `Remove ${u.id} from the platform console? They lose access at once.`,
      onConfirm: () =>
        remove.mutateAsync(u.id).then(
          () => notify.success('User deleted', `${u.id} no longer has platform access.`),
          (e) => notify.error(M.deleteUserFailed, errorMessage(e)),
        ),
    });

  const columns: Column<TPlatformUser>[] = [
    {
      key: 'user',
      header: 'User',
      render: (u) => (
        <Stack gap={0} style={{ minWidth: 0 }}>
          {u.group.name ? (
            <Text fz="sm" fw={600} truncate>
              {u.group.name}
            </Text>
          ) : (
            <Text fz="sm" c="dimmed" fs="italic">
              Invited
            </Text>
          )}
          <Text fz="xs" c="dimmed" truncate>
            {u.id}
          </Text>
        </Stack>
      ),
    },
    { key: 'roles', header: 'Role', visibleFrom: 'sm', render: (u) => <RoleBadges roles={u.group.roles} /> },
    { key: 'status', header: 'Status', width: 200, render: (u) => <StatusBadge status={u.group.status} /> },
    { key: 'login', header: 'Last login', width: 190, visibleFrom: 'md', render: (u) => <Text fz="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>{formatLastLogin(u.group.lastLogin)}</Text> },
    {
      key: 'actions',
      header: <span style={{ position: 'absolute', left: -10000 }}>Actions</span>,
      width: 56,
      align: 'right',
      render: (u) =>
        canWrite && (
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${u.id}`}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {u.group.status === 'PENDING' &&
                // Verifying grants the invite's roles: only a super user grants super_user.
                (isSuperUser || !u.group.roles.includes('super_user') ? (
                  <Menu.Item leftSection={<IconRosetteDiscountCheck size={16} />} onClick={() => doVerify(u)}>
                    Verify User
                  </Menu.Item>
                ) : (
                  <Menu.Item leftSection={<IconRosetteDiscountCheck size={16} />} disabled>
                    <Text fz="sm">Verify User</Text>
                    <Text fz="xs" c="dimmed" maw={240} style={{ whiteSpace: 'normal' }}>
                      {M.superUserOnly}
                    </Text>
                  </Menu.Item>
                ))}
              <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setEditing(u)}>
                Edit Platform User
              </Menu.Item>
              {u.id !== me?.email && (
                <>
                  <Menu.Divider />
                  <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => askDelete(u)}>
                    Delete
                  </Menu.Item>
                </>
              )}
            </Menu.Dropdown>
          </Menu>
        ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Platform Users"
        description="The people who operate Marquee. Invite someone to give them every platform role."
        actions={
          isSuperUser && (
            <Button leftSection={<IconMailPlus size={16} />} onClick={() => setInviting(true)}>
              Add Platform User
            </Button>
          )
        }
      />
      <Group mb="md">
        <SearchInput placeholder="Search by email" onSearch={setSearch} w={{ base: '100%', sm: 360 }} />
      </Group>
      <PagedTable
        aria-label="Platform users"
        columns={columns}
        {...fromListQuery(list)}
        rowKey={(u) => u.id}
        pager={pager}
        empty={
          <EmptyState
            bare
            icon={<IconUsersGroup size={28} stroke={1.6} />}
            title={search ? 'No users match your search' : 'No platform users'}
            description={search ? `No e-mail address contains “${search}”.` : undefined}
          />
        }
      />
      <InviteModal opened={inviting} onClose={() => setInviting(false)} />
      <EditUserModal user={editing} onClose={() => setEditing(null)} />
    </>
  );
}
