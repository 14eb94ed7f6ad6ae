import { Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { M, type TStaffMember } from '@marquee/core';
import { IconMailForward, IconUserPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { staffApi } from '../../staff/api';

// issue 15 Operators: Create New Tenant invites the tenant's e-mail as its admin; here the platform
// sees whether that invite (and any other admin's) is pending, accepted or expired, and can resend
// it or invite another admin. Both go through the tenant's staff invite (same rate limits).
const STATE: Record<string, { label: string; color: string }> = {
  PENDING: { label: 'Invite pending', color: 'yellow' },
  EXPIRED: { label: 'Invite expired', color: 'red' },
  ACTIVE: { label: 'Accepted', color: 'teal' },
};
const stateOf = (status: string) => STATE[status] ?? { label: status.charAt(0) + status.slice(1).toLowerCase(), color: 'gray' };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function TenantAdmins({ tenantId, canWrite }: { tenantId: string; canWrite: boolean }) {
  const client = useQueryClient();
  const key = ['staff', tenantId, 'tenant-admins'] as const;
  const admins = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => staffApi.list(tenantId, { limit: 100 }, signal),
    select: (list) => list.result.filter((s) => s.details.roles.includes('tenant_admin')),
  });
  const invite = useMutation({
    mutationFn: (email: string) => staffApi.inviteTenantStaff(tenantId, { email, roles: ['tenant_admin'] }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['staff', tenantId] }),
  });
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const send = (to: string, resend: boolean) =>
    invite.mutate(to, {
      onSuccess: () => {
        notify.success(resend ? 'Invite sent again' : 'Invite sent', `${to} can now accept it from the e-mail.`);
        if (!resend) setEmail('');
      },
      onError: (e) => notify.error('Could not send the invite', errorMessage(e)),
    });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const to = email.trim().toLowerCase();
    if (!to) return setProblem(M.emailRequired);
    if (!EMAIL.test(to)) return setProblem(M.emailFormat);
    setProblem(null);
    send(to, false);
  };

  return (
    <Paper withBorder p="lg" mt="lg" data-testid="tenant-admins">
      <Stack gap="md">
        <div>
          <Title order={3} fz="lg">
            Tenant admins
          </Title>
          <Text fz="sm" c="dimmed">
            Creating the tenant invited its e-mail address as admin, with the tenant's invite template. Invites last 7 days.
          </Text>
        </div>
        {admins.isPending ? (
          <Text fz="sm" c="dimmed">
            Loading…
          </Text>
        ) : admins.isError ? (
          <Text fz="sm" c="red.8">
            {errorMessage(admins.error)}
          </Text>
        ) : admins.data.length === 0 ? (
          <Text fz="sm">Nobody is invited as admin yet.</Text>
        ) : (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {admins.data.map((a: TStaffMember) => {
              const state = stateOf(a.details.status);
              const open = a.details.status === 'PENDING' || a.details.status === 'EXPIRED';
              return (
                <Group key={a.id} component="li" justify="space-between" gap="sm" wrap="wrap" data-testid="tenant-admin-row">
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    <Text fz="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                      {a.details.email}
                    </Text>
                    {(a.details.firstName || a.details.lastName) && (
                      <Text fz="xs" c="dimmed">
                        {`${a.details.firstName} ${a.details.lastName}`.trim()}
                      </Text>
                    )}
                  </Stack>
                  <Group gap="sm" wrap="nowrap">
                    <Badge variant="light" color={state.color} data-testid="tenant-admin-state">
                      {state.label}
                    </Badge>
                    {canWrite && open && (
                      <Button
                        size="xs"
                        variant="default"
                        leftSection={<IconMailForward size={14} />}
                        loading={invite.isPending && invite.variables === a.details.email}
                        onClick={() => send(a.details.email, true)}
                      >
                        Resend invite
                      </Button>
                    )}
                  </Group>
                </Group>
              );
            })}
          </Stack>
        )}
        {canWrite && (
          <form onSubmit={submit} noValidate>
            <Group align="flex-start" gap="sm" wrap="wrap">
              <TextInput
                label="Invite another admin"
                placeholder="name@example.com"
                type="email"
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                error={problem}
                style={{ flex: '1 1 240px' }}
              />
              <Button type="submit" mt={{ base: 0, xs: 25 }} leftSection={<IconUserPlus size={16} />} loading={invite.isPending && invite.variables === email.trim().toLowerCase()}>
                Send invite
              </Button>
            </Group>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
