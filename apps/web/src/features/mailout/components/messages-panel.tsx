import { Stack, Text, Title } from '@mantine/core';
import type { TEvent } from '@marquee/core';
import { isTenantWideMember, useEventAccess, usePlatformAccess } from '../../../shared/access';
import { useSession } from '../../../ui/session';
import { ComposeMessage } from './compose-message';
import { MessageHistory } from './message-history';

export type MessagesPanelProps = { event: TEvent };

/** The event's "Messages" tab: e-mail its attendees, and what was sent (issue 15). */
export function MessagesPanel({ event }: MessagesPanelProps) {
  const { memberships } = useSession();
  const { canEditEvent } = useEventAccess(event.tenantId, event.id);
  const { canWrite } = usePlatformAccess();
  // The server's MESSAGES_SEND: tenant admin and staff, the event's manager, platform write roles.
  const canSend = isTenantWideMember(memberships, event.tenantId) || canEditEvent || canWrite;
  return (
    <>
      <Stack gap={2} mb="md">
        <Title order={3} fz="lg">
          E-mail attendees
        </Title>
        <Text fz="sm" c="dimmed">
          Write to everyone with a paid ticket, or to the holders of some ticket types. Sending runs in the background; its progress shows below.
        </Text>
      </Stack>
      {canSend && <ComposeMessage event={event} />}
      <MessageHistory event={event} />
    </>
  );
}
