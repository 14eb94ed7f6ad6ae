import { Anchor, Box, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { Link, Outlet } from 'react-router';
import { useSiteContext } from '../../shared/site-context';
import { Brand } from '../../ui/brand';
import { useDocumentTitle, useRouteHandle } from './route-handle';
import classes from './auth-layout.module.css';

/** The frame of the signed-out pages: a brand panel on wide screens, the form on the right. */
export function AuthLayout() {
  const context = useSiteContext();
  const handle = useRouteHandle();
  useDocumentTitle(handle.title);
  const tenantName = context.tenant?.name;

  return (
    <div className={classes.root}>
      <aside className={classes.panel} aria-hidden>
        <Brand size="lg" inverted subtitle={tenantName ?? 'Event ticketing'} />
        <Stack gap="lg" maw={420}>
          <Title order={1} c="white" fz={36} lh={1.15} style={{ letterSpacing: -0.5 }}>
            {tenantName ? `${tenantName} on Marquee` : 'Sell tickets. Fill seats. Get paid.'}
          </Title>
          <Text c="brand.1" fz="lg">
            One place for your events, ticket sales, staff, reports and payouts.
          </Text>
          <List spacing="sm" c="white" icon={<ThemeIcon size={22} radius="xl" color="white" variant="white"><IconCheck size={14} color="var(--mantine-color-brand-7)" /></ThemeIcon>}>
            <List.Item>Ticket types, fees and taxes set your way</List.Item>
            <List.Item>Live sales, tax and donation reports</List.Item>
            <List.Item>Payouts you can review before they go out</List.Item>
          </List>
        </Stack>
        <Text fz="xs" c="brand.2">
          © {new Date().getFullYear()} Marquee
        </Text>
      </aside>
      <main className={classes.main}>
        <Box className={classes.mobileBrand}>
          <Brand subtitle={tenantName ?? null} />
        </Box>
        <Box className={classes.card}>
          <Outlet />
        </Box>
        <Group gap="md" justify="center" mt="xl">
          <Anchor component={Link} to="/terms" fz="xs" c="dimmed">
            Terms of Service
          </Anchor>
          <Anchor component={Link} to="/privacy" fz="xs" c="dimmed">
            Privacy Policy
          </Anchor>
        </Group>
      </main>
    </div>
  );
}
