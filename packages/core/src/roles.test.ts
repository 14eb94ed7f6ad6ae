import { describe, expect, it } from 'vitest';
import { ATTENDEE_MESSAGES_READ, ATTENDEE_MESSAGES_SEND, greetingName, passesEventAccess, SEED_ADMIN_NAME } from './roles.js';

// The console shows the Messages tab from the same sets the server's guard checks (mailout/access.ts).
describe('passesEventAccess: who reads and sends an event’s messages to attendees', () => {
  const T = 'tenant-1';
  const E = 'event-1';
  const tenant = (roles: string[], tenantId = T) => ({ kind: 'tenant', tenantId, eventId: null, roles });
  const event = (roles: string[], eventId = E, tenantId = T) => ({ kind: 'event', tenantId, eventId, roles });
  const platform = (roles: string[]) => ({ kind: 'platform', tenantId: null, eventId: null, roles });

  it.each([
    ['tenant admin', [tenant(['tenant_admin'])], true, true],
    ['tenant staff', [tenant(['tenant_staff'])], true, true],
    ['the event’s manager', [event(['event_manager'])], true, true],
    ['check-in staff of the event', [event(['event_checkin'])], false, false],
    ['manager of another event', [event(['event_manager'], 'event-2')], false, false],
    ['admin of another tenant', [tenant(['tenant_admin'], 'tenant-2')], false, false],
    ['another tenant’s event manager with the same event id', [event(['event_manager'], E, 'tenant-2')], false, false],
    ['platform manager', [platform(['platform_manager'])], true, true],
    ['platform reports', [platform(['platform_report'])], true, false],
    ['nobody', [], false, false],
    ['check-in here and manager elsewhere', [event(['event_checkin']), event(['event_manager'], 'event-2')], false, false],
  ] as const)('%s: read %s, send %s', (_who, memberships, read, send) => {
    expect(passesEventAccess(memberships, ATTENDEE_MESSAGES_READ, T, E)).toBe(read);
    expect(passesEventAccess(memberships, ATTENDEE_MESSAGES_SEND, T, E)).toBe(send);
  });
});

describe('greetingName (issue 21.19)', () => {
  it("greets a person by their first name, and nobody by the seeded admin's 'Platform Admin' label", () => {
    expect(greetingName({ firstName: 'Avery', lastName: 'Organiser' })).toBe('Avery');
    expect(greetingName({ firstName: ' Platform ', lastName: 'Admin' })).toBeNull();
    expect(greetingName(SEED_ADMIN_NAME)).toBeNull();
    // A real person called Platform is still greeted.
    expect(greetingName({ firstName: 'Platform', lastName: 'Jones' })).toBe('Platform');
    expect(greetingName({ firstName: '  ', lastName: 'Admin' })).toBeNull();
    expect(greetingName(null)).toBeNull();
  });
});
