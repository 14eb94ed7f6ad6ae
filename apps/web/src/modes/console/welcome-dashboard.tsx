import { Paper, SimpleGrid, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconChartAreaLine } from '@tabler/icons-react';
import { greetingName } from '@marquee/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../ui/empty-state';
import { PageHeader } from '../../ui/page-header';
import { useSession } from '../../ui/session';
import type { NavItem } from './console-area';
import classes from './welcome-dashboard.module.css';

function greeting(now = new Date()) {
  const h = now.getHours();
  return h < 12 ? 'Good morning' : h < 18 ? 'Good afternoon' : 'Good evening';
}

export type WelcomeDashboardProps = {
  shortcuts: (NavItem & { description: string })[];
  statsTitle: string;
  /** The statistics, once a console has them; without, an honest notice that they are not there yet. */
  stats?: ReactNode;
  after?: ReactNode;
};

/** A console's home: its statistics (or a notice that they are not there yet) and the way to every area. */
export function WelcomeDashboard({ shortcuts, statsTitle, stats }: WelcomeDashboardProps) {
  const { user } = useSession();
  return (
    <>
      <PageHeader title="Dashboard" description={`${greeting()}${greetingName(user) ? `, ${greetingName(user)}` : ''}. Here is where to go next.`} />
      <Stack gap="xl">
        {stats ?? (
          <EmptyState
            icon={<IconChartAreaLine size={28} stroke={1.6} />}
            title={`${statsTitle} are not yet available`}
            description="Sales, ticket and attendee figures will appear here once reporting is switched on. Nothing is shown until the numbers are real."
          />
        )}
        <div>
          <Title order={3} fz="md" mb="sm">
            Shortcuts
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {shortcuts.map((s) => {
              const Icon = s.icon;
              return (
                <UnstyledButton key={s.to} component={Link} to={s.to} className={classes.card}>
                  <Paper withBorder p="md" radius="lg" h="100%">
                    <Stack gap={8}>
                      <ThemeIcon variant="light" size={36} radius="md">
                        <Icon size={20} stroke={1.7} />
                      </ThemeIcon>
                      <Text fw={600}>{s.label}</Text>
                      <Text fz="sm" c="dimmed">
                        {s.description}
                      </Text>
                    </Stack>
                  </Paper>
                </UnstyledButton>
              );
            })}
          </SimpleGrid>
        </div>
      </Stack>
    </>
  );
}
