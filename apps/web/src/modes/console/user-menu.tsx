import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import type { TSession } from '@marquee/core';
import { IconChevronDown, IconLock, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useLogout } from '../../features/accounts/mutations';
import { displayName, initials } from '../../ui/session';

export function UserMenu({ session }: { session: TSession }) {
  const logout = useLogout();
  const user = session.user;
  return (
    <Menu position="bottom-end" width={240} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label="Account menu" data-testid="user-menu" px={6} py={4} style={{ borderRadius: 'var(--mantine-radius-md)' }}>
          <Group gap={10} wrap="nowrap">
            <Avatar src={user.profile} radius="xl" size={34} color="brand" alt="">
              {initials(user)}
            </Avatar>
            <div style={{ lineHeight: 1.15, maxWidth: 180 }}>
              <Text fz="sm" fw={600} truncate visibleFrom="sm">
                {displayName(user)}
              </Text>
              <Text fz="xs" c="dimmed" truncate visibleFrom="sm">
                {user.email}
              </Text>
            </div>
            <IconChevronDown size={14} stroke={1.8} color="var(--mantine-color-gray-6)" />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Signed in as {user.email}</Menu.Label>
        <Menu.Item component={Link} to="/profile" leftSection={<IconUserCircle size={16} />}>
          Profile
        </Menu.Item>
        <Menu.Item component={Link} to="/change-password" leftSection={<IconLock size={16} />}>
          Change Password
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => logout.mutate()} disabled={logout.isPending}>
          Log out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
