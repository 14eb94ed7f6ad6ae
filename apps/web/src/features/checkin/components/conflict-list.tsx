import { Alert, Button, List, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { Conflict } from '../offline-store';
import { describeUse } from './ticket-row';

const WHY: Record<string, string> = {
  already_used: 'was already checked in elsewhere',
  voided: 'had been voided',
  refunded: 'had been refunded',
  transferred: 'had been transferred to someone else: its old code no longer admits',
  other_event: 'is for another event',
  unknown: 'is not a ticket of this event',
  forged: 'was not a valid code',
};

/** Tickets this device admitted offline that the server refused when they were sent (issue 11). */
export function ConflictList({ conflicts, onDismiss }: { conflicts: Conflict[]; onDismiss: () => void }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />} title={conflicts.length === 1 ? '1 offline admission conflicts' : `${conflicts.length} offline admissions conflict`} role="alert" data-testid="checkin-conflicts">
      <Text fz="sm" mb="xs">
        These tickets were admitted on this device while it was offline, but:
      </Text>
      <List fz="sm" spacing={6}>
        {conflicts.map((c) => (
          <List.Item key={c.clientScanId}>
            <b>{c.ticket?.fullName || c.ticket?.ticketUid || 'A ticket'}</b> ({c.ticket?.ticketTypeName ?? 'unknown type'}) {WHY[c.result] ?? c.result}
            {c.result === 'already_used' && c.previous ? `: ${describeUse(c.previous.usedAt, c.previous.name, c.previous.deviceId)}` : '.'}
          </List.Item>
        ))}
      </List>
      <Button size="xs" variant="light" color="red" mt="sm" onClick={onDismiss}>
        I have dealt with these
      </Button>
    </Alert>
  );
}
