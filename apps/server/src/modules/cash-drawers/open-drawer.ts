import { randomUUID } from 'node:crypto';
import { M, type TCashDrawerDetail } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { DomainError } from '../../platform/errors.js';
import { getDrawer } from './read-drawers.js';
import * as repo from './repository.js';

/**
 * Opens the caller's cash drawer for a shift with the float counted into it. One open drawer per
 * person and tenant: a second (or two taps at once) is refused with DRAWER_ALREADY_OPEN by the
 * database's partial unique index, so nothing is written twice.
 */
export async function openDrawer({ deps, ctx, openingFloat }: { deps: Deps; ctx: TenantCtx; openingFloat: number }): Promise<TCashDrawerDetail> {
  const id = randomUUID();
  const inserted = await deps.db.transaction((tx) =>
    repo.insertDrawer(tx, {
      tenantId: ctx.tenantId,
      id,
      userId: ctx.user.id,
      staffName: `${ctx.user.firstName} ${ctx.user.lastName}`.trim(),
      staffEmail: ctx.user.email,
      openingFloat,
    }),
  );
  if (!inserted) throw new DomainError('DRAWER_ALREADY_OPEN', M.drawerAlreadyOpen);
  return getDrawer({ deps, ctx, drawerId: id });
}
