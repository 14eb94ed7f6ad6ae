import { randomUUID } from 'node:crypto';
import { M, type CharityStatus, type TCharity, type TTenantCharity, type ZCharityFields } from '@marquee/core';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { compileList } from '../../platform/list-query.js';
import * as repo from './repository.js';

// Charities (spec: accounts-admin-fees §3, §4, §5, §7; docs/decisions.md "Charities"). The platform
// owns them; a tenant enables the active ones it collects donations for; an event's charity is
// always an active charity its tenant enabled. Whatever breaks that (disabling it for the tenant,
// making it inactive, deleting it) takes it off the events concerned in the same transaction.
// Orders are never touched: a placed order keeps its donation.

type CharityFields = z.output<typeof ZCharityFields>;

const detailsOf = (row: repo.CharityRow) => ({
  name: row.name,
  status: row.status as CharityStatus,
  street: row.street,
  city: row.city,
  state: row.state,
  zip_code: row.zipCode,
});

function toCharity(row: repo.CharityRow): TCharity {
  return { id: row.id, details: { ...detailsOf(row), dateCreated: row.createdAt.toISOString(), dateModified: row.updatedAt.toISOString() } };
}

const toColumns = (f: CharityFields) => ({ name: f.name, status: f.status, street: f.street, city: f.city, state: f.state, zipCode: f.zip_code });

export async function listCharities({ deps, query }: { deps: Deps; query: unknown }) {
  const q = compileList(repo.CHARITY_LIST, query);
  const { rows, total } = await repo.listCharities(deps.db, q);
  return q.page(rows, total, ({ row }) => toCharity(row));
}

export async function getCharity({ deps, charityId }: { deps: Deps; charityId: string }): Promise<TCharity> {
  const row = await repo.findCharity(deps.db, charityId);
  if (!row) throw notFound();
  return toCharity(row);
}

/** spec §7: create with charityRequest returns the new id. */
export async function createCharity({ deps, input }: { deps: Deps; input: CharityFields }): Promise<{ id: string }> {
  const id = randomUUID();
  await repo.insertCharity(deps.db, { id, ...toColumns(input) });
  return { id };
}

/** spec §7: update with the same fields returns success. Making it inactive takes it off every event. */
export async function updateCharity({ deps, charityId, input }: { deps: Deps; charityId: string; input: CharityFields }) {
  await deps.db.transaction(async (tx) => {
    // The row lock waits for event writes that share-locked this charity (isEnabledForTenant).
    const current = await repo.findCharity(tx, charityId, 'update');
    if (!current) throw notFound();
    await repo.updateCharity(tx, charityId, toColumns(input));
    if (input.status === 'inactive') await repo.clearEventsCharity(tx, charityId, null);
  });
  return { success: true as const };
}

/** spec §7: delete by id. Tenants' enablements go with it (cascade); events lose it first. */
export async function deleteCharity({ deps, charityId }: { deps: Deps; charityId: string }) {
  await deps.db.transaction(async (tx) => {
    if (!(await repo.findCharity(tx, charityId, 'update'))) throw notFound();
    await repo.clearEventsCharity(tx, charityId, null);
    await repo.deleteCharity(tx, charityId);
  });
  return { success: true as const };
}

/** spec §7 assign: the tenant (checked by the guard) enables an active charity. Repeating it is a no-op. */
export async function assignCharity({ deps, ctx, charityId }: { deps: Deps; ctx: TenantCtx; charityId: string }) {
  await deps.db.transaction(async (tx) => {
    const charity = await repo.findCharity(tx, charityId, 'share');
    if (!charity) throw notFound();
    if (charity.status !== 'active') throw conflict(M.charityInactive);
    await repo.insertTenantCharity(tx, ctx.tenantId, charityId);
  });
  return { success: true as const };
}

/**
 * spec §7 unassign, §8: disabling removes the charity from the dropdown on the event's ticket
 * settings page, so the tenant's events that use it lose it. Repeating it is a no-op.
 */
export async function unassignCharity({ deps, ctx, charityId }: { deps: Deps; ctx: TenantCtx; charityId: string }) {
  await deps.db.transaction(async (tx) => {
    if (!(await repo.findCharity(tx, charityId))) throw notFound();
    if (!(await repo.lockTenantCharity(tx, ctx.tenantId, charityId))) return;
    await repo.clearEventsCharity(tx, charityId, ctx.tenantId);
    await repo.deleteTenantCharity(tx, ctx.tenantId, charityId);
  });
  return { success: true as const };
}

/** spec §4: the tenant console's list: active charities only, each with whether the tenant enabled it. */
export async function listTenantCharities({ deps, ctx, query }: { deps: Deps; ctx: TenantCtx; query: unknown }) {
  const q = compileList(repo.TENANT_CHARITY_LIST, query);
  const { rows, total } = await repo.listTenantCharities(deps.db, ctx.tenantId, q);
  return q.page(rows, total, ({ row, enabled }): TTenantCharity => ({ id: row.id, details: { ...detailsOf(row), enabled } }));
}

/**
 * An event may name only an active charity its tenant enabled. Call it inside the transaction that
 * writes the event: the charity stays as checked until that transaction ends.
 */
export async function assertEventCharity(tx: DbOrTx, tenantId: string, charityId: string | null | undefined): Promise<void> {
  if (!charityId) return;
  if (!UUID_RE.test(charityId) || !(await repo.isEnabledForTenant(tx, tenantId, charityId, true))) {
    throw new AppError('VALIDATION', M.eventCharityInvalid, { 'details.charityId': M.eventCharityInvalid });
  }
}
