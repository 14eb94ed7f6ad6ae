import { Badge } from '@mantine/core';
import type { CharityStatus } from '@marquee/core';

const look: Record<CharityStatus, { color: string; label: string }> = {
  active: { color: 'teal', label: 'Active' },
  inactive: { color: 'gray', label: 'Inactive' },
};

/** spec: accounts §2 screen 19: the list shows each charity's status as a badge. */
export function CharityStatusBadge({ status }: { status: CharityStatus }) {
  const l = look[status] ?? look.inactive;
  return (
    <Badge variant="light" color={l.color} radius="sm" data-status={status}>
      {l.label}
    </Badge>
  );
}

export const CHARITY_STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];
