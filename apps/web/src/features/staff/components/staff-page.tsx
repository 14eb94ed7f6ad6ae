import { Alert, Anchor, Grid, Paper, Stack, Text, Title } from '@mantine/core';
import type { TenantRole } from '@marquee/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '../../../ui/page-header';
import { useInviteTenantStaff } from '../mutations';
import { InviteStaffForm, type RoleOption } from './invite-staff-form';

const TENANT_ROLE_OPTIONS: RoleOption<TenantRole>[] = [
  { value: 'tenant_admin', description: 'Everything in this console: events, staff, fees, payouts and reports.' },
  { value: 'tenant_staff', description: 'Sees every event and its reports and handles orders; cannot change events or invite.' },
];

/** /staff: invite people to the whole organisation. */
export function StaffPage() {
  const invite = useInviteTenantStaff();
  return (
    <>
      <PageHeader title="Staff" description="Invite the people who help you run your events." />
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }}>
            <Stack gap={2} mb="md">
              <Title order={3} fz="md">
                Invite staff
              </Title>
              <Text fz="sm" c="dimmed">
                They receive an e-mail with a link to create their account, or to link the one they already have.
              </Text>
            </Stack>
            <InviteStaffForm roles={TENANT_ROLE_OPTIONS} defaultRoles={['tenant_staff']} onInvite={invite.mutateAsync} />
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} title="Staff for one event">
            <Text fz="sm">
              To give someone access to a single event only, open the event in{' '}
              <Anchor component={Link} to="/events" fz="sm">
                Events
              </Anchor>{' '}
              and use its Staff tab. The list of your staff is not shown here yet.
            </Text>
          </Alert>
        </Grid.Col>
      </Grid>
    </>
  );
}
