import { boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy.js';

// Connected accounts (issue 21.18, docs/payouts.md "Connecting a tenant's account"): the account a
// tenant's payouts go to, made and onboarded through the payment gateway (Stripe Connect Express, or
// the test gateway's stand-in), and what the gateway last said of it.

/** A tenant's connected account with the gateway of one driver, and its onboarding status. */
export const paymentAccounts = pgTable(
  'payment_accounts',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** The driver that made the account: test | stripe (a server switched to another driver starts again). */
    provider: text('provider').notNull(),
    /** The gateway's account id (Stripe acct_…). */
    accountId: text('account_id').notNull(),
    /** The account holder finished the onboarding form (Stripe details_submitted). */
    detailsSubmitted: boolean('details_submitted').notNull().default(false),
    /** The gateway pays the account out (Stripe payouts_enabled): transfers can go to it. */
    payoutsEnabled: boolean('payouts_enabled').notNull().default(false),
    /** When the gateway was last asked. */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.provider] }), uniqueIndex('payment_accounts_account_key').on(t.provider, t.accountId)],
);

/** The test gateway's connected accounts (what Stripe keeps on its side), one per idempotency key. */
export const testConnectAccounts = pgTable(
  'test_connect_accounts',
  {
    id: text('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull(),
    email: text('email').notNull().default(''),
    businessName: text('business_name').notNull().default(''),
    idempotencyKey: text('idempotency_key').notNull(),
    detailsSubmitted: boolean('details_submitted').notNull().default(false),
    payoutsEnabled: boolean('payouts_enabled').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('test_connect_accounts_idempotency_key').on(t.idempotencyKey)],
);

/** The test gateway's onboarding links: single use, short-lived, like Stripe's Account Links. */
export const testAccountLinks = pgTable(
  'test_account_links',
  {
    /** The token in the link's URL: unguessable, so the URL is the capability. */
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => testConnectAccounts.id),
    returnUrl: text('return_url').notNull(),
    refreshUrl: text('refresh_url').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('test_account_links_account_idx').on(t.accountId)],
);
