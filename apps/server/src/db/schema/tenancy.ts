import { check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { uuid } from 'drizzle-orm/pg-core';

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
    /**
     * Who last wrote the invite subject and body: platform (an operator, as at creation) or tenant
     * (its admins); null for templates older than this column. The invite mail says whose words
     * they are (issue 21.19).
     */
    inviteTemplateBy: text('invite_template_by'),
    logoKey: text('logo_key'),
    /** Issue 28: the brand colour (#rrggbb, core checkBrandColor); null: the default accent. */
    brandColor: text('brand_color'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('tenants_url_key').on(t.url),
    index('tenants_name_idx').on(t.name, t.id),
    check('tenants_invite_template_by', sql`${t.inviteTemplateBy} in ('platform', 'tenant')`),
  ],
);


/**
 * Host labels a tenant used before a rename. Like a deleted tenant's url they stay reserved, so
 * old cookies, ticket mails and event links never reach another organiser.
 */
export const tenantFormerUrls = pgTable('tenant_former_urls', {
  url: text('url').primaryKey(),
  tenantId: uuid('tenant_id').notNull(),
  retiredAt: timestamp('retired_at', { withTimezone: true }).notNull().defaultNow(),
});
