import { randomUUID } from 'node:crypto';
import {
  COMPLIMENTARY_NEW_TENANT,
  COMPLIMENTARY_UNLIMITED,
  DEFAULT_PASS_ALONG_OPTION,
  DEFAULT_SURCHARGE_RULE_ID,
  M,
  ZSetDefaultSurchargeRuleRequest,
  ZSurchargeRuleInput,
  ZSurchargeRulePatch,
  ZTicketSettingsInput,
  bpToPercent,
  feeSettingsFromWire,
  feeSettingsToWire,
  isSetDefaultRequest,
  type FeeSettings,
  type PlatformRole,
  type TSurchargeRule,
  type TSurchargeRuleList,
  type TTicketSettingsResource,
  type AuditAction,
} from '@marquee/core';
import type { z } from 'zod';
import type { DbOrTx, Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { actorOf as auditActorOf, recordAudit, type AuditActor } from '../../platform/audit.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { AppError, DomainError, forbidden, notFound } from '../../platform/errors.js';
import { compileList } from '../../platform/list-query.js';
import { parseOrThrow } from '../../platform/validate.js';
import { findTenant } from '../tenants/repository.js';
import * as repo from './repository.js';
import { type FeeScope, ownerIdOf } from './repository.js';

export type { FeeScope } from './repository.js';

const PLATFORM_FEE_WRITERS: readonly PlatformRole[] = ['super_user', 'platform_manager'];

/**
 * The global template seeded on first start (spec: accounts §9). The default rule's amounts are
 * ours (the spec leaves them to environment settings): 2.5% + $0.99 per ticket online and in the
 * app, nothing at the box office.
 */
export const GLOBAL_DEFAULT_RULE = {
  id: DEFAULT_SURCHARGE_RULE_ID,
  name: 'Standard Service Fee',
  serviceFeePercent: 2.5,
  serviceFeeFlatRate: 99,
  serviceFeePOSPercent: 0,
  serviceFeePOSFlatRate: 0,
  active: true,
} as const;

export const GLOBAL_DEFAULT_SETTINGS: FeeSettings = {
  defaultSurchargeRule: DEFAULT_SURCHARGE_RULE_ID,
  isTenantSettingsControlEnabled: false,
  donationServiceFeeBp: 2000,
  donationCharge: 0,
  roundUpServiceFeeValue: 1,
  passAlong: { ONLINE: DEFAULT_PASS_ALONG_OPTION, BACKEND: DEFAULT_PASS_ALONG_OPTION, APP: DEFAULT_PASS_ALONG_OPTION },
  chargeTax: false,
  taxRateBp: null,
  chargeOnline: false,
  chargeOnlineValue: null,
  chargeCash: false,
  chargeCashValue: null,
  chargeBoxOffice: false,
  chargeBoxOfficeValue: 0,
  maximumComplimentaryTickets: COMPLIMENTARY_UNLIMITED,
  autoShowActiveTicketsAsSoldOut: false,
  platformFeeBp: 0,
  processingFeeBp: 290,
};

/**
 * Seeds the global settings and the default global rule when the global settings do not exist.
 * Safe on every start and on several nodes at once; once seeded, nothing is ever re-created (an
 * operator may have deleted or changed the seeded rule since).
 */
export async function ensureGlobalFeeDefaults(deps: Pick<Deps, 'db'>): Promise<void> {
  const scope: FeeScope = { kind: 'global' };
  if (await repo.findSettings(deps.db, scope)) return;
  await deps.db.transaction(async (tx) => {
    if (await repo.findSettings(tx, scope)) return;
    const { id, ...rule } = GLOBAL_DEFAULT_RULE;
    await repo.insertRule(tx, scope, id, rule);
    await repo.insertSettings(tx, scope, GLOBAL_DEFAULT_SETTINGS);
  });
}

// ---- who may write ---------------------------------------------------------------------------

/** Platform managers always; a tenant's admin only while the platform allows it. Reading is always allowed. */
export type FeeActor = { platformWriter: boolean; /** Who, for the audit log (issue 25). */ audit?: AuditActor };

export const actorOf = (ctx: TenantCtx | null, audit?: AuditActor): FeeActor => ({
  platformWriter: ctx === null || ctx.platformRoles.some((r) => PLATFORM_FEE_WRITERS.includes(r)),
  audit: ctx?.actor ?? audit,
});

/** An audit entry of a fee change, for the scope's tenant (null: the global fees). */
const auditFees = (tx: Tx, scope: FeeScope, actor: FeeActor, action: AuditAction, id: string | null, before: unknown, after: unknown) =>
  recordAudit(tx, { actor: auditActorOf({ actor: actor.audit }), tenantId: scope.kind === 'tenant' ? scope.tenantId : null, action, target: { type: id ? 'fee_rule' : 'fee_settings', id }, before, after });

/** spec: accounts §6: 'Allow Tenant to Edit Fees Settings', enforced here, not only by disabled inputs. */
function assertMayWrite(actor: FeeActor, settings: FeeSettings) {
  if (actor.platformWriter) return;
  if (!settings.isTenantSettingsControlEnabled) throw new DomainError('FEES_LOCKED', M.feesEditNotAllowed);
}

async function lockedSettings(tx: Tx, scope: FeeScope) {
  const settings = await repo.findSettings(tx, scope, true);
  if (!settings) throw notFound(scope.kind === 'global' ? M.globalSettingsLoadFailed : M.notFound);
  return settings;
}

// ---- rules -----------------------------------------------------------------------------------

export async function listRules({ deps, scope, query }: { deps: Deps; scope: FeeScope; query: unknown }): Promise<TSurchargeRuleList> {
  const q = compileList(repo.ruleListSpec(scope), query);
  const settings = await repo.findSettings(deps.db, scope);
  if (!settings && scope.kind === 'global') throw notFound(M.globalSurchargeLoadFailed);
  const { rows, total } = await repo.listRules(deps.db, scope, q);
  const ownerId = ownerIdOf(scope);
  return q.page(rows, total, ({ row }) => ({ ownerId, rule: repo.toRule(row, ownerId, settings?.defaultSurchargeRule ?? null) }));
}

async function ruleResource(db: DbOrTx, scope: FeeScope, id: string): Promise<TSurchargeRule> {
  const row = await repo.findRule(db, scope, id);
  if (!row) throw notFound();
  const settings = await repo.findSettings(db, scope);
  return repo.toRule(row, ownerIdOf(scope), settings?.defaultSurchargeRule ?? null);
}

export async function createRule({
  deps,
  scope,
  actor,
  input,
}: {
  deps: Deps;
  scope: FeeScope;
  actor: FeeActor;
  input: z.output<typeof ZSurchargeRuleInput>;
}) {
  const id = randomUUID();
  await deps.db.transaction(async (tx) => {
    const settings = await lockedSettings(tx, scope);
    assertMayWrite(actor, settings);
    const { default: makeDefault, ...values } = input;
    // spec: accounts §4: the default rule cannot be switched off.
    if (makeDefault && !values.active) throw new AppError('CONFLICT', M.defaultRuleInactive);
    await repo.insertRule(tx, scope, id, values);
    if (makeDefault) await repo.updateSettings(tx, scope, { defaultSurchargeRule: id });
    await auditFees(tx, scope, actor, 'fees.rule_created', id, null, input);
  });
  return { data: { rule: await ruleResource(deps.db, scope, id) } };
}

export async function updateRule({
  deps,
  scope,
  actor,
  ruleId,
  changes,
}: {
  deps: Deps;
  scope: FeeScope;
  actor: FeeActor;
  ruleId: string;
  changes: z.output<typeof ZSurchargeRulePatch>;
}) {
  await deps.db.transaction(async (tx) => {
    const settings = await lockedSettings(tx, scope);
    const row = await repo.findRule(tx, scope, ruleId);
    if (!row) throw notFound();
    assertMayWrite(actor, settings);
    const { default: makeDefault, ...values } = changes;
    const isDefault = settings.defaultSurchargeRule === ruleId;
    // spec: accounts §4: the default rule can be neither switched off nor un-defaulted here
    // (the checkbox is locked); another rule must be made the default instead.
    if (isDefault && (values.active === false || makeDefault === false)) throw new AppError('CONFLICT', M.defaultRuleLocked);
    const activeAfter = values.active ?? row.active;
    if (makeDefault && !activeAfter) throw new AppError('CONFLICT', M.defaultRuleInactive);
    await repo.updateRule(tx, scope, ruleId, values);
    if (makeDefault && !isDefault) await repo.updateSettings(tx, scope, { defaultSurchargeRule: ruleId });
    await auditFees(tx, scope, actor, 'fees.rule_changed', ruleId, { ...row, default: isDefault }, { ...row, ...values, default: makeDefault ?? isDefault });
  });
  return { data: { rule: await ruleResource(deps.db, scope, ruleId) } };
}

export async function deleteRule({ deps, scope, actor, ruleId }: { deps: Deps; scope: FeeScope; actor: FeeActor; ruleId: string }) {
  await deps.db.transaction(async (tx) => {
    const settings = await lockedSettings(tx, scope);
    const row = await repo.findRule(tx, scope, ruleId);
    if (!row) throw notFound();
    assertMayWrite(actor, settings);
    // spec: accounts §8: deleting the default rule is refused with this exact message.
    if (settings.defaultSurchargeRule === ruleId) throw new AppError('CONFLICT', M.defaultRuleDelete);
    await repo.deleteRule(tx, scope, ruleId);
    await auditFees(tx, scope, actor, 'fees.rule_deleted', ruleId, row, null);
  });
  return { success: true as const, message: M.surchargeDeleted };
}

/** The platform console's delete of a tenant's rule; the tenant id comes from the query (platform access). */
export async function deleteTenantRuleAsPlatform({ deps, tenantId, ruleId, audit }: { deps: Deps; tenantId: string; ruleId: string; audit?: AuditActor }) {
  if (!UUID_RE.test(tenantId) || !(await findTenant(deps.db, tenantId))) throw notFound();
  return deleteRule({ deps, scope: { kind: 'tenant', tenantId }, actor: actorOf(null, audit), ruleId });
}

// ---- settings --------------------------------------------------------------------------------

export async function getSettings({ deps, scope }: { deps: Deps; scope: FeeScope }): Promise<TTicketSettingsResource> {
  const settings = await repo.findSettings(deps.db, scope);
  if (!settings) throw notFound(scope.kind === 'global' ? M.globalSettingsLoadFailed : M.notFound);
  return feeSettingsToWire(settings, ownerIdOf(scope));
}

async function assertDefaultCandidate(tx: Tx, scope: FeeScope, ruleId: string) {
  const rule = await repo.findRule(tx, scope, ruleId);
  if (!rule) throw notFound();
  if (!rule.active) throw new AppError('CONFLICT', M.defaultRuleInactive);
}

/**
 * spec: accounts §7: the body is either {defaultSurchargeRule} (make a rule the default) or the
 * full settings (optionally with defaultSurchargeRule). Fields left out of the full settings
 * keep their defaults, except isTenantSettingsControlEnabled, which keeps its current value.
 */
export async function updateSettings({ deps, scope, actor, body }: { deps: Deps; scope: FeeScope; actor: FeeActor; body: unknown }) {
  await deps.db.transaction(async (tx) => {
    const current = await lockedSettings(tx, scope);
    assertMayWrite(actor, current);
    if (isSetDefaultRequest(body)) {
      const { defaultSurchargeRule } = parseOrThrow(ZSetDefaultSurchargeRuleRequest, body);
      await assertDefaultCandidate(tx, scope, defaultSurchargeRule);
      await repo.updateSettings(tx, scope, { defaultSurchargeRule });
      await auditFees(tx, scope, actor, 'fees.settings_changed', null, { defaultSurchargeRule: current.defaultSurchargeRule }, { defaultSurchargeRule });
      return;
    }
    const raw = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const { defaultSurchargeRule, ...rest } = raw;
    const input = parseOrThrow(ZTicketSettingsInput, { isTenantSettingsControlEnabled: current.isTenantSettingsControlEnabled, ...rest });
    if (input.isTenantSettingsControlEnabled !== current.isTenantSettingsControlEnabled && !actor.platformWriter) {
      throw forbidden(M.feesControlPlatformOnly);
    }
    let nextDefault = current.defaultSurchargeRule;
    if (defaultSurchargeRule !== undefined && defaultSurchargeRule !== current.defaultSurchargeRule) {
      nextDefault = parseOrThrow(ZSetDefaultSurchargeRuleRequest, { defaultSurchargeRule }).defaultSurchargeRule;
      await assertDefaultCandidate(tx, scope, nextDefault);
    }
    const settings = feeSettingsFromWire(input, nextDefault);
    // The global settings are a template, never tenant-controlled themselves.
    if (scope.kind === 'global') settings.isTenantSettingsControlEnabled = false;
    await repo.updateSettings(tx, scope, settings);
    await auditFees(tx, scope, actor, 'fees.settings_changed', null, current, settings);
  });
  return { success: true as const, message: M.settingsUpdated, settings: await getSettings({ deps, scope }) };
}

// ---- tenants ---------------------------------------------------------------------------------

/**
 * spec: accounts §7 Add tenant: copies every global rule to the new tenant (tracking which copy
 * is the default) and the global ticket settings, with isTenantSettingsControlEnabled off and
 * 99999 complimentary tickets. Runs inside the tenant's creation transaction: a failure here
 * undoes the whole tenant.
 */
export async function copyGlobalFeesToTenant(tx: Tx, tenantId: string) {
  const global = await repo.findSettings(tx, { kind: 'global' });
  if (!global) throw new DomainError('TENANT_SETTINGS_FAILED', M.tenantSettingsFailed);
  const scope: FeeScope = { kind: 'tenant', tenantId };
  const copies = new Map<string, string>();
  for (const rule of await repo.allGlobalRules(tx)) {
    const id = randomUUID();
    copies.set(rule.id, id);
    await repo.insertRule(
      tx,
      scope,
      id,
      {
        name: rule.name,
        serviceFeePercent: bpToPercent(rule.serviceFeePercentBp),
        serviceFeeFlatRate: rule.serviceFeeFlatRate,
        serviceFeePOSPercent: bpToPercent(rule.serviceFeePosPercentBp),
        serviceFeePOSFlatRate: rule.serviceFeePosFlatRate,
        active: rule.active,
      },
      rule.id,
    );
  }
  const defaultCopy = global.defaultSurchargeRule === null ? null : copies.get(global.defaultSurchargeRule);
  if (defaultCopy === undefined) throw new DomainError('TENANT_SETTINGS_FAILED', M.tenantSettingsFailed);
  await repo.insertSettings(tx, scope, {
    ...global,
    isTenantSettingsControlEnabled: false,
    maximumComplimentaryTickets: COMPLIMENTARY_NEW_TENANT,
    defaultSurchargeRule: defaultCopy,
  });
}
