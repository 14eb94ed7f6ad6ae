import { Alert, Anchor, Grid, Paper, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle, IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '../../../ui/page-header';
import { useTenantId } from '../../../shared/tenant';
import { useIsTenantAdmin } from '../../../shared/access';
import { useInviteTenantStaff } from '../mutations';
import { InviteStaffForm } from './invite-staff-form';
import { StaffTable } from './staff-table';
import { TENANT_ROLE_OPTIONS } from './tenant-role-options';

/** /staff: who has access to the whole organisation; admins invite, change roles and remove. */
export function StaffPage() {
  const isAdmin = useIsTenantAdmin(useTenantId());
  const invite = useInviteTenantStaff();
  return (
    <>
      <PageHeader title="Staff" description="The people who help you run your events, what they may do, and whether they have joined yet." />
      <StaffTable canManage={isAdmin} />
      <Grid gutter="lg" mt="xl">
        {isAdmin ? (
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Paper withBorder shadow="xs" radius="lg" p={{ base: 'md', sm: 'lg' }}>
              <Stack gap={2} mb="md">
                <Title order={3} fz="md">
                  Invite staff
                </Title>
                <Text fz="sm" c="dimmed">
                  They receive an e-mail with a link to create their account, or to link the one they already have, and appear above as
                  Pending Verification until they join.
                </Text>
              </Stack>
              <InviteStaffForm roles={TENANT_ROLE_OPTIONS} defaultRoles={['tenant_staff']} onInvite={invite.mutateAsync} />
            </Paper>
          </Grid.Col>
        ) : (
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Alert variant="light" color="gray" icon={<IconLock size={18} />} title="Managed by your admins">
              <Text fz="sm">Only a Tenant Admin can invite staff, change their roles or remove them.</Text>
            </Alert>
          </Grid.Col>
        )}
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} title="Staff for one event">
            <Text fz="sm">
              To give someone access to a single event only, open the event in{' '}
              <Anchor component={Link} to="/events" fz="sm">
                Events
              </Anchor>{' '}
              and use its Staff tab.{isAdmin && ' Removing someone here also takes away the events they were invited to.'}
            </Text>
          </Alert>
        </Grid.Col>
      </Grid>
    </>
  );
}
