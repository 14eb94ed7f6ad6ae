import {
  bpToPercent,
  DEFAULT_PASS_ALONG_OPTION,
  GLOBAL_OWNER_ID,
  parsePassAlongOption,
  passAlongOption,
  percentToBp,
  type FeeSettings,
  type PassAlongChannel,
  type TSurchargeRule,
} from '@marquee/core';
import { and, count, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { globalSurchargeRules, globalTicketSettings, surchargeRules, ticketSettings } from '../../db/schema/index.js';
import type { CompiledList, ListSpec } from '../../platform/list-query.js';

// Percentages live in the database as integer basis points (2.9% = 290): core's percentToBp, bpToPercent.

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
    serviceFeePercent: bpToPercent(row.serviceFeePercentBp),
    serviceFeeFlatRate: row.serviceFeeFlatRate,
    serviceFeePOSPercent: bpToPercent(row.serviceFeePosPercentBp),
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
  if (v.serviceFeePercent !== undefined) out.serviceFeePercentBp = percentToBp(v.serviceFeePercent);
  if (v.serviceFeeFlatRate !== undefined) out.serviceFeeFlatRate = v.serviceFeeFlatRate;
  if (v.serviceFeePOSPercent !== undefined) out.serviceFeePosPercentBp = percentToBp(v.serviceFeePOSPercent);
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
//
// The one mapper between the settings' columns and core's FeeSettings: rates are basis points on
// both sides; the pass-along options are stored as the spec names them (SERVICE_FEE_OPTION_ONLINE_3).

type SettingsRow = typeof ticketSettings.$inferSelect;
export type SettingsColumns = Omit<SettingsRow, 'tenantId' | 'updatedAt'>;

/** A stored option for the channel; one the database holds but the spec does not name is option 1 (§9 default). */
const storedOption = (channel: PassAlongChannel, value: string) => parsePassAlongOption(channel, value) ?? DEFAULT_PASS_ALONG_OPTION;

export function toFeeSettings(row: SettingsColumns): FeeSettings {
  const { serviceFeePassAlongOptionOnline, serviceFeePassAlongOptionBackend, serviceFeePassAlongOptionApp, ...same } = row;
  return {
    ...same,
    passAlong: {
      ONLINE: storedOption('ONLINE', serviceFeePassAlongOptionOnline),
      BACKEND: storedOption('BACKEND', serviceFeePassAlongOptionBackend),
      APP: storedOption('APP', serviceFeePassAlongOptionApp),
    },
  };
}

export function feeSettingsColumns(settings: FeeSettings): SettingsColumns {
  const { passAlong, ...same } = settings;
  return {
    ...same,
    serviceFeePassAlongOptionOnline: passAlongOption('ONLINE', passAlong.ONLINE),
    serviceFeePassAlongOptionBackend: passAlongOption('BACKEND', passAlong.BACKEND),
    serviceFeePassAlongOptionApp: passAlongOption('APP', passAlong.APP),
  };
}

/** The scope's settings; `lock` takes the row for the rest of the transaction. */
export async function findSettings(db: DbOrTx, scope: FeeScope, lock = false): Promise<FeeSettings | undefined> {
  if (scope.kind === 'global') {
    const query = db.select().from(globalTicketSettings).where(eq(globalTicketSettings.id, GLOBAL_SETTINGS_ID));
    const [row] = lock ? await query.for('update') : await query;
    if (!row) return undefined;
    const { id: _id, updatedAt: _u, ...cols } = row;
    return toFeeSettings(cols);
  }
  const query = db.select().from(ticketSettings).where(eq(ticketSettings.tenantId, scope.tenantId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) return undefined;
  const { tenantId: _t, updatedAt: _u, ...cols } = row;
  return toFeeSettings(cols);
}

export async function insertSettings(db: DbOrTx, scope: FeeScope, settings: FeeSettings) {
  const cols = feeSettingsColumns(settings);
  if (scope.kind === 'global') await db.insert(globalTicketSettings).values({ id: GLOBAL_SETTINGS_ID, ...cols }).onConflictDoNothing();
  else await db.insert(ticketSettings).values({ tenantId: scope.tenantId, ...cols });
}

/** Writes the whole settings, or only which rule is the default. */
export async function updateSettings(db: DbOrTx, scope: FeeScope, change: FeeSettings | Pick<FeeSettings, 'defaultSurchargeRule'>) {
  const cols = 'passAlong' in change ? feeSettingsColumns(change) : { defaultSurchargeRule: change.defaultSurchargeRule };
  const set = { ...cols, updatedAt: new Date() };
  if (scope.kind === 'global') await db.update(globalTicketSettings).set(set).where(eq(globalTicketSettings.id, GLOBAL_SETTINGS_ID));
  else await db.update(ticketSettings).set(set).where(eq(ticketSettings.tenantId, scope.tenantId));
}
