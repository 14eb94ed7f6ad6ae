import { Anchor, Badge, Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import type { EventStatus, TEvent } from '@marquee/core';
import { IconCalendarPlus, IconCalendarOff, IconCalendarRepeat } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { EmptyState } from '../../../ui/empty-state';
import { PageHeader } from '../../../ui/page-header';
import { fromListQuery, PagedTable, PHONE_TABLE_MIN_WIDTH, useCursorPager, type Column } from '../../../ui/paged-table';
import { SearchInput } from '../../../ui/search-input';
import { useEvents } from '../queries';
import { formatDateInZone, formatTimeInZone } from '../../../ui/time';
import { EventStatusBadge } from './event-status-badge';
import { useTenantId } from '../../../shared/tenant';
import { isBoxOfficeOnly, isCheckinOnly, isTenantWideMember, useEventAccess, useIsTenantAdmin } from '../../../shared/access';
import { useSession } from '../../../ui/session';

type StatusFilter = 'all' | EventStatus;

const STATUS_FILTERS: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'draft', label: 'Draft' },
  { value: 'published', label: 'Published' },
  { value: 'cancelled', label: 'Cancelled' },
];

/** Sold and remaining against the event's capacity, when it has one. */
function Capacity({ event }: { event: TEvent }) {
  // A series' row (issue 28) shows its dates summed.
  const { capacity, remainingCapacity } = event.series ?? event.details;
  // Sold = paid tickets (core soldAndHeld); unpaid holds are shown apart, never as sold.
  const sold = (event.series ?? event).sales?.sold ?? 0;
  const held = (event.series ?? event).sales?.held ?? 0;
  const soldLine = (
    <Text fz="sm" fw={500}>
      {sold.toLocaleString('en-US')} sold
      {held > 0 && (
        <Text span fz="xs" c="dimmed" fw={400}>
          {' '}
          · {held.toLocaleString('en-US')} in checkouts
        </Text>
      )}
    </Text>
  );
  if (capacity === null || remainingCapacity === null) {
    return (
      <Stack gap={0}>
        {soldLine}
        <Text fz="xs" c="dimmed">
          No limit
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap={0}>
      {soldLine}
      <Text fz="xs" c="dimmed">
        {remainingCapacity.toLocaleString('en-US')} of {capacity.toLocaleString('en-US')} left
      </Text>
    </Stack>
  );
}

type Viewer = 'organiser' | 'staff' | 'event-staff';

/**
 * What the page says to whom (issue 21.14): organisers create and publish; the organisation's staff
 * follow every event; event staff (check-in volunteers, event managers) see the events they work on.
 */
const WORDS: Record<Viewer, { description: string; emptyTitle: string; emptyDescription: string }> = {
  organiser: {
    description: 'Your events, what they sell and when. Publish an event to put it on sale on your site.',
    emptyTitle: 'No events yet',
    emptyDescription: 'Create your first event, add its ticket types, then publish it to start selling.',
  },
  staff: {
    description: "Your organisation's events, what they sell and when.",
    emptyTitle: 'No events yet',
    emptyDescription: "Your organisation's events appear here once an admin creates them.",
  },
  'event-staff': {
    description: 'The events you work on. Open one to check attendees in at the door, or to help run it.',
    emptyTitle: 'No events for you yet',
    emptyDescription: 'When an organiser invites you to work on an event, it appears here.',
  },
};

/** The event's date and time in its own zone, on one line (a phone's events list). */
function eventWhen(e: TEvent): string {
  const { timeZone } = e.details;
  const startDateTime = startOf(e);
  if (e.series) return startDateTime ? `Next: ${formatDateInZone(startDateTime, timeZone)}, ${formatTimeInZone(startDateTime, timeZone)}` : 'No dates to come';
  return startDateTime ? `${formatDateInZone(startDateTime, timeZone)}, ${formatTimeInZone(startDateTime, timeZone)}` : 'Not scheduled';
}

/** When the row's event starts; a series' row: its next date (issue 28). */
const startOf = (e: TEvent) => (e.series ? e.series.nextStartDateTime : e.details.startDateTime);
const datesLabel = (n: number) => `${n} ${n === 1 ? 'date' : 'dates'}`;

export function EventsPage() {
  const navigate = useNavigate();
  const tenantId = useTenantId();
  const { canManageEvents } = useEventAccess(tenantId);
  const { memberships } = useSession();
  const viewer: Viewer = canManageEvents ? 'organiser' : isTenantWideMember(memberships, tenantId) ? 'staff' : 'event-staff';
  const words = WORDS[viewer];
  /** Door volunteers land on the check-in page of their event. */
  const eventPath = (e: TEvent) =>
    e.series
      ? `/event-series/${e.series.id}`
      : isCheckinOnly(memberships, tenantId, e.id) ? `/events/${e.id}/check-in` : isBoxOfficeOnly(memberships, tenantId, e.id) ? `/events/${e.id}/box-office` : `/events/${e.id}`;
  const [name, setName] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const pager = useCursorPager({ resetKey: `${name}|${status}` });
  // Issue 28: a series' dates are one row (its series page lists them), for those who may open that
  // page; a search by name lists the dates themselves, so that one date is found by its name.
  const admin = useIsTenantAdmin(tenantId);
  const list = useEvents({ cursor: pager.cursor, limit: pager.limit, name: name || undefined, status: status === 'all' ? undefined : status, grouped: admin && !name });
  const filtered = !!name || status !== 'all';

  const columns: Column<TEvent>[] = [
    {
      key: 'name',
      header: 'Event',
      render: (e) => (
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="nowrap">
            <Anchor component={Link} to={eventPath(e)} fw={600} fz="sm" onClick={(ev) => ev.stopPropagation()} truncate>
              {e.series ? e.series.name : e.details.name}
            </Anchor>
            {e.series && (
              <Badge size="sm" variant="light" color="grape" leftSection={<IconCalendarRepeat size={12} />} style={{ flexShrink: 0 }} data-testid="series-dates">
                {datesLabel(e.series.dates)}
              </Badge>
            )}
          </Group>
          <Text fz="xs" c="dimmed" truncate>
            {e.series ? `/series/${e.series.urlName}` : `/${e.details.urlName}/`}
          </Text>
          {/* On a phone the date and status go under the name instead of in columns of their own. */}
          <Group gap="xs" mt={4} hiddenFrom="sm" wrap="wrap">
            <EventStatusBadge status={e.details.status} />
            <Text fz="xs">{eventWhen(e)}</Text>
          </Group>
        </Stack>
      ),
    },
    {
      key: 'date',
      header: 'Date',
      width: 220,
      visibleFrom: 'sm',
      render: (e) => {
        const start = startOf(e);
        return start ? (
          <Stack gap={0}>
            <Text fz="sm">
              {e.series && (
                <Text span fz="xs" c="dimmed">
                  Next:{' '}
                </Text>
              )}
              {formatDateInZone(start, e.details.timeZone)}
            </Text>
            <Text fz="xs" c="dimmed">
              {formatTimeInZone(start, e.details.timeZone)}
            </Text>
          </Stack>
        ) : (
          <Text fz="sm" c="dimmed">
            {e.series ? 'No dates to come' : 'Not scheduled'}
          </Text>
        );
      },
    },
    { key: 'status', header: 'Status', width: 120, visibleFrom: 'sm', render: (e) => <EventStatusBadge status={e.details.status} /> },
    { key: 'tickets', header: 'Tickets', width: 150, visibleFrom: 'sm', render: (e) => <Capacity event={e} /> },
  ];

  return (
    <>
      <PageHeader
        title="Events"
        description={words.description}
        actions={
          <Group gap="sm">
            {/* The public list of upcoming events on this host (issue 13), as visitors see it. */}
            <Button component="a" href="/events?public" target="_blank" variant="light" data-testid="view-public-events">
              View public page
            </Button>
            {canManageEvents && (
              <Button component={Link} to="/events/new" leftSection={<IconCalendarPlus size={18} />}>
                Create Event
              </Button>
            )}
          </Group>
        }
      />
      <Group mb="md" justify="space-between" gap="sm">
        <SearchInput placeholder="Search by event name" onSearch={setName} w={{ base: '100%', sm: 340 }} />
        <SegmentedControl
          aria-label="Status"
          value={status}
          onChange={(v) => setStatus(v as StatusFilter)}
          data={STATUS_FILTERS}
          size="sm"
        />
      </Group>
      <PagedTable
        aria-label="Events"
        columns={columns}
        minWidth={PHONE_TABLE_MIN_WIDTH}
        {...fromListQuery(list)}
        rowKey={(e) => (e.series ? `series:${e.series.id}` : e.id)}
        pager={pager}
        onRowClick={(e) => void navigate(eventPath(e))}
        empty={
          filtered ? (
            <EmptyState bare icon={<IconCalendarOff size={28} stroke={1.6} />} title="No matching events" description="No event matches this search. Try another name or status." />
          ) : (
            <EmptyState
              bare
              icon={<IconCalendarPlus size={28} stroke={1.6} />}
              title={words.emptyTitle}
              description={words.emptyDescription}
              action={
                canManageEvents && (
                  <Button component={Link} to="/events/new" variant="light">
                    Create Event
                  </Button>
                )
              }
            />
          )
        }
      />
    </>
  );
}
