import { z } from 'zod';
import { M } from '../messages.js';

// The optional waiting room of an event's on-sale (issue 13; ours: the spec has none).

export const WAITING_ROOM_RATE_MAX = 10_000;

/** The organiser's settings, in the event's settings (tenant console). */
export const ZWaitingRoomSettings = z.object({
  enabled: z.boolean(),
  opensAt: z.iso.datetime({ offset: true, error: M.waitingRoomOpensAt }),
  admitPerMinute: z.number({ error: M.waitingRoomRate }).int(M.waitingRoomRate).min(1, M.waitingRoomRate).max(WAITING_ROOM_RATE_MAX, M.waitingRoomRate),
});
export type TWaitingRoomSettings = z.infer<typeof ZWaitingRoomSettings>;

/** GET answers the settings, or null when the room was never set up. */
export const ZWaitingRoomSettingsResponse = z.object({ settings: ZWaitingRoomSettings.nullable() });

/**
 * A visitor's place in line. `admitted` (or the room being off) means the ticket menu is open to
 * them; `position` counts from 1; `estimateSeconds` is until their admission.
 */
export const ZWaitingRoomPlace = z.object({
  enabled: z.boolean(),
  admitted: z.boolean(),
  opensAt: z.string().nullable(),
  position: z.number().int(),
  estimateSeconds: z.number().int(),
});
export type TWaitingRoomPlace = z.infer<typeof ZWaitingRoomPlace>;

/** The header a client may send its place in instead of the cookie (API clients, the bench). */
export const WAITING_ROOM_HEADER = 'x-waiting-room';
export const waitingRoomCookie = (eventId: string) => `mq_wr_${eventId.replace(/-/g, '')}`;
