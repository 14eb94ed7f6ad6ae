import { ATTENDEE_MESSAGES_READ, ATTENDEE_MESSAGES_SEND, passesEventAccess } from '@marquee/core';
import { useSession } from '../../ui/session';

/**
 * Whether the signed-in person may read and send the event's messages to attendees, from the
 * server's own sets (packages/core roles.ts): check-in staff do neither, so they get no Messages tab.
 */
export function useMessagesAccess(tenantId: string, eventId: string) {
  const { memberships } = useSession();
  return {
    canView: passesEventAccess(memberships, ATTENDEE_MESSAGES_READ, tenantId, eventId),
    canSend: passesEventAccess(memberships, ATTENDEE_MESSAGES_SEND, tenantId, eventId),
  };
}
