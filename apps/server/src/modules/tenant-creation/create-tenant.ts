import { randomUUID } from 'node:crypto';
import { M, type TTenant, type ZCreateTenantRequest } from '@marquee/core';
import type { z } from 'zod';
import type { Tx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import { actorOf as auditActorOf, recordAudit, type AuditActor } from '../../platform/audit.js';
import type { AuthUser } from '../../platform/auth/context.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { DomainError } from '../../platform/errors.js';
import { sendInvite } from '../accounts/send-invite.js';
import { copyGlobalFeesToTenant } from '../fees/service.js';
import { createDefaultPaymentSettings } from '../payment-settings/service.js';
import * as repo from '../tenants/repository.js';
import { assertUrlFree, PROVISION_SITE_JOB, sitePrefix, toTenant } from '../tenants/service.js';

// A new tenant with everything it starts with. This use case sits above the tenant and its
// settings (fees, payment settings), which import the tenants module: it lives in its own module
// so that none of them imports another that imports it back.

/**
 * spec: accounts §7 Add tenant, as ONE transaction: the tenant, its payment/payout settings (§9
 * defaults), a copy of every global surcharge rule (tracking the default) and its ticket settings;
 * the site is then provisioned by a job enqueued in the same transaction. Any failure leaves
 * nothing behind. Pass `tx` to create it inside a caller's transaction (the demo seed does).
 */
export async function createTenant(opts: {
  deps: Pick<Deps, 'db' | 'jobs' | 'config' | 'storage' | 'mailer'>;
  input: z.output<typeof ZCreateTenantRequest>;
  tx?: Tx;
  /** Who creates it: the tenant's e-mail is invited as its admin in their name. The demo seed adds its admin itself. */
  inviter?: Pick<AuthUser, 'id' | 'email' | 'firstName'>;
  /** Who creates it, for the audit log; the system (the demo seed) otherwise. */
  actor?: AuditActor;
}): Promise<TTenant> {
  const { deps, input, tx: outer, inviter } = opts;
  const id = randomUUID();
  const { details } = input;
  const work = async (tx: Tx) => {
    await assertUrlFree(tx, details.url);
    await repo.insertTenant(tx, {
      id,
      name: details.name,
      email: details.email,
      phone: details.phone,
      url: details.url,
      status: 'pending',
      inviteTemplateSubject: details.inviteTemplateSubject,
      inviteTemplateBody: details.inviteTemplateBody,
      // Tenants are created by operators (and the demo seed): the template is the platform's words.
      inviteTemplateBy: 'platform',
    });
    await createDefaultPaymentSettings(tx, id);
    await copyGlobalFeesToTenant(tx, id);
    await repo.insertSite(tx, id, sitePrefix(id));
    await deps.jobs.enqueue(tx, PROVISION_SITE_JOB, { tenantId: id }, { dedupeKey: `${PROVISION_SITE_JOB}:${id}:1` });
    // issue 15: a new tenant gets someone who can sign in. The invite (from the tenant's template)
    // and its mail (outbox) are written in this transaction, so there is no tenant without its invite.
    if (inviter) await sendInvite({ deps, tx, inviter, actor: opts.actor, email: details.email, target: { kind: 'tenant', tenantId: id, roles: ['tenant_admin'] } });
    await recordAudit(tx, { actor: auditActorOf({ actor: opts.actor }), tenantId: id, action: 'tenant.created', target: { type: 'tenant', id }, after: { name: details.name, url: details.url, email: details.email } });
  };
  try {
    if (outer) await work(outer);
    else await deps.db.transaction(work);
  } catch (err) {
    // Two requests raced for the same URL past the check: the unique index decides.
    if (isUniqueViolation(err)) throw new DomainError('TENANT_URL_TAKEN', M.tenantUrlTaken);
    throw err;
  }
  const row = await repo.findTenant(outer ?? deps.db, id);
  return toTenant(deps, row!);
}
