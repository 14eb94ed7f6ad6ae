// Query keys one feature's change refreshes in another's cache, defined below both so that neither
// imports the other for them (a feature imports another only for a panel it shows of it): a charity
// or a ticket type saved refreshes the event that shows it; a tenant created or deleted refreshes
// the platform dashboard. Keys a feature reads and refreshes alone stay beside its query hooks.

/** The events feature's queries (features/events/queries.ts reads under these). */
export const eventKeys = {
  all: ['events'] as const,
  list: <Q>(tenantId: string, q: Q) => ['events', tenantId, 'list', q] as const,
  one: (tenantId: string, eventId: string) => ['events', tenantId, 'one', eventId] as const,
  rules: (tenantId: string) => ['surcharge-rules', tenantId] as const,
  cancellation: (tenantId: string, eventId: string) => ['events', tenantId, 'cancellation', eventId] as const,
};

/** The platform dashboard's queries (features/platform-dashboard/queries.ts). */
export const dashboardKey = ['dashboard', 'platform'] as const;
