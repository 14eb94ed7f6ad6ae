import { Alert, Anchor, Button, Group, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { IconAlertCircle, IconBan, IconCalendarOff, IconDiscount2, IconInfoCircle, IconLayout, IconListNumbers, IconMail, IconMessageQuestion, IconTicket, IconUsers } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { errorMessage, isNotFound } from '../../../ui/api-client';
import { EmptyState } from '../../../ui/empty-state';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { DiscountCodesPanel } from '../../discount-codes/components/discount-codes-panel';
import { useMessagesAccess } from '../../mailout/access';
import { MessagesPanel } from '../../mailout/components/messages-panel';
import { CancellationProgress } from '../../order-admin/components/cancellation-progress';
import { QuestionsPanel } from '../../questions/components/questions-panel';
import { EventStaffPanel } from '../../staff/components/event-staff-panel';
import { TicketTypesPanel } from '../../ticket-types/components/ticket-types-panel';
import { useCreateEvent, useUpdateEvent } from '../mutations';
import { useEvent } from '../queries';
import { publicEventUrl } from '../../../shared/tenant';
import { useEventAccess } from '../../../shared/access';
import { formatInZone } from '../../../ui/time';
import { EventActions } from './event-actions';
import { EventDetailsForm } from './event-details-form';
import { EventStatusBadge } from './event-status-badge';
import { EventSeatingCard } from '../../seating/components/event-seating-card';
import { WaitingRoomCard } from './waiting-room-card';
import { TransferSettingsCard } from '../../transfers/components/transfer-settings-card';

import { WaitlistPanel } from '../../waitlist/components/waitlist-panel';

// issue 10: the page builder (and GrapesJS with it) loads only when its tab opens.
const EventPagePanel = lazy(() => import('../../event-pages/components/event-page-panel').then((m) => ({ default: m.EventPagePanel })));

const TABS = ['details', 'ticket-types', 'questions', 'discount-codes', 'staff', 'waitlist', 'page', 'messages'] as const;
type Tab = (typeof TABS)[number];

/** /events/new: the details form alone; once created, the event opens on its ticket types. */
export function EventCreatePage() {
  const navigate = useNavigate();
  const create = useCreateEvent();
  return (
    <>
      <PageHeader
        title="Create Event"
        description="Start with the basics. You add ticket types and discount codes next, then publish when everything is ready."
        breadcrumbs={[{ label: 'Events', to: '/events' }, { label: 'Create Event' }]}
      />
      <EventDetailsForm
        event={null}
        submitLabel="Create event"
        onSubmit={async (details) => {
          const event = await create.mutateAsync({ ...details, name: details.name ?? '' });
          notify.success('Event created', 'Now add the ticket types it sells.');
          void navigate(`/events/${event.id}/ticket-types`, { replace: true });
          return event;
        }}
      />
    </>
  );
}

/** /events/:eventId/:tab?: the event's details, ticket types, discount codes and staff. */
export function EventEditorPage() {
  const { eventId = '', tab: tabParam } = useParams();
  const navigate = useNavigate();
  const event = useEvent(eventId);
  const update = useUpdateEvent(eventId);
  const [dirty, setDirty] = useState(false);
  const { canView: canViewMessages } = useMessagesAccess(event.data?.tenantId ?? '', eventId);
  const { canEditEvent } = useEventAccess(event.data?.tenantId, eventId);
  // Check-in staff read the event but may not read its messages (the server answers 403): no tab.
  const shown = (t: string) => (TABS as readonly string[]).includes(t) && (t !== 'messages' || canViewMessages);
  const tab: Tab = shown(tabParam ?? '') ? (tabParam as Tab) : 'details';

  if (event.isPending) {
    return (
      <Stack gap="md">
        <Skeleton height={14} width={160} />
        <Skeleton height={32} width={320} />
        <Skeleton height={36} />
        <Skeleton height={320} />
      </Stack>
    );
  }
  if (event.isError) {
    const missing = isNotFound(event.error);
    return (
      <EmptyState
        icon={missing ? <IconCalendarOff size={28} stroke={1.6} /> : <IconAlertCircle size={28} stroke={1.6} />}
        title={missing ? 'Event not found' : 'This event could not be loaded'}
        description={missing ? 'It may have been deleted, or the link is wrong.' : errorMessage(event.error)}
        action={
          missing ? (
            <Button component={Link} to="/events" variant="light">
              Back to events
            </Button>
          ) : (
            <Button variant="light" onClick={() => void event.refetch()}>
              Try again
            </Button>
          )
        }
      />
    );
  }

  const e = event.data;
  const d = e.details;
  const url = publicEventUrl(d.urlName);

  return (
    <>
      <PageHeader
        breadcrumbs={[{ label: 'Events', to: '/events' }, { label: d.name }]}
        title={
          <Group gap="sm" wrap="wrap" component="span">
            <span data-testid="event-title">{d.name}</span>
            <EventStatusBadge status={d.status} size="md" />
          </Group>
        }
        description={
          <>
            {d.startDateTime ? formatInZone(d.startDateTime, d.timeZone) : 'Not scheduled yet'} ·{' '}
            <Anchor href={url} target="_blank" rel="noreferrer" fz="sm" title={url}>
              /{d.urlName}/
            </Anchor>
          </>
        }
        actions={<EventActions event={e} dirty={dirty} />}
      />

      {d.status === 'cancelled' && (
        <Alert color="red" variant="light" icon={<IconBan size={18} />} mb="lg" title="This event is cancelled">
          Tickets no longer sell and nothing here can be changed. Orders, tickets and reports are kept for your records.
        </Alert>
      )}
      <CancellationProgress progress={e.cancellation} onRefresh={() => void event.refetch()} eventId={e.id} tenantId={e.tenantId} />
      {d.status === 'draft' && (
        <Alert color="brand" variant="light" icon={<IconInfoCircle size={18} />} mb="lg">
          <Text fz="sm">
            This event is a draft: attendees cannot see it yet.
            {canEditEvent ? ' Give it a start date and at least one ticket type, then publish it.' : ''}
          </Text>
        </Alert>
      )}

      <Tabs value={tab} onChange={(v) => void navigate(v === 'details' ? `/events/${e.id}` : `/events/${e.id}/${v}`)}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="details" leftSection={<IconInfoCircle size={16} />}>
            Details
          </Tabs.Tab>
          <Tabs.Tab value="ticket-types" leftSection={<IconTicket size={16} />}>
            Ticket types
          </Tabs.Tab>
          <Tabs.Tab value="questions" leftSection={<IconMessageQuestion size={16} />} data-testid="tab-questions">
            Questions
          </Tabs.Tab>
          <Tabs.Tab value="discount-codes" leftSection={<IconDiscount2 size={16} />}>
            Discount codes
          </Tabs.Tab>
          <Tabs.Tab value="staff" leftSection={<IconUsers size={16} />}>
            Staff
          </Tabs.Tab>
          <Tabs.Tab value="waitlist" leftSection={<IconListNumbers size={16} />} data-testid="tab-waitlist">
            Waiting list
          </Tabs.Tab>
          <Tabs.Tab value="page" leftSection={<IconLayout size={16} />}>
            Page
          </Tabs.Tab>
          {canViewMessages && (
            <Tabs.Tab value="messages" leftSection={<IconMail size={16} />} data-testid="tab-messages">
              Messages
            </Tabs.Tab>
          )}
        </Tabs.List>
        <Tabs.Panel value="details">
          <EventDetailsForm
            event={e}
            submitLabel="Save"
            onDirtyChange={setDirty}
            onSubmit={async (details) => {
              const saved = await update.mutateAsync(details);
              notify.success('Event saved', `${saved.details.name} was updated.`);
              return saved;
            }}
          />
          <WaitingRoomCard eventId={e.id} timeZone={d.timeZone} urlName={d.urlName} disabled={d.status === 'cancelled'} />
          <TransferSettingsCard eventId={e.id} disabled={d.status === 'cancelled'} />
        </Tabs.Panel>
        <Tabs.Panel value="ticket-types">
          <TicketTypesPanel event={e} />
          {tab === 'ticket-types' && <EventSeatingCard tenantId={e.tenantId} eventId={e.id} disabled={d.status === 'cancelled'} />}
        </Tabs.Panel>
        <Tabs.Panel value="questions">{tab === 'questions' && <QuestionsPanel event={e} />}</Tabs.Panel>
        <Tabs.Panel value="discount-codes">
          <DiscountCodesPanel event={e} />
        </Tabs.Panel>
        <Tabs.Panel value="staff">
          <EventStaffPanel event={e} />
        </Tabs.Panel>
        <Tabs.Panel value="waitlist">{tab === 'waitlist' && <WaitlistPanel event={e} />}</Tabs.Panel>
        <Tabs.Panel value="page">
          {tab === 'page' && (
            <Suspense fallback={<Skeleton h={400} />}>
              <EventPagePanel event={e} />
            </Suspense>
          )}
        </Tabs.Panel>
        {canViewMessages && <Tabs.Panel value="messages">{tab === 'messages' && <MessagesPanel event={e} />}</Tabs.Panel>}
      </Tabs>
    </>
  );
}
