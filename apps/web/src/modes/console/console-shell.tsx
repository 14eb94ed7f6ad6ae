import { Alert, AppShell, Anchor, Box, Burger, Container, Group, NavLink, Progress, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { TSession } from '@marquee/core';
import { IconLock } from '@tabler/icons-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, matchPath, useLocation, useNavigation } from 'react-router';
import { useSiteContext } from '../../shared/site-context';
import { Brand } from '../../ui/brand';
import type { ConsoleArea, NavItem, NavLeaf } from './console-area';
import { RouteAnnouncer, useRouteFocus } from './route-focus';
import { UserMenu } from './user-menu';

const isActive = (pathname: string, leaf: NavLeaf) =>
  !!matchPath({ path: leaf.to, end: leaf.end ?? leaf.to === '/' }, pathname);

function NavEntry({ item, pathname, onNavigate }: { item: NavItem; pathname: string; onNavigate: () => void }) {
  const Icon = item.icon;
  const [expanded, setExpanded] = useState(() => !!item.children?.some((c) => isActive(pathname, c)));
  if (item.children) {
    const open = item.children.some((c) => isActive(pathname, c));
    // A group is a real button (an anchor without href is skipped by Tab): WCAG 2.1.1.
    return (
      <NavLink
        component="button"
        type="button"
        aria-expanded={expanded}
        onClick={() => setExpanded((e) => !e)}
        opened={expanded}
        label={item.label}
        leftSection={<Icon size={18} stroke={1.7} />}
        active={open}
        variant="subtle"
        childrenOffset={30}
        styles={{ label: { fontWeight: 550 } }}
      >
        {item.children.map((c) => (
          <NavLink key={c.to} component={Link} to={c.to} label={c.label} active={isActive(pathname, c)} onClick={onNavigate} variant="light" />
        ))}
      </NavLink>
    );
  }
  return (
    <NavLink
      component={Link}
      to={item.to}
      label={item.label}
      leftSection={<Icon size={18} stroke={1.7} />}
      active={isActive(pathname, item)}
      onClick={onNavigate}
      variant="light"
      styles={{ label: { fontWeight: 550 } }}
    />
  );
}

/** The top bar shared by the consoles and the account-only shell. */
function Header({ session, subtitle, burger }: { session: TSession; subtitle: string; burger?: ReactNode }) {
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        {burger}
        <Anchor component={Link} to="/" underline="never" aria-label="Marquee home">
          <Brand subtitle={subtitle} size="sm" />
        </Anchor>
      </Group>
      <UserMenu session={session} />
    </Group>
  );
}

function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return <Progress value={100} animated size={3} radius={0} pos="fixed" top={0} left={0} right={0} style={{ zIndex: 500 }} aria-label="Loading page" />;
}

export type ConsoleShellProps = { area: ConsoleArea; session: TSession; children: ReactNode };

export function ConsoleShell({ area, session, children }: ConsoleShellProps) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const context = useSiteContext();
  const { pathname } = useLocation();
  useEffect(close, [pathname]);
  const notice = area.notice?.(context);
  const main = useRef<HTMLElement>(null);
  const announcement = useRouteFocus(main);

  return (
    <AppShell header={{ height: 64 }} navbar={{ width: 264, breakpoint: 'md', collapsed: { mobile: !opened } }} padding={0}>
      <NavigationProgress />
      <AppShell.Header withBorder>
        <Header
          session={session}
          subtitle={area.subtitle(context)}
          burger={<Burger opened={opened} onClick={toggle} hiddenFrom="md" size="sm" aria-label="Toggle navigation" />}
        />
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Main navigation">
        <AppShell.Section grow component={ScrollArea} type="scroll">
          <Box component="nav" data-testid="console-nav">
            {area.nav.filter((item) => item.visible?.(session.memberships, context) ?? true).map((item) => (
              <NavEntry key={item.label} item={item} pathname={pathname} onNavigate={close} />
            ))}
          </Box>
        </AppShell.Section>
        <AppShell.Section pt="sm" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
          <Group gap="md" px="xs">
            <Anchor component={Link} to="/terms" fz="xs" c="dimmed">
              Terms
            </Anchor>
            <Anchor component={Link} to="/privacy" fz="xs" c="dimmed">
              Privacy
            </Anchor>
            <Text fz="xs" c="dimmed" ml="auto">
              Marquee
            </Text>
          </Group>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main bg="gray.0" ref={main}>
        <RouteAnnouncer message={announcement} />
        <Container size="xl" px={{ base: 'md', sm: 'xl' }} py="xl">
          {notice && (
            <Alert color="red" variant="light" icon={<IconLock size={18} />} mb="lg" role="status">
              {notice}
            </Alert>
          )}
          {children}
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}

/** For a signed-in person without a console here: their account pages, without navigation. */
export function AccountShell({ session, subtitle, children }: { session: TSession; subtitle: string; children: ReactNode }) {
  return (
    <AppShell header={{ height: 64 }} padding={0}>
      <NavigationProgress />
      <AppShell.Header withBorder>
        <Header session={session} subtitle={subtitle} />
      </AppShell.Header>
      <AppShell.Main bg="gray.0">
        <Container size="md" px={{ base: 'md', sm: 'xl' }} py="xl">
          {children}
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
