import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy.js';

// Charities (spec: accounts-admin-fees §3 Charity, §4). The platform owns the charities; a tenant
// enables (assigns) the active ones it collects donations for. An event's charity is one of its
// tenant's enabled charities: events.(tenant_id, charity_id) references tenant_charities.

export const charities = pgTable(
  'charities',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    /** active | inactive: only active charities reach tenants (spec §4). */
    status: text('status').notNull().default('active'),
    street: text('street').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zipCode: text('zip_code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('charities_status', sql`${t.status} in ('active', 'inactive')`), index('charities_name_idx').on(t.name, t.id)],
);

/** The charities a tenant enabled (spec §7 assign / unassign). Tenant-owned: tenant_id leads the key. */
export const tenantCharities = pgTable(
  'tenant_charities',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    charityId: uuid('charity_id')
      .notNull()
      .references(() => charities.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.charityId] }), index('tenant_charities_charity_idx').on(t.charityId)],
);
