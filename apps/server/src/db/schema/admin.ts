import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenancy.js';

// The platform console's data: site provisioning, surcharge rules, ticket settings, payment and
// payout settings, policies. Percentages are stored as integer basis points (2.9% = 290) and
// converted at the edge; amounts are integer cents.

/** Site provisioning (the spec's "bucket") of one tenant. */
export const tenantSites = pgTable(
  'tenant_sites',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** pending | create_complete */
    status: text('status').notNull().default('pending'),
    /** Bumped by every retry, so each retry enqueues its own job. */
    generation: integer('generation').notNull().default(1),
    storagePrefix: text('storage_prefix').notNull(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.tenantId] })],
);

const ruleColumns = () => ({
  name: text('name').notNull(),
  serviceFeePercentBp: integer('service_fee_percent_bp').notNull(),
  serviceFeeFlatRate: integer('service_fee_flat_rate').notNull(),
  serviceFeePosPercentBp: integer('service_fee_pos_percent_bp').notNull(),
  serviceFeePosFlatRate: integer('service_fee_pos_flat_rate').notNull(),
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The global rules: the template every new tenant's rules are copied from. */
export const globalSurchargeRules = pgTable('global_surcharge_rules', { id: text('id').primaryKey(), ...ruleColumns() }, (t) => [
  check('global_surcharge_rules_fees_nonneg', sql`${t.serviceFeePercentBp} >= 0 and ${t.serviceFeeFlatRate} >= 0 and ${t.serviceFeePosPercentBp} >= 0 and ${t.serviceFeePosFlatRate} >= 0`),
]);

export const surchargeRules = pgTable(
  'surcharge_rules',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    id: text('id').notNull(),
    /** The global rule this one was copied from when the tenant was created. */
    copiedFrom: text('copied_from'),
    ...ruleColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('surcharge_rules_id_key').on(t.id),
    check('surcharge_rules_fees_nonneg', sql`${t.serviceFeePercentBp} >= 0 and ${t.serviceFeeFlatRate} >= 0 and ${t.serviceFeePosPercentBp} >= 0 and ${t.serviceFeePosFlatRate} >= 0`),
  ],
);

const settingsColumns = () => ({
  isTenantSettingsControlEnabled: boolean('is_tenant_settings_control_enabled').notNull().default(false),
  donationServiceFeeBp: integer('donation_service_fee_bp').notNull(),
  donationCharge: integer('donation_charge').notNull(),
  roundUpServiceFeeValue: integer('round_up_service_fee_value').notNull().default(1),
  serviceFeePassAlongOptionOnline: text('service_fee_pass_along_option_online').notNull(),
  serviceFeePassAlongOptionBackend: text('service_fee_pass_along_option_backend').notNull(),
  serviceFeePassAlongOptionApp: text('service_fee_pass_along_option_app').notNull(),
  chargeTax: boolean('charge_tax').notNull().default(false),
  taxRateBp: integer('tax_rate_bp'),
  chargeOnline: boolean('charge_online').notNull().default(false),
  chargeOnlineValue: integer('charge_online_value'),
  chargeCash: boolean('charge_cash').notNull().default(false),
  chargeCashValue: integer('charge_cash_value'),
  chargeBoxOffice: boolean('charge_box_office').notNull().default(false),
  chargeBoxOfficeValue: integer('charge_box_office_value').notNull().default(0),
  maximumComplimentaryTickets: integer('maximum_complimentary_tickets').notNull(),
  autoShowActiveTicketsAsSoldOut: boolean('auto_show_active_tickets_as_sold_out').notNull().default(false),
  platformFeeBp: integer('platform_fee_bp').notNull(),
  processingFeeBp: integer('processing_fee_bp').notNull(),
  defaultSurchargeRule: text('default_surcharge_rule'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One row, id 'global': the template new tenants' settings are copied from. */
export const globalTicketSettings = pgTable(
  'global_ticket_settings',
  { id: text('id').primaryKey(), ...settingsColumns() },
  (t) => [foreignKey({ name: 'global_ticket_settings_default_rule_fk', columns: [t.defaultSurchargeRule], foreignColumns: [globalSurchargeRules.id] })],
);

export const ticketSettings = pgTable(
  'ticket_settings',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    ...settingsColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId] }),
    // The default rule is always one of the tenant's own rules.
    foreignKey({ name: 'ticket_settings_default_rule_fk', columns: [t.tenantId, t.defaultSurchargeRule], foreignColumns: [surchargeRules.tenantId, surchargeRules.id] }),
  ],
);

/** spec: accounts §3 Tenant setup: payout, payment and gateway (fees are read from ticket settings). */
export const paymentSettings = pgTable(
  'payment_settings',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    payoutAutomatic: boolean('payout_automatic').notNull().default(false),
    payoutDate: text('payout_date'),
    /** end_of_event | weekly | daily | monthly */
    payoutType: text('payout_type').notNull(),
    payoutTag: text('payout_tag'),
    chargeSurchargeFeesToPlatform: boolean('charge_surcharge_fees_to_platform').notNull().default(false),
    processorType: text('processor_type').notNull(),
    profileId: text('profile_id'),
    direct: boolean('direct').notNull().default(false),
    /** tenant | platform: whose account takes the payments */
    paymentType: text('payment_type').notNull(),
    paymentTag: text('payment_tag'),
    paymentRef: text('payment_ref'),
    gatewayProvider: text('gateway_provider').notNull(),
    gatewayCustomerId: text('gateway_customer_id'),
    gatewayTest: boolean('gateway_test').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId] }),
    check('payment_settings_type', sql`${t.paymentType} in ('tenant', 'platform')`),
    // spec: accounts §4: the tenant account pays out automatically, the platform account does not.
    check('payment_settings_automatic', sql`${t.payoutAutomatic} = (${t.paymentType} = 'tenant')`),
  ],
);

/** Global policies (refund policy, terms, ...): rich text kept as sanitised HTML. */
export const policies = pgTable('policies', {
  id: text('id').primaryKey(),
  sk: text('sk').notNull().default('policy'),
  name: text('name').notNull(),
  group: text('group').notNull().default('global'),
  type: text('type').notNull().default('general'),
  detail: text('detail').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
