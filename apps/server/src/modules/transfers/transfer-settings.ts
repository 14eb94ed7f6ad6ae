import type { TTransferSettings } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { UUID_RE } from '../../platform/auth/guard.js';
import { notFound } from '../../platform/errors.js';
import { findEvent } from '../events/repository.js';
import { writableEvent } from '../events/writable.js';
import * as repo from './repository.js';

// Issue 24: the organiser allows or forbids transfers per event (default: allowed; docs/decisions.md).

export async function getTransferSettings(opts: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TTransferSettings> {
  const { deps, ctx, eventId } = opts;
  if (!UUID_RE.test(eventId) || !(await findEvent(deps.db, ctx.tenantId, eventId))) throw notFound();
  return { allowed: await repo.findSettings(deps.db, ctx.tenantId, eventId) };
}

export async function setTransferSettings(opts: { deps: Deps; ctx: TenantCtx; eventId: string; input: TTransferSettings }): Promise<TTransferSettings> {
  const { deps, ctx, eventId } = opts;
  if (!UUID_RE.test(eventId)) throw notFound();
  // 404 for another tenant's event, 409 EVENT_CANCELLED for a cancelled one.
  await writableEvent(deps.db, ctx.tenantId, eventId);
  await repo.saveSettings(deps.db, { tenantId: ctx.tenantId, eventId, allowed: opts.input.allowed, userId: ctx.user.id });
  return { allowed: opts.input.allowed };
}
