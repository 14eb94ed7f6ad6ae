import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = { kept: 'brand', sent: 'teal', queued: 'gray', failed: 'red' };
const LABELS: Record<string, string> = { kept: 'Kept', sent: 'Sent', queued: 'Queued', failed: 'Failed' };

export function MailStatusBadge({ status }: { status: string }) {
  return (
    <Badge variant="light" color={COLORS[status] ?? 'gray'} radius="sm">
      {LABELS[status] ?? status}
    </Badge>
  );
}

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
