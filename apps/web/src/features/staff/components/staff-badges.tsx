import { Badge, Group, Text } from '@mantine/core';
import { ROLE_LABELS, userStatusLabel, type TenantRole, type TStaffMember } from '@marquee/core';

/** The person's name, or their e-mail address while they have not signed up. */
export const staffName = (m: TStaffMember) => `${m.details.firstName} ${m.details.lastName}`.trim() || m.details.email;

/** As on the Platform Users page: Pending Verification, Active; a lapsed invite says so. */
export function StaffStatusBadge({ status }: { status: string }) {
  if (status === 'EXPIRED')
    return (
      <Badge variant="light" radius="sm" color="gray">
        Invite expired
      </Badge>
    );
  const label = userStatusLabel(status);
  if (label === '-') return <Text fz="sm">-</Text>;
  return (
    <Badge variant="light" radius="sm" color={status === 'ACTIVE' ? 'teal' : 'yellow'}>
      {label}
    </Badge>
  );
}

export function StaffRoleBadges({ roles }: { roles: string[] }) {
  if (roles.length === 0) return <Text fz="sm">-</Text>;
  return (
    <Group gap={4}>
      {roles.map((r) => (
        <Badge key={r} variant="light" radius="sm" color={r === 'tenant_admin' ? 'brand' : 'gray'}>
          {ROLE_LABELS[r as TenantRole] ?? r}
        </Badge>
      ))}
    </Group>
  );
}
