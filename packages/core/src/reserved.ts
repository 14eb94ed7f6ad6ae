// Top-level web paths owned by the consoles and the account pages. An event's URL name
// (the attendee site's /{eventName}/) can never be one of these.
export const RESERVED_PATHS = [
  'api', 'assets', 'static', 'favicon.ico', 'robots.txt',
  'login', 'logout', 'signup', 'verify', 'event-staff-verify', 'forgot-password', 'reset-password',
  'accept-invite', 'link-account', 'profile', 'change-password', 'terms', 'privacy', 'policies',
  'dashboard', 'tenants', 'tenant', 'platform-users', 'users', 'policies', 'fees', 'global-fees',
  'tenant-fees', 'payment-settings', 'settings', 'info', 'reports', 'payouts', 'events', 'event',
  'staff', 'charities', 'templates', 'site-builder', 'outbox', 'pay', 'files', 'uploads', 'admin',
  // Issue 15: a buyer's private order page (/orders/{token}).
  'orders',
  // Issue 15: the unsubscribe page of messages to attendees (/unsubscribe/{token}).
  'unsubscribe',
  // Issue 21: the page that confirms the unlock link of an account locked by wrong codes (/unlock).
  'unlock',
  // Issue 25: the consoles' API keys and audit log.
  'api-keys', 'audit-log',
  // Issue 24: a transferred ticket's new holder's page (/tickets/{token}).
  'tickets',

  // Issue 23 part B: a seller's cash drawer and the admin's list of drawers.
  'cash-drawer', 'cash-drawers',
  // Issue 26: the probes and the Prometheus metrics (docs/operations.md).
  'livez', 'readyz', 'metrics',

  // Issue 27: the tenant console's venue layouts (the seating editor).
  'venue-layouts',
  // Issue 28: the embeddable ticket widget (/embed/{eventName}/...) and its script (/widget.js).
  'embed', 'widget.js',

  // Issue 28: the tenant console's event series, and each series' public page (/series/{urlName}).
  'event-series', 'series',
] as const;

const reserved = new Set<string>(RESERVED_PATHS);

export function isReservedPath(segment: string): boolean {
  return reserved.has(segment.toLowerCase());
}
