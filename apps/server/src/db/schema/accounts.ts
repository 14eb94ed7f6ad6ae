import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    contactNumber: text('contact_number'),
    birthDate: date('birth_date', { mode: 'string' }),
    address1: text('address1'),
    address2: text('address2'),
    city: text('city'),
    state: text('state'),
    zip: text('zip'),
    country: text('country'),
    pictureKey: text('picture_key'),
    /** PENDING until the e-mail is verified, then ACTIVE. */
    status: text('status').notNull().default('PENDING'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /** Wrong one-time codes since the last right one, across every code issued (reissue keeps the count). */
    codeFailures: integer('code_failures').notNull().default(0),
    /** No code is checked before this time (backoff after repeated wrong codes). */
    codeRetryAt: timestamp('code_retry_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** sha256 of the opaque token; the token itself is only ever in the cookie. */
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    csrfToken: text('csrf_token').notNull(),
    host: text('host').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * A user's place in a group: the platform (group 'platform'), a tenant (group = tenant id), or an
 * event inside a tenant (event staff). Roles are checked by the one guard in platform/auth.
 */
export const memberships = pgTable(
  'memberships',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    groupId: text('group_id').notNull(),
    tenantId: uuid('tenant_id'),
    eventId: uuid('event_id'),
    roles: text('roles').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('memberships_user_group_event_key').on(t.userId, t.groupId, t.eventId).nullsNotDistinct(),
    index('memberships_tenant_idx').on(t.tenantId),
  ],
);

export const invites = pgTable(
  'invites',
  {
    id: uuid('id').primaryKey(),
    codeHash: text('code_hash').notNull(),
    email: text('email').notNull(),
    groupId: text('group_id').notNull(),
    tenantId: uuid('tenant_id'),
    eventId: uuid('event_id'),
    roles: text('roles').array().notNull(),
    appType: text('app_type').notNull(),
    invitedBy: uuid('invited_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('invites_code_key').on(t.codeHash), index('invites_email_idx').on(t.email)],
);

/** One-time codes for e-mail verification and password reset (spec: valid 30 minutes). */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    inviteId: uuid('invite_id'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('verification_codes_user_idx').on(t.userId, t.purpose).where(sql`used_at is null`)],
);
