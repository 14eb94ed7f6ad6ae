import { ActionIcon, Badge, Group, Menu, Stack, Text } from '@mantine/core';
import type { TStaffMember } from '@marquee/core';
import { IconDots, IconMailOff, IconPencil, IconUserMinus, IconUsersGroup } from '@tabler/icons-react';
import { useState } from 'react';
import { useSiteContext } from '../../../shared/site-context';
import { errorMessage } from '../../../ui/api-client';
import { confirmDelete } from '../../../ui/confirm-delete';
import { EmptyState } from '../../../ui/empty-state';
import { notify } from '../../../ui/notify';
import { fromListQuery, PagedTable, PHONE_TABLE_MIN_WIDTH, useCursorPager, type Column } from '../../../ui/paged-table';
import { SearchInput } from '../../../ui/search-input';
import { useSession } from '../../../ui/session';
import { useRemoveStaff } from '../mutations';
import { useStaff } from '../queries';
import { EditStaffRolesModal } from './edit-staff-roles-modal';
import { StaffRoleBadges, StaffStatusBadge, staffName } from './staff-badges';

// spec: accounts-admin-fees §9: tenant and user tables page size 50.
const STAFF_PAGE_SIZE = 50;

// Our own wording: the spec gives no message for this failure (docs/decisions.md).
export const REMOVE_STAFF_FAILED = 'Remove Staff Failed';

/** Someone invited who has not joined: removing them withdraws the invite. */
const isInvitee = (m: TStaffMember) => m.details.status === 'PENDING' || m.details.status === 'EXPIRED';

export type StaffTableProps = {
  /** Tenant admins change roles and remove people; everyone else only reads. */
  canManage: boolean;
};

/** The organisation's staff: members and open invites, with edit-roles and remove for admins. */
export function StaffTable({ canManage }: StaffTableProps) {
  const { user: me } = useSession();
  const tenantName = useSiteContext().tenant?.name ?? 'this organisation';
  const [search, setSearch] = useState('');
  const pager = useCursorPager({ defaultPageSize: STAFF_PAGE_SIZE, resetKey: search });
  const list = useStaff({ cursor: pager.cursor, limit: pager.limit, search: search || undefined });
  const [editing, setEditing] = useState<TStaffMember | null>(null);
  const remove = useRemoveStaff();

  const askRemove = (m: TStaffMember) => {
    const name = staffName(m);
    const self = m.id === me?.id;
    if (isInvitee(m)) {
      confirmDelete({
        title: 'Withdraw invite',
        message: `Withdraw the invitation to ${m.details.email}? The link in their e-mail stops working.`,
        confirmLabel: 'Withdraw invite',
        onConfirm: () =>
          remove.mutateAsync(m.id).then(
            () => notify.success('Invite withdrawn', `The invitation to ${m.details.email} was withdrawn.`),
            (e) => notify.error(REMOVE_STAFF_FAILED, errorMessage(e)),
          ),
      });
      return;
    }
    confirmDelete({
      title: self ? 'Leave this organisation' : 'Remove from staff',
      message: self
        ? `Remove yourself from ${tenantName}? You lose access to this console at once; your Marquee account stays.`
        : `Remove ${name} (${m.details.email}) from ${tenantName}? They lose access to this console and its events at once; their Marquee account stays.`,
      confirmLabel: 'Remove',
      onConfirm: () =>
        remove.mutateAsync(m.id).then(
          () => notify.success('Staff member removed', `${name} no longer has access to ${tenantName}.`),
          (e) => notify.error(REMOVE_STAFF_FAILED, errorMessage(e)),
        ),
    });
  };

  const columns: Column<TStaffMember>[] = [
    {
      key: 'person',
      header: 'Name',
      render: (m) => {
        const named = `${m.details.firstName} ${m.details.lastName}`.trim();
        return (
          <Stack gap={0} miw={0}>
            <Group gap={6} wrap="nowrap">
              {named ? (
                <Text fz="sm" fw={600} truncate>
                  {named}
                </Text>
              ) : (
                <Text fz="sm" c="dimmed" fs="italic">
                  Invited
                </Text>
              )}
              {m.id === me?.id && (
                <Badge size="xs" variant="outline" color="gray" radius="sm" style={{ flexShrink: 0 }}>
                  You
                </Badge>
              )}
            </Group>
            <Text fz="xs" c="dimmed" truncate>
              {m.details.email}
            </Text>
            {/* On a phone the roles and status go under the person instead of in columns of their own. */}
            <Stack gap={6} mt={6} hiddenFrom="sm" align="flex-start">
              <StaffRoleBadges roles={m.details.roles} />
              <StaffStatusBadge status={m.details.status} />
            </Stack>
          </Stack>
        );
      },
    },
    { key: 'roles', header: 'Roles', visibleFrom: 'sm', render: (m) => <StaffRoleBadges roles={m.details.roles} /> },
    { key: 'status', header: 'Status', width: 220, visibleFrom: 'sm', render: (m) => <StaffStatusBadge status={m.details.status} /> },
  ];
  if (canManage) {
    columns.push({
      key: 'actions',
      header: <span style={{ position: 'absolute', left: -10000 }}>Actions</span>,
      width: 56,
      align: 'right',
      render: (m) => (
        <Menu position="bottom-end" withinPortal shadow="md">
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${m.details.email}`}>
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setEditing(m)}>
              Edit roles
            </Menu.Item>
            <Menu.Divider />
            {isInvitee(m) ? (
              <Menu.Item color="red" leftSection={<IconMailOff size={16} />} onClick={() => askRemove(m)}>
                Withdraw invite
              </Menu.Item>
            ) : (
              <Menu.Item color="red" leftSection={<IconUserMinus size={16} />} onClick={() => askRemove(m)}>
                {m.id === me?.id ? 'Leave organisation' : 'Remove from staff'}
              </Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      ),
    });
  }

  return (
    <>
      <Group mb="md">
        <SearchInput placeholder="Search by name or email" onSearch={setSearch} w={{ base: '100%', sm: 360 }} />
      </Group>
      <PagedTable
        aria-label="Staff"
        columns={columns}
        {...fromListQuery(list)}
        rowKey={(m) => m.id}
        pager={pager}
        minWidth={PHONE_TABLE_MIN_WIDTH}
        empty={
          <EmptyState
            bare
            icon={<IconUsersGroup size={28} stroke={1.6} />}
            title={search ? 'No staff match your search' : 'No staff yet'}
            description={search ? `No name or e-mail address contains “${search}”.` : 'Invite the people who help you run your events.'}
          />
        }
      />
      <EditStaffRolesModal member={editing} onClose={() => setEditing(null)} />
    </>
  );
}
