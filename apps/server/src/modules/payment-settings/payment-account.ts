import { connectState, M, paymentSettingsPagePath, type TOnboardingLink, type TPaymentAccount } from '@marquee/core';
import { publicOrigin } from '../../config.js';
import type { Deps } from '../../deps.js';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../../platform/audit.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { AccountRefused } from '../../platform/payments/gateway.js';
import { findTenant } from '../tenants/repository.js';
import * as repo from './repository.js';
import { createDefaultPaymentSettings } from './service.js';

// Connecting a tenant's payout account (issue 21.18, docs/payouts.md "Connecting a tenant's
// account"): the gateway makes the tenant a connected account (Stripe Connect Express, or the test
// gateway's stand-in), an operator opens its hosted onboarding through a single-use link, and the
// console asks the gateway how far it got when the holder comes back. Once the gateway pays the
// account out, it becomes the tenant's payout destination (payment settings' payment.id).

type Ctx = { deps: Deps; tenantId: string };

async function liveTenant(deps: Deps, tenantId: string) {
  const tenant = UUID_RE.test(tenantId) ? await findTenant(deps.db, tenantId) : undefined;
  if (!tenant) throw notFound();
  return tenant;
}

/** A gateway failure as the operator sees it: the gateway's refusal, or "try again" when it did not answer. */
async function asking<T>(deps: Deps, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AccountRefused) throw conflict(`${M.connectAccountRefused}: ${err.message}`);
    deps.log.error({ err }, `payment gateway: ${what} failed`);
    throw new AppError('UNAVAILABLE', M.paymentProviderUnavailable);
  }
}

async function view(deps: Deps, tenantId: string): Promise<TPaymentAccount> {
  const [account, settings] = await Promise.all([repo.findPaymentAccount(deps.db, tenantId, deps.payments.name), repo.findPaymentSettings(deps.db, tenantId)]);
  const destination = settings?.paymentRef || settings?.gatewayCustomerId || null;
  const facts = { accountId: account?.accountId ?? null, destination, detailsSubmitted: account?.detailsSubmitted ?? false, payoutsEnabled: account?.payoutsEnabled ?? false };
  return {
    tenantId,
    driver: deps.payments.name,
    testMode: deps.payments.testMode,
    ...facts,
    state: connectState(facts),
    checkedAt: account?.checkedAt?.toISOString() ?? null,
  };
}

/** The tenant's connected account with this server's gateway, and where its payouts go now. */
export async function getPaymentAccount({ deps, tenantId }: Ctx): Promise<TPaymentAccount> {
  await liveTenant(deps, tenantId);
  return view(deps, tenantId);
}

/**
 * A link to the gateway's hosted onboarding of the tenant's account, made first if it has none.
 * Two operators at once get the same account: the gateway call carries one idempotency key per
 * tenant, and the row is written once. The link returns to the console's Payment/Payouts page.
 */
export async function startOnboarding({ deps, tenantId, userId, actor }: Ctx & { userId: string; actor?: AuditActor }): Promise<TOnboardingLink> {
  const tenant = await liveTenant(deps, tenantId);
  let account = await repo.findPaymentAccount(deps.db, tenantId, deps.payments.name);
  if (!account) {
    const made = await asking(deps, 'create connected account', () =>
      deps.payments.createConnectedAccount({ tenantId, email: tenant.email ?? '', businessName: tenant.name, idempotencyKey: `connect-account:${tenantId}` }),
    );
    account = await deps.db.transaction(async (tx) => {
      const inserted = await repo.insertPaymentAccount(tx, { tenantId, provider: deps.payments.name, accountId: made.accountId, createdBy: userId });
      // Issue 25: connecting a payout account is a change of the payment settings.
      await recordAudit(tx, {
        actor: actor ?? SYSTEM_ACTOR,
        tenantId,
        action: 'payment_settings.changed',
        target: { type: 'payment_account', id: inserted.accountId },
        before: null,
        after: { provider: inserted.provider, accountId: inserted.accountId },
      });
      return inserted;
    });
  }
  const page = `${publicOrigin(deps.config)}${paymentSettingsPagePath(tenantId)}`;
  const accountId = account.accountId;
  const link = await asking(deps, 'create onboarding link', () =>
    deps.payments.createOnboardingLink({ accountId, returnUrl: `${page}?connect=return`, refreshUrl: `${page}?connect=refresh` }),
  );
  return { url: link.url, expiresAt: link.expiresAt.toISOString() };
}

/**
 * Asks the gateway how far the tenant's account got and keeps the answer. An account the gateway
 * pays out becomes the payout destination (payment.id), replacing an id entered by hand.
 */
export async function refreshPaymentAccount({ deps, tenantId, actor }: Ctx & { actor?: AuditActor }): Promise<TPaymentAccount> {
  await liveTenant(deps, tenantId);
  const account = await repo.findPaymentAccount(deps.db, tenantId, deps.payments.name);
  if (account) {
    const status = await asking(deps, 'read connected account', () => deps.payments.connectedAccountStatus({ accountId: account.accountId }));
    await deps.db.transaction(async (tx) => {
      await repo.updatePaymentAccountStatus(tx, { tenantId, provider: deps.payments.name, accountId: account.accountId, ...status });
      if (status.payoutsEnabled) {
        const before = await repo.findPaymentSettings(tx, tenantId);
        if (!before) await createDefaultPaymentSettings(tx, tenantId);
        await repo.setPayoutDestination(tx, tenantId, account.accountId);
        // Issue 25: the payout destination changed (the account the gateway now pays out).
        if (before?.paymentRef !== account.accountId) {
          await recordAudit(tx, {
            actor: actor ?? SYSTEM_ACTOR,
            tenantId,
            action: 'payment_settings.changed',
            target: { type: 'payment_settings', id: tenantId },
            before: { paymentRef: before?.paymentRef ?? null },
            after: { paymentRef: account.accountId },
          });
        }
      }
    });
  }
  return view(deps, tenantId);
}
