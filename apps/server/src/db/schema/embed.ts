import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy.js';

/**
 * Issue 28: the websites (origins, `https://host[:port]`) a tenant lets embed its ticket widget.
 * They become the embeddable pages' `Content-Security-Policy: frame-ancestors` and the only
 * places a widget checkout may return to after paying (docs/embed.md).
 */
export const embedOrigins = pgTable(
  'embed_origins',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    origin: text('origin').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.origin] })],
);
