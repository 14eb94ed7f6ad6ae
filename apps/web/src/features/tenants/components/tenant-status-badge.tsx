import { Badge } from '@mantine/core';

const look: Record<string, { color: string; label: string }> = {
  active: { color: 'teal', label: 'Active' },
  pending: { color: 'yellow', label: 'Pending' },
};

/** spec: accounts §4: active and pending are editable; any other status is shown as disabled. */
export function TenantStatusBadge({ status }: { status: string }) {
  const l = look[status] ?? { color: 'gray', label: 'Disabled' };
  return (
    <Badge variant="light" color={l.color} radius="sm" data-status={status}>
      {l.label}
    </Badge>
  );
}
