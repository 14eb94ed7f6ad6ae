import { Stack, Text, Title } from '@mantine/core';
import type { TEvent } from '@marquee/core';
import { useMessagesAccess } from '../access';
import { ComposeMessage } from './compose-message';
import { MessageHistory } from './message-history';

export type MessagesPanelProps = { event: TEvent };

/** The event's "Messages" tab: e-mail its attendees, and what was sent (issue 15). */
export function MessagesPanel({ event }: MessagesPanelProps) {
  const { canSend } = useMessagesAccess(event.tenantId, event.id);
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
