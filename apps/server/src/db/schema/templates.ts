import { sql } from 'drizzle-orm';
import { bigint, check, foreignKey, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { events } from './sales.js';
import { tenants } from './tenancy.js';

// Site templates (spec: accounts-admin-fees §3 Site template, §4 template edit, §7 templates) and
// the event pages organisers build from them (issue 10). Templates are the platform's; event pages
// are tenant-owned and keyed by tenant first.

export const siteTemplates = pgTable(
  'site_templates',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    /** The newest accepted zip's number (v1, v2, …); 0 until the first zip is accepted. */
    currentVersion: integer('current_version').notNull().default(0),
    thumbnailKey: text('thumbnail_key'),
    thumbnailMime: text('thumbnail_mime'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('site_templates_name_idx').on(t.name, t.id)],
);

/** Every accepted zip is kept and stays downloadable (spec §4: a new zip raises the version by one). */
export const siteTemplateVersions = pgTable(
  'site_template_versions',
  {
    templateId: uuid('template_id')
      .notNull()
      .references(() => siteTemplates.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    zipKey: text('zip_key').notNull(),
    zipBytes: bigint('zip_bytes', { mode: 'number' }).notNull(),
    /** What the page builder starts from, read out of the checked zip once. */
    html: text('html').notNull(),
    css: text('css').notNull(),
    project: text('project').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.templateId, t.version] })],
);

/** A signed upload link handed out as postUrl; used at most once. */
export const siteTemplateUploads = pgTable(
  'site_template_uploads',
  {
    id: uuid('id').primaryKey(),
    templateId: uuid('template_id')
      .notNull()
      .references(() => siteTemplates.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [check('site_template_uploads_kind', sql`${t.kind} in ('zip', 'thumbnail')`), index('site_template_uploads_template_idx').on(t.templateId)],
);

/** An event's page: the organiser's autosaved draft and which published version is live. */
export const eventPages = pgTable(
  'event_pages',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    eventId: uuid('event_id').notNull(),
    templateId: uuid('template_id').references(() => siteTemplates.id, { onDelete: 'set null' }),
    templateVersion: integer('template_version'),
    draftProject: text('draft_project').notNull(),
    draftHtml: text('draft_html').notNull(),
    draftCss: text('draft_css').notNull(),
    draftSavedAt: timestamp('draft_saved_at', { withTimezone: true }).notNull().defaultNow(),
    /** The live version; null while nothing is published. Rolling back points it at an older one. */
    liveVersion: integer('live_version'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.eventId] }),
    foreignKey({ columns: [t.tenantId, t.eventId], foreignColumns: [events.tenantId, events.id] }).onDelete('cascade'),
  ],
);

/** Each publish, sanitised; kept so the organiser can roll back. */
export const eventPageVersions = pgTable(
  'event_page_versions',
  {
    tenantId: uuid('tenant_id').notNull(),
    eventId: uuid('event_id').notNull(),
    version: integer('version').notNull(),
    html: text('html').notNull(),
    css: text('css').notNull(),
    project: text('project').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.eventId, t.version] }),
    foreignKey({ columns: [t.tenantId, t.eventId], foreignColumns: [eventPages.tenantId, eventPages.eventId] }).onDelete('cascade'),
  ],
);
