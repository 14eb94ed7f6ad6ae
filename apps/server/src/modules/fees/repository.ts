import { GLOBAL_OWNER_ID, type TSurchargeRule, type TTicketSettingsResource } from '@marquee/core';
import { and, count, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { globalSurchargeRules, globalTicketSettings, surchargeRules, ticketSettings } from '../../db/schema/index.js';
import type { CompiledList, ListSpec } from '../../platform/list-query.js';

// Percentages live in the database as integer basis points (2.9% = 290).
export const toBp = (percent: number) => Math.round(percent * 100);
export const fromBp = (bp: number) => bp / 100;

export const GLOBAL_SETTINGS_ID = 'global';

export type FeeScope = { kind: 'global' } | { kind: 'tenant'; tenantId: string };
export const ownerIdOf = (scope: FeeScope) => (scope.kind === 'global' ? GLOBAL_OWNER_ID : scope.tenantId);

// ---- rules -------------------------------------------------------------------------------------

export type RuleValues = {
  name: string;
  serviceFeePercent: number;
  serviceFeeFlatRate: number;
  serviceFeePOSPercent: number;
  serviceFeePOSFlatRate: number;
  active: boolean;
};

type RuleRow = typeof globalSurchargeRules.$inferSelect;

export function toRule(row: RuleRow, ownerId: string, defaultRuleId: string | null): TSurchargeRule {
  return {
    id: row.id,
    name: row.name,
    serviceFeePercent: fromBp(row.serviceFeePercentBp),
    serviceFeeFlatRate: row.serviceFeeFlatRate,
    serviceFeePOSPercent: fromBp(row.serviceFeePosPercentBp),
    serviceFeePOSFlatRate: row.serviceFeePosFlatRate,
    default: row.id === defaultRuleId,
    active: row.active,
    ownerId,
  };
}

type RuleCols = Pick<
  typeof globalSurchargeRules.$inferInsert,
  'name' | 'serviceFeePercentBp' | 'serviceFeeFlatRate' | 'serviceFeePosPercentBp' | 'serviceFeePosFlatRate' | 'active'
>;

function ruleColumns(v: Partial<RuleValues>): Partial<RuleCols> {
  const out: Partial<RuleCols> = {};
  if (v.name !== undefined) out.name = v.name;
  if (v.serviceFeePercent !== undefined) out.serviceFeePercentBp = toBp(v.serviceFeePercent);
  if (v.serviceFeeFlatRate !== undefined) out.serviceFeeFlatRate = v.serviceFeeFlatRate;
  if (v.serviceFeePOSPercent !== undefined) out.serviceFeePosPercentBp = toBp(v.serviceFeePOSPercent);
  if (v.serviceFeePOSFlatRate !== undefined) out.serviceFeePosFlatRate = v.serviceFeePOSFlatRate;
  if (v.active !== undefined) out.active = v.active;
  return out;
}

const ruleTable = (scope: FeeScope) => (scope.kind === 'global' ? globalSurchargeRules : surchargeRules);

function ruleWhere(scope: FeeScope, id?: string): SQL | undefined {
  if (scope.kind === 'global') return id === undefined ? undefined : eq(globalSurchargeRules.id, id);
  const own = eq(surchargeRules.tenantId, scope.tenantId);
  return id === undefined ? own : and(own, eq(surchargeRules.id, id));
}

export function ruleListSpec(scope: FeeScope): ListSpec {
  const t = scope.kind === 'global' ? globalSurchargeRules : surchargeRules;
  return {
    fields: {
      'details.name': { expr: t.name, type: 'text', match: 'contains' },
      'details.active': { expr: t.active, type: 'boolean' },
      'details.dateCreated': { expr: t.createdAt, type: 'timestamp' },
    },
    id: t.id,
    defaultSort: 'details.dateCreated',
  };
}

export async function findRule(db: DbOrTx, scope: FeeScope, id: string): Promise<RuleRow | undefined> {
  const table = ruleTable(scope);
  const [row] = await db
    .select({
      id: table.id,
      name: table.name,
      serviceFeePercentBp: table.serviceFeePercentBp,
      serviceFeeFlatRate: table.serviceFeeFlatRate,
      serviceFeePosPercentBp: table.serviceFeePosPercentBp,
      serviceFeePosFlatRate: table.serviceFeePosFlatRate,
      active: table.active,
      createdAt: table.createdAt,
      updatedAt: table.updatedAt,
    })
    .from(table)
    .where(ruleWhere(scope, id));
  return row;
}

export async function listRules(db: DbOrTx, scope: FeeScope, q: CompiledList) {
  const table = ruleTable(scope);
  const own = ruleWhere(scope);
  const rows = await db
    .select({ row: table, _sort: q.sortKey, _id: q.idKey })
    .from(table)
    .where(and(own, q.pageWhere))
    .orderBy(...q.orderBy)
    .limit(q.limit + 1);
  const [total] = await db.select({ n: count() }).from(table).where(and(own, q.where));
  return { rows: rows as Array<{ row: RuleRow; _sort: unknown; _id: unknown }>, total: total?.n ?? 0 };
}

export async function allGlobalRules(db: DbOrTx): Promise<RuleRow[]> {
  return db.select().from(globalSurchargeRules).orderBy(globalSurchargeRules.createdAt, globalSurchargeRules.id);
}

export async function insertRule(db: DbOrTx, scope: FeeScope, id: string, v: RuleValues, copiedFrom: string | null = null) {
  const values = { id, ...(ruleColumns(v) as RuleCols) };
  if (scope.kind === 'global') await db.insert(globalSurchargeRules).values(values).onConflictDoNothing();
  else await db.insert(surchargeRules).values({ ...values, tenantId: scope.tenantId, copiedFrom });
}

export async function updateRule(db: DbOrTx, scope: FeeScope, id: string, v: Partial<RuleValues>) {
  const cols = { ...ruleColumns(v), updatedAt: new Date() };
  if (scope.kind === 'global') await db.update(globalSurchargeRules).set(cols).where(ruleWhere(scope, id));
  else await db.update(surchargeRules).set(cols).where(ruleWhere(scope, id));
}

export async function deleteRule(db: DbOrTx, scope: FeeScope, id: string) {
  if (scope.kind === 'global') await db.delete(globalSurchargeRules).where(ruleWhere(scope, id));
  else await db.delete(surchargeRules).where(ruleWhere(scope, id));
}

// ---- settings ----------------------------------------------------------------------------------

type SettingsRow = typeof ticketSettings.$inferSelect;
export type SettingsColumns = Omit<SettingsRow, 'tenantId' | 'updatedAt'>;
export type SettingsValues = Omit<TTicketSettingsResource, 'ownerId'>;

export function toSettings(row: SettingsColumns, ownerId: string): TTicketSettingsResource {
  return {
    ownerId,
    defaultSurchargeRule: row.defaultSurchargeRule,
    isTenantSettingsControlEnabled: row.isTenantSettingsControlEnabled,
    donationServiceFee: fromBp(row.donationServiceFeeBp),
    donationCharge: row.donationCharge,
    roundUpServiceFeeValue: row.roundUpServiceFeeValue,
    serviceFeePassAlongOptionOnline: row.serviceFeePassAlongOptionOnline,
    serviceFeePassAlongOptionBackend: row.serviceFeePassAlongOptionBackend,
    serviceFeePassAlongOptionApp: row.serviceFeePassAlongOptionApp,
    chargeTax: row.chargeTax,
    taxRate: row.taxRateBp === null ? null : fromBp(row.taxRateBp),
    chargeOnline: row.chargeOnline,
    chargeOnlineValue: row.chargeOnlineValue,
    chargeCash: row.chargeCash,
    chargeCashValue: row.chargeCashValue,
    chargeBoxOffice: row.chargeBoxOffice,
    chargeBoxOfficeValue: row.chargeBoxOfficeValue,
    maximumComplimentaryTickets: row.maximumComplimentaryTickets,
    autoShowActiveTicketsAsSoldOut: row.autoShowActiveTicketsAsSoldOut,
    platformFee: fromBp(row.platformFeeBp),
    processingFee: fromBp(row.processingFeeBp),
  };
}

export function settingsColumns(v: SettingsValues): SettingsColumns {
  return {
    defaultSurchargeRule: v.defaultSurchargeRule,
    isTenantSettingsControlEnabled: v.isTenantSettingsControlEnabled,
    donationServiceFeeBp: toBp(v.donationServiceFee),
    donationCharge: v.donationCharge,
    roundUpServiceFeeValue: v.roundUpServiceFeeValue,
    serviceFeePassAlongOptionOnline: v.serviceFeePassAlongOptionOnline,
    serviceFeePassAlongOptionBackend: v.serviceFeePassAlongOptionBackend,
    serviceFeePassAlongOptionApp: v.serviceFeePassAlongOptionApp,
    chargeTax: v.chargeTax,
    taxRateBp: v.taxRate === null ? null : toBp(v.taxRate),
    chargeOnline: v.chargeOnline,
    chargeOnlineValue: v.chargeOnlineValue,
    chargeCash: v.chargeCash,
    chargeCashValue: v.chargeCashValue,
    chargeBoxOffice: v.chargeBoxOffice,
    chargeBoxOfficeValue: v.chargeBoxOfficeValue,
    maximumComplimentaryTickets: v.maximumComplimentaryTickets,
    autoShowActiveTicketsAsSoldOut: v.autoShowActiveTicketsAsSoldOut,
    platformFeeBp: toBp(v.platformFee),
    processingFeeBp: toBp(v.processingFee),
  };
}

/** The scope's settings; `lock` takes the row for the rest of the transaction. */
export async function findSettings(db: DbOrTx, scope: FeeScope, lock = false): Promise<SettingsColumns | undefined> {
  if (scope.kind === 'global') {
    const query = db.select().from(globalTicketSettings).where(eq(globalTicketSettings.id, GLOBAL_SETTINGS_ID));
    const [row] = lock ? await query.for('update') : await query;
    if (!row) return undefined;
    const { id: _id, updatedAt: _u, ...cols } = row;
    return cols;
  }
  const query = db.select().from(ticketSettings).where(eq(ticketSettings.tenantId, scope.tenantId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) return undefined;
  const { tenantId: _t, updatedAt: _u, ...cols } = row;
  return cols;
}

export async function insertSettings(db: DbOrTx, scope: FeeScope, cols: SettingsColumns) {
  if (scope.kind === 'global') await db.insert(globalTicketSettings).values({ id: GLOBAL_SETTINGS_ID, ...cols }).onConflictDoNothing();
  else await db.insert(ticketSettings).values({ tenantId: scope.tenantId, ...cols });
}

export async function updateSettings(db: DbOrTx, scope: FeeScope, cols: Partial<SettingsColumns>) {
  const set = { ...cols, updatedAt: new Date() };
  if (scope.kind === 'global') await db.update(globalTicketSettings).set(set).where(eq(globalTicketSettings.id, GLOBAL_SETTINGS_ID));
  else await db.update(ticketSettings).set(set).where(eq(ticketSettings.tenantId, scope.tenantId));
}
