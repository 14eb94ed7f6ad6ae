import { ATTENDEE_MESSAGES_READ, ATTENDEE_MESSAGES_SEND } from '@marquee/core';
import type { Access } from '../../platform/auth/context.js';

// Who may write to an event's attendees (issue 15): those who look after attendees on the order
// page (order-admin ORDER_ATTEND): organisers, tenant staff and the event's manager; platform
// operators with write roles. Any platform role may read the history; check-in staff may not.
// The sets live in packages/core roles.ts: the console shows the Messages tab from the same ones.

export const MESSAGES_VIEW: Access = { kind: 'tenant', ...ATTENDEE_MESSAGES_READ };
export const MESSAGES_SEND: Access = { kind: 'tenant', ...ATTENDEE_MESSAGES_SEND };
