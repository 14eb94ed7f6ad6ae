import { Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { TSession } from '@marquee/core';
import { IconArrowRight, IconLock, IconUserCircle } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { displayName, tenantConsoles } from '../../ui/session';

export type NoConsoleAccessProps = { session: TSession; area: 'platform' | 'tenant'; place: string };

/**
 * A signed-in person who is not a member of this console. On the platform host, an organiser
 * with exactly one tenant is sent to that tenant's host (sessions are per host, so they sign in
 * there, with their e-mail filled in); everyone else reads where they can go.
 */
export function NoConsoleAccess({ session, area, place }: NoConsoleAccessProps) {
  const consoles = area === 'platform' ? tenantConsoles(session.memberships) : [];
  const only = consoles.length === 1 ? consoles[0] : undefined;
  const loginAt = (url: string) => `${url}/login?${new URLSearchParams({ newUserName: session.user.email })}`;

  useEffect(() => {
    if (only) window.location.assign(loginAt(only.tenantUrl));
  }, [only?.tenantUrl]);

  return (
    <Paper withBorder shadow="xs" p={{ base: 'lg', sm: 40 }} data-testid="no-console-access">
      <Stack gap="md" align="flex-start">
        <ThemeIcon size={52} radius="xl" variant="light">
          <IconLock size={26} />
        </ThemeIcon>
        <Title order={2} fz={24}>
          Welcome, {displayName(session.user)}
        </Title>
        <Text c="dimmed" maw={560}>
          {only
            ? `Taking you to the ${only.tenantName} console…`
            : `Your account is ready, but it does not have access to the ${place}. The console is for event organisers and Marquee staff who have been invited to it. To buy tickets, open the event's page from its organiser's link.`}
        </Text>
        {consoles.length > 1 && (
          <Stack gap="xs">
            <Text fw={600} fz="sm">
              Your organisations
            </Text>
            {consoles.map((c) => (
              <Button key={c.tenantId} component="a" href={loginAt(c.tenantUrl)} variant="light" rightSection={<IconArrowRight size={16} />}>
                {c.tenantName}
              </Button>
            ))}
          </Stack>
        )}
        <Group gap="sm" mt="xs">
          <Button component={Link} to="/profile" leftSection={<IconUserCircle size={16} />}>
            Edit your profile
          </Button>
          <Button component={Link} to="/change-password" variant="default" leftSection={<IconLock size={16} />}>
            Change password
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
