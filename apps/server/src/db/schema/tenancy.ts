import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const tenants = pgTable(
  'tenants',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    /** active | pending; anything else is treated as disabled (spec: accounts §4). */
    status: text('status').notNull().default('pending'),
    /** The tenant's host name label: {url}.{BASE_DOMAIN}. */
    url: text('url').notNull(),
    inviteTemplateSubject: text('invite_template_subject').notNull(),
    inviteTemplateBody: text('invite_template_body').notNull(),
    logoKey: text('logo_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('tenants_url_key').on(t.url), index('tenants_name_idx').on(t.name, t.id)],
);

/**
 * Events belong to a tenant; tenant_id is part of the primary key so the schema can be
 * distributed by tenant. The full event model (ticket types, sale windows) builds on this.
 */
export const events = pgTable(
  'events',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    urlName: text('url_name').notNull(),
    status: text('status').notNull().default('draft'),
    startDateTime: timestamp('start_date_time', { withTimezone: true }),
    timeZone: text('time_zone').notNull().default('America/New_York'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('events_id_key').on(t.id),
    uniqueIndex('events_url_name_key').on(t.tenantId, t.urlName),
  ],
);
