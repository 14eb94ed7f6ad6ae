import {
  CARD_PAYMENT_PROVIDER,
  M,
  ZPayoutUpdateRequest,
  passAlongOption,
  payoutAutomaticFor,
  type FeeSettings,
  type PassAlongChannel,
  type PaymentAccountType,
  type PayoutType,
  type TPaymentSettings,
} from '@marquee/core';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../../platform/audit.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { notFound } from '../../platform/errors.js';
import * as fees from '../fees/repository.js';
import { GLOBAL_DEFAULT_SETTINGS } from '../fees/service.js';
import { findTenant } from '../tenants/repository.js';
import * as repo from './repository.js';

/** spec: accounts §9 New tenant defaults: payout at the end of the event, not automatic; card provider; test mode. */
export const NEW_TENANT_PAYMENT_SETTINGS: repo.PaymentSettingsValues = {
  payoutAutomatic: payoutAutomaticFor('platform'),
  payoutDate: null,
  payoutType: 'end_of_event',
  payoutTag: null,
  chargeSurchargeFeesToPlatform: false,
  processorType: CARD_PAYMENT_PROVIDER,
  profileId: null,
  direct: false,
  paymentType: 'platform',
  paymentTag: null,
  paymentRef: null,
  gatewayProvider: CARD_PAYMENT_PROVIDER,
  gatewayCustomerId: null,
  gatewayTest: true,
};

/** spec: accounts §9: on the settings screen the account defaults to platform and payouts to weekly. */
const SETTINGS_SCREEN_DEFAULTS: repo.PaymentSettingsValues = { ...NEW_TENANT_PAYMENT_SETTINGS, payoutType: 'weekly' };

export async function createDefaultPaymentSettings(db: DbOrTx, tenantId: string) {
  await repo.insertPaymentSettings(db, tenantId, NEW_TENANT_PAYMENT_SETTINGS);
}

function toResource(row: repo.PaymentSettingsRow, ticket: FeeSettings | undefined): TPaymentSettings {
  // A tenant without its own ticket settings is priced with the platform's defaults (checkout/pricing.ts), so those are shown.
  const settings = ticket ?? GLOBAL_DEFAULT_SETTINGS;
  const option = (channel: PassAlongChannel) => passAlongOption(channel, settings.passAlong[channel]);
  return {
    tenantId: row.tenantId,
    payout: {
      automatic: row.payoutAutomatic,
      date: row.payoutDate,
      type: row.payoutType as PayoutType,
      tag: row.payoutTag,
      chargeSurchargeFeesToPlatform: row.chargeSurchargeFeesToPlatform,
    },
    payment: {
      processorType: row.processorType,
      profileId: row.profileId,
      direct: row.direct,
      type: row.paymentType as PaymentAccountType,
      tag: row.paymentTag,
      id: row.paymentRef,
    },
    // One source of truth: these are the tenant's ticket settings, shown here read-only.
    fees: {
      serviceFeeRoundUp: settings.roundUpServiceFeeValue,
      serviceFeeOnlineSales: option('ONLINE'),
      serviceFeeBackendSales: option('BACKEND'),
      serviceFeeAppSales: option('APP'),
    },
    gateway: { provider: row.gatewayProvider, customerId: row.gatewayCustomerId, test: row.gatewayTest },
  };
}

export async function getPaymentSettings({ deps, tenantId }: { deps: Pick<Deps, 'db'>; tenantId: string }): Promise<TPaymentSettings> {
  const row = await repo.findPaymentSettings(deps.db, tenantId);
  if (!row) throw notFound(M.paymentSettingsMissing);
  return toResource(row, await fees.findSettings(deps.db, { kind: 'tenant', tenantId }));
}

/**
 * spec: accounts §7 POST /payment/payout-update. Choosing the tenant's account forces automatic
 * payouts on, the platform's forces them off (§4); the client's `automatic` is ignored.
 */
/** What the audit log keeps of a tenant's payment and payout settings (issue 25: before and after). */
export function paymentSettingsAuditView(v: Partial<repo.PaymentSettingsValues>) {
  return {
    paymentType: v.paymentType ?? null,
    paymentRef: v.paymentRef ?? null,
    paymentTag: v.paymentTag ?? null,
    profileId: v.profileId ?? null,
    direct: v.direct ?? false,
    payoutAutomatic: v.payoutAutomatic ?? null,
    payoutType: v.payoutType ?? null,
    payoutDate: v.payoutDate ?? null,
    payoutTag: v.payoutTag ?? null,
    chargeSurchargeFeesToPlatform: v.chargeSurchargeFeesToPlatform ?? false,
  };
}

export async function updatePaymentSettings({ deps, input, actor }: { deps: Deps; input: z.output<typeof ZPayoutUpdateRequest>; actor?: AuditActor }) {
  const { tenantId, payment, payout } = input;
  if (!UUID_RE.test(tenantId)) throw notFound();
  await deps.db.transaction(async (tx) => {
    if (!(await findTenant(tx, tenantId, true))) throw notFound();
    const stored = await repo.findPaymentSettings(tx, tenantId);
    const current = stored ?? { ...SETTINGS_SCREEN_DEFAULTS, tenantId };
    const keep = <T>(given: T | undefined, now: T) => (given === undefined ? now : given);
    const next: repo.PaymentSettingsValues = {
      payoutAutomatic: payoutAutomaticFor(payment.type),
      payoutDate: keep(payout.date, current.payoutDate ?? null),
      payoutType: keep(payout.type, current.payoutType),
      payoutTag: keep(payout.tag, current.payoutTag ?? null),
      chargeSurchargeFeesToPlatform: keep(payout.chargeSurchargeFeesToPlatform, current.chargeSurchargeFeesToPlatform ?? false),
      processorType: current.processorType,
      profileId: keep(payment.profileId, current.profileId ?? null),
      direct: keep(payment.direct, current.direct ?? false),
      paymentType: payment.type,
      paymentTag: keep(payment.tag, current.paymentTag ?? null),
      paymentRef: keep(payment.id, current.paymentRef ?? null),
      gatewayProvider: current.gatewayProvider,
      gatewayCustomerId: current.gatewayCustomerId ?? null,
      gatewayTest: current.gatewayTest ?? true,
    };
    await repo.upsertPaymentSettings(tx, tenantId, next);
    await recordAudit(tx, {
      actor: actor ?? SYSTEM_ACTOR,
      tenantId,
      action: 'payment_settings.changed',
      target: { type: 'payment_settings', id: tenantId },
      before: stored ? paymentSettingsAuditView(stored) : null,
      after: paymentSettingsAuditView(next),
    });
  });
  return { success: true as const, message: M.paymentUpdated, settings: await getPaymentSettings({ deps, tenantId }) };
}
