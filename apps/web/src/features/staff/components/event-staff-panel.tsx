import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { isEventWritable, M, type EventRole, type TEvent, type TStaffMember } from '@marquee/core';
import { IconInfoCircle, IconMailForward, IconUsersGroup } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { isTenantWideMember, useEventAccess } from '../../../shared/access';
import { errorMessage } from '../../../ui/api-client';
import { EmptyState } from '../../../ui/empty-state';
import { notify } from '../../../ui/notify';
import { fromListQuery, PagedTable, PHONE_TABLE_MIN_WIDTH, useCursorPager, type Column } from '../../../ui/paged-table';
import { useSession } from '../../../ui/session';
import { useInviteEventStaff } from '../mutations';
import { useEventStaff } from '../queries';
import { InviteStaffForm, type RoleOption } from './invite-staff-form';
import { StaffRoleBadges } from './staff-badges';

const EVENT_ROLE_OPTIONS: RoleOption<EventRole>[] = [
  { value: 'event_manager', description: 'Edits this event, its ticket types and discount codes, and invites its staff.' },
  { value: 'event_checkin', description: 'Sees this event and checks attendees in at the door.' },
  { value: 'event_box_office', description: 'Sells tickets for this event at the box office: cash, card on the venue terminal, complimentary.' },
];

/** Where someone invited to this event stands: they joined, or their invite waits or lapsed. */
function EventStaffStatus({ status }: { status: string }) {
  const [label, color] = status === 'PENDING' ? ['Invite pending', 'yellow'] : status === 'EXPIRED' ? ['Invite expired', 'gray'] : ['Accepted', 'teal'];
  return (
    <Badge variant="light" radius="sm" color={color}>
      {label}
    </Badge>
  );
}

const isInvitee = (m: TStaffMember) => m.details.status === 'PENDING' || m.details.status === 'EXPIRED';

/** The people who work on this event: name or e-mail, roles, and whether they accepted; an open invite can be sent again. */
function EventStaffTable({ event, canInvite }: { event: TEvent; canInvite: boolean }) {
  const pager = useCursorPager({ defaultPageSize: 25 });
  const list = useEventStaff(event.id, { cursor: pager.cursor, limit: pager.limit });
  const invite = useInviteEventStaff(event.id);
  const [resending, setResending] = useState<string | null>(null);

  const resend = async (m: TStaffMember) => {
    setResending(m.id);
    try {
      await invite.mutateAsync({ email: m.details.email, roles: m.details.roles as EventRole[] });
      notify.success('Invite sent', `We e-mailed a new invitation to ${m.details.email}.`);
    } catch (e) {
      notify.error(M.sendInviteFailed, errorMessage(e));
    } finally {
      setResending(null);
    }
  };

  const resendButton = (m: TStaffMember) => (
    <Button
      size="compact-sm"
      variant="light"
      leftSection={<IconMailForward size={14} />}
      loading={resending === m.id}
      onClick={() => void resend(m)}
      aria-label={`Resend the invite to ${m.details.email}`}
    >
      Resend invite
    </Button>
  );

  const columns: Column<TStaffMember>[] = [
    {
      key: 'person',
      header: 'Name',
      render: (m) => {
        const named = `${m.details.firstName} ${m.details.lastName}`.trim();
        return (
          <Stack gap={0} miw={0}>
            <Text fz="sm" fw={600} truncate c={named ? undefined : 'dimmed'} fs={named ? undefined : 'italic'}>
              {named || 'Invited'}
            </Text>
            <Text fz="xs" c="dimmed" truncate>
              {m.details.email}
            </Text>
            {/* On a phone the roles, the status and the resend button go under the person. */}
            <Stack gap={6} mt={6} hiddenFrom="sm" align="flex-start">
              <Group gap={6}>
                <StaffRoleBadges roles={m.details.roles} />
                <EventStaffStatus status={m.details.status} />
              </Group>
              {canInvite && isInvitee(m) && resendButton(m)}
            </Stack>
          </Stack>
        );
      },
    },
    { key: 'roles', header: 'Roles', width: 240, visibleFrom: 'sm', render: (m) => <StaffRoleBadges roles={m.details.roles} /> },
    { key: 'status', header: 'Status', width: 180, visibleFrom: 'sm', render: (m) => <EventStaffStatus status={m.details.status} /> },
  ];
  if (canInvite) {
    columns.push({
      key: 'actions',
      header: <span style={{ position: 'absolute', left: -10000 }}>Actions</span>,
      width: 150,
      align: 'right',
      visibleFrom: 'sm',
      render: (m) => (isInvitee(m) ? resendButton(m) : null),
    });
  }

  return (
    <PagedTable
      aria-label="Event staff"
      columns={columns}
      {...fromListQuery(list)}
      rowKey={(m) => m.id}
      pager={pager}
      minWidth={PHONE_TABLE_MIN_WIDTH}
      empty={
        <EmptyState
          bare
          icon={<IconUsersGroup size={28} stroke={1.6} />}
          title="Nobody works on this event yet"
          description={canInvite ? 'Invite the people who check tickets at the door or help manage this event.' : 'The people invited to work on this event appear here.'}
        />
      }
    />
  );
}

/** The event's Staff tab: who has access to this event, and inviting more (issue 21.14). */
export function EventStaffPanel({ event }: { event: TEvent }) {
  const invite = useInviteEventStaff(event.id);
  const { memberships } = useSession();
  // Cancelled events, and people who may only read this one (tenant staff, check-in staff).
  const { canEditEvent } = useEventAccess(event.tenantId, event.id);
  const writable = isEventWritable(event.details.status);
  const canInvite = writable && canEditEvent;
  // The list is for the organisation's staff and the event's managers; check-in staff are told who to ask.
  const canList = canEditEvent || isTenantWideMember(memberships, event.tenantId);
  const tenantWide = isTenantWideMember(memberships, event.tenantId);
  return (
    <Stack gap="lg">
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap={2} mb="md">
          <Title order={3} fz="md">
            People on this event
          </Title>
          <Text fz="sm" c="dimmed">
            They see {event.details.name} only.{' '}
            {tenantWide ? (
              <>
                Your organisation&apos;s admins and staff see every event: they are on the{' '}
                <Anchor component={Link} to="/staff" fz="sm">
                  Staff page
                </Anchor>
                .
              </>
            ) : (
              "The organisation's admins and staff also see every event."
            )}
          </Text>
        </Stack>
        {canList ? (
          <EventStaffTable event={event} canInvite={canInvite} />
        ) : (
          <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />}>
            The event&apos;s managers and the organisation&apos;s staff see who works on this event.
          </Alert>
        )}
      </Paper>
      {canEditEvent && (
        <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} maw={720}>
          <Stack gap={2} mb="md">
            <Title order={3} fz="md">
              Invite event staff
            </Title>
            <Text fz="sm" c="dimmed">
              {writable
                ? `Event staff work on ${event.details.name} only. They receive an e-mail with a link to join.`
                : 'This event is cancelled: nobody new can be invited to work on it.'}
            </Text>
          </Stack>
          <InviteStaffForm roles={EVENT_ROLE_OPTIONS} defaultRoles={['event_checkin']} onInvite={invite.mutateAsync} disabled={!canInvite} />
        </Paper>
      )}
    </Stack>
  );
}
