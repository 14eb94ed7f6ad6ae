import type { ApiKeyScope } from '@marquee/core';

// Issue 25: which routes an API key may call, and with which scope. One table, so the guard and the
// OpenAPI document read the same rule. A route not listed here refuses every key (403): signing in,
// keys, the audit log, staff and roles, fees, payment settings, payouts' money moves.

type Rule = { scope: ApiKeyScope; methods: readonly string[]; path: RegExp };

const READ = ['GET'] as const;
const WRITE = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
const T = '/api/tenants/:tenantId';
const E = `${T}/events/:eventId`;
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const RULES: Rule[] = [
  // Check-in: scans, undo, the door's lists and counts.
  { scope: 'checkin', methods: [...READ, ...WRITE], path: new RegExp(`^${esc(E)}/checkin(/|$)`) },
  // Orders: the APP channel's PLACE ORDER, refunds, voids, resending tickets.
  { scope: 'orders:write', methods: WRITE, path: new RegExp(`^${esc(E)}/(app-orders|orders/:orderUID/refunds|tickets/void|resend)$`) },
  // Events: the event, its ticket types, discount codes, cover, seat map, waiting room, cancelling it.
  {
    scope: 'events:manage',
    methods: WRITE,
    path: new RegExp(`^${esc(T)}/events(/:eventId(/(cancel|cover|seatmap|waiting-room|ticket-types(/:ticketTypeId)?|discount-codes(/:discountCodeId)?))?)?$`),
  },
  // Issue 28: event series and their dates (each date is an event; its own routes are the events' above).
  { scope: 'events:manage', methods: WRITE, path: new RegExp(`^${esc(T)}/series(/:seriesId/(dates(/:eventId/(move|cancel))?|ticket-types/:seriesTicketTypeId))?$`) },
  { scope: 'read', methods: READ, path: new RegExp(`^${esc(T)}/series(/:seriesId)?$`) },
  // Reads: events and everything under them but staff and messages, reports, payouts, the tenant.
  { scope: 'read', methods: READ, path: new RegExp(`^${esc(T)}(/events(/:eventId(/(?!staff|messages)[^/]+.*)?)?|/reports(/.*)?|/payouts(/.*)?)?$`) },
  { scope: 'read', methods: READ, path: /^\/api\/platform\/reports(\/.*)?$/ },
  { scope: 'read', methods: READ, path: /^\/api\/tenants$/ },
];

/** The scope a key needs for this route, or null when no key may call it. */
export function scopeOf(method: string, url: string): ApiKeyScope | null {
  for (const r of RULES) if (r.methods.includes(method) && r.path.test(url)) return r.scope;
  return null;
}
