import { Badge } from '@mantine/core';
import type { EventStatus } from '@marquee/core';

const look: Record<EventStatus, { color: string; label: string }> = {
  draft: { color: 'gray', label: 'Draft' },
  published: { color: 'teal', label: 'Published' },
  cancelled: { color: 'red', label: 'Cancelled' },
};

export function EventStatusBadge({ status, size = 'sm' }: { status: EventStatus; size?: 'sm' | 'md' | 'lg' }) {
  const { color, label } = look[status];
  return (
    <Badge color={color} variant="light" size={size} radius="sm" data-testid="event-status">
      {label}
    </Badge>
  );
}
