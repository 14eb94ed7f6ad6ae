import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * The domain events (issue 25): one row per thing that happened (an order paid, a ticket checked
 * in...), written in the same transaction as the change itself, so an event exists exactly when
 * its change committed. Outgoing webhooks deliver them; the id is the webhook-id receivers dedupe on.
 * tenant_id is null for a platform-wide event.
 */
export const domainEvents = pgTable(
  'domain_events',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id'),
    type: text('type').notNull(),
    /** The payload's version (the `version` field of the JSON sent). */
    version: integer('version').notNull().default(1),
    data: jsonb('data').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('domain_events_tenant_idx').on(t.tenantId, t.occurredAt)],
);

/** A receiver of webhooks: a tenant's (tenant_id set) or the platform's (null: every tenant's events). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id'),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    eventTypes: text('event_types').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Why it is off: 'manual' (someone turned it off) or 'failing' (deliveries failed for a day). */
    disabledReason: text('disabled_reason'),
    /** The signing secret, `whsec_` + base64, sealed with the server's SECRET (webhooks/secrets.ts). */
    secret: text('secret').notNull(),
    /** The secret before the last rotation, also signed with until previous_secret_until. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_tenant_idx').on(t.tenantId)],
);

/** One event to one endpoint: its state and its last attempt (the console's delivery log). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id'),
    endpointId: uuid('endpoint_id').notNull(),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** pending | succeeded | failed */
    status: text('status').notNull().default('pending'),
    /** Automatic attempts made so far (the backoff schedule's position). */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    responseStatus: integer('response_status'),
    /** The receiver's answer, its first 1,000 characters. */
    responseBody: text('response_body'),
    error: text('error'),
    durationMs: integer('duration_ms'),
    succeededAt: timestamp('succeeded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_endpoint_event').on(t.endpointId, t.eventId),
    index('webhook_deliveries_log_idx').on(t.endpointId, t.createdAt, t.id),
    index('webhook_deliveries_event_idx').on(t.eventId),
    index('webhook_deliveries_pending_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);
