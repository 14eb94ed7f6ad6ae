import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';

/**
 * Issue 25: API keys. `tenant_id` null is a platform key (as memberships' platform group). The
 * secret is never stored: `prefix` finds the key, `secret_hash` (SHA-256 of a 256-bit random
 * secret) is compared in constant time. The key acts as its creator, within its scopes.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id'),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Updated at most once a minute (platform/auth/api-keys.ts). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_prefix').on(t.prefix), index('api_keys_tenant_idx').on(t.tenantId, t.createdAt)],
);

/**
 * Issue 25: the audit log, append-only. Written in the transaction of the action it records; a
 * trigger (migration) refuses UPDATE, DELETE and TRUNCATE. No foreign keys: an entry outlives the
 * user, key or tenant it names, and `actor` keeps the e-mail or key name as it was.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id'),
    action: text('action').notNull(),
    actorType: text('actor_type').notNull(),
    actorId: uuid('actor_id'),
    actor: text('actor').notNull(),
    /** For a key, the user who created it (the key acts as them). */
    onBehalfOf: uuid('on_behalf_of'),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    address: text('address'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_tenant_idx').on(t.tenantId, t.createdAt),
    index('audit_log_created_idx').on(t.createdAt),
    check('audit_log_actor_type_known', sql`${t.actorType} in ('user', 'key', 'system')`),
  ],
);
