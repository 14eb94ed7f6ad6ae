import { Alert, Grid, Paper, Stack, Text, Title } from '@mantine/core';
import { isEventWritable, type EventRole, type TEvent } from '@marquee/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useInviteEventStaff } from '../mutations';
import { InviteStaffForm, type RoleOption } from './invite-staff-form';
import { useEventAccess } from '../../../shared/access';

const EVENT_ROLE_OPTIONS: RoleOption<EventRole>[] = [
  { value: 'event_manager', description: 'Edits this event, its ticket types and discount codes, and invites its staff.' },
  { value: 'event_checkin', description: 'Sees this event and checks attendees in at the door.' },
];

/** Invite someone to work on this one event only. */
export function EventStaffPanel({ event }: { event: TEvent }) {
  const invite = useInviteEventStaff(event.id);
  // Cancelled events, and people who may only read this one (tenant staff, check-in staff).
  const { canEditEvent } = useEventAccess(event.tenantId, event.id);
  const readOnly = !isEventWritable(event.details.status) || !canEditEvent;
  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }}>
          <Stack gap={2} mb="md">
            <Title order={3} fz="md">
              Invite event staff
            </Title>
            <Text fz="sm" c="dimmed">
              Event staff work on {event.details.name} only. They receive an e-mail with a link to join.
            </Text>
          </Stack>
          <InviteStaffForm roles={EVENT_ROLE_OPTIONS} defaultRoles={['event_checkin']} onInvite={invite.mutateAsync} disabled={readOnly} />
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} title="Who has access">
          <Text fz="sm">
            Your organisation's admins and staff already see every event; invite them from the Staff page. The list of people invited to
            this event is not shown here yet.
          </Text>
        </Alert>
      </Grid.Col>
    </Grid>
  );
}
