import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCalendarRepeat, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useIsTenantAdmin } from '../../../shared/access';
import { useTenantId } from '../../../shared/tenant';
import { EmptyState } from '../../../ui/empty-state';
import { NoPageAccess } from '../../../ui/no-page-access';
import { PageHeader } from '../../../ui/page-header';
import { useSeriesList } from '../queries';

const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' }) : '—');

/** Issue 28: the tenant's event series; each opens its editor with the dates and their sales. */
export function SeriesListPage() {
  const tenantId = useTenantId();
  const admin = useIsTenantAdmin(tenantId);
  const list = useSeriesList(tenantId);
  if (!admin) return <NoPageAccess />;
  const rows = list.data?.result ?? [];
  return (
    <>
      <PageHeader
        title="Event series"
        description="Tours, classes and timed entry: one series, many dates. Each date sells and checks in on its own, with its own capacity."
        actions={
          <Button component={Link} to="/event-series/new" leftSection={<IconPlus size={16} />}>
            New series
          </Button>
        }
      />
      {list.isSuccess && rows.length === 0 ? (
        <EmptyState
          icon={<IconCalendarRepeat size={28} />}
          title="No series yet"
          description="Create a series from a list of dates or a weekly rule, with timed-entry slots if you need them."
          action={
            <Button component={Link} to="/event-series/new">
              New series
            </Button>
          }
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {rows.map((s) => (
            <Card key={s.id} withBorder radius="md" padding="md">
              <Stack gap={6}>
                <Anchor component={Link} to={`/event-series/${s.id}`} fw={600} fz="lg">
                  {s.details.name}
                </Anchor>
                <Group gap={6}>
                  <Badge variant="light">{s.details.dates} dates</Badge>
                  <Text fz="sm" c="dimmed">
                    {day(s.details.firstStart)} – {day(s.details.lastStart)}
                  </Text>
                </Group>
                <Text fz="xs" c="dimmed">
                  /series/{s.details.urlName}
                </Text>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </>
  );
}
