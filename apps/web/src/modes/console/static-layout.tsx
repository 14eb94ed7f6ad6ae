import { Anchor, Box, Container, Group } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { useSiteContext } from '../../shared/site-context';
import { Brand } from '../../ui/brand';
import { useDocumentTitle, useRouteHandle } from './route-handle';

/** Frame of the static pages (terms, privacy): readable for anyone, signed in or not. */
export function StaticLayout() {
  const context = useSiteContext();
  const handle = useRouteHandle();
  useDocumentTitle(handle.title);
  return (
    <Box mih="100vh" bg="gray.0">
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
        <Container size="md" h={64}>
          <Group h="100%" justify="space-between">
            <Anchor component={Link} to="/" underline="never">
              <Brand size="sm" subtitle={context.tenant?.name ?? null} />
            </Anchor>
            <Group gap="lg">
              <Anchor component={Link} to="/terms" fz="sm" c="dimmed">
                Terms
              </Anchor>
              <Anchor component={Link} to="/privacy" fz="sm" c="dimmed">
                Privacy
              </Anchor>
            </Group>
          </Group>
        </Container>
      </Box>
      <Container size="md" py={40} px={{ base: 'md', sm: 'xl' }}>
        <Outlet />
      </Container>
    </Box>
  );
}
