import { PLATFORM_ANY, PLATFORM_WRITE } from '@marquee/core';
import type { Access } from '../../platform/auth/context.js';

// Who may write to an event's attendees (issue 15): those who look after attendees on the order
// page (order-admin ORDER_ATTEND): organisers, tenant staff and the event's manager; platform
// operators with write roles. Any platform role may read the history; check-in staff may not.

export const MESSAGES_VIEW: Access = { kind: 'tenant', roles: ['tenant_admin', 'tenant_staff'], platformRoles: PLATFORM_ANY, eventRoles: ['event_manager'] };
export const MESSAGES_SEND: Access = { kind: 'tenant', roles: ['tenant_admin', 'tenant_staff'], platformRoles: PLATFORM_WRITE, eventRoles: ['event_manager'] };
