import { Badge, Group } from '@mantine/core';
import { PLATFORM_ADMIN_LABEL, PLATFORM_ROLES, ROLE_LABELS, type PlatformRole } from '@marquee/core';

export const isPlatformAdmin = (roles: string[]) => PLATFORM_ROLES.every((r) => roles.includes(r));

export function RoleBadges({ roles }: { roles: string[] }) {
  if (roles.length === 0) return <>-</>;
  if (isPlatformAdmin(roles))
    return (
      <Badge variant="light" color="brand" radius="sm">
        {PLATFORM_ADMIN_LABEL}
      </Badge>
    );
  return (
    <Group gap={4}>
      {roles.map((r) => (
        <Badge key={r} variant="light" color="gray" radius="sm">
          {ROLE_LABELS[r as PlatformRole] ?? r}
        </Badge>
      ))}
    </Group>
  );
}
