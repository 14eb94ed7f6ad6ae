import { COVER_MAX_BYTES, M, type TEvent } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { AppError, notFound } from '../../platform/errors.js';
import { deleteCoverCrops, makeCoverCrops, storeCoverCrops } from './cover-image.js';
import { findOrThrow, toEvent } from './event-view.js';
import * as repo from './repository.js';
import { assertWritable } from './writable.js';

// The event's cover image (issue 15).

/**
 * A JPEG, PNG or WebP judged by its bytes and decoded in full, at most COVER_MAX_BYTES; made into
 * the hero, social card and ticket crops (cover-image.ts). Replaces any earlier cover. The file is
 * read only once the event is known to be the caller's: another tenant's id is a 404 whatever was sent.
 */
export async function uploadCoverImage({
  deps,
  ctx,
  eventId,
  readFile,
}: {
  deps: Deps;
  ctx: TenantCtx;
  eventId: string;
  readFile: () => Promise<{ bytes: Buffer; truncated: boolean }>;
}): Promise<TEvent> {
  const current = await findOrThrow(deps.db, ctx.tenantId, eventId);
  assertWritable(current);
  const { bytes, truncated } = await readFile();
  if (truncated || bytes.length > COVER_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', M.coverSize);
  const crops = await makeCoverCrops(bytes);
  const coverImageId = await storeCoverCrops(deps.storage, { tenantId: ctx.tenantId, eventId, crops });
  const swapped = await swapCoverImage(deps, ctx.tenantId, eventId, coverImageId);
  if (!swapped) {
    await deleteCoverCrops(deps.storage, { tenantId: ctx.tenantId, eventId, coverImageId });
    throw notFound();
  }
  return toEvent(swapped);
}

/**
 * Points the event at another cover (or none) under its row lock, then deletes the crops it
 * replaced: of two uploads at once, neither leaves files behind.
 */
async function swapCoverImage(deps: Deps, tenantId: string, eventId: string, coverImageId: string | null) {
  const swapped = await deps.db.transaction(async (tx) => {
    const locked = await repo.findEvent(tx, tenantId, eventId, true);
    if (!locked) return null;
    const row = await repo.updateEvent(tx, tenantId, eventId, { coverImageId });
    return row ? { row, previous: locked.coverImageId } : null;
  });
  if (!swapped) return null;
  if (swapped.previous && swapped.previous !== coverImageId) await deleteCoverCrops(deps.storage, { tenantId, eventId, coverImageId: swapped.previous });
  return swapped.row;
}

export async function deleteCoverImage({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TEvent> {
  assertWritable(await findOrThrow(deps.db, ctx.tenantId, eventId));
  const row = await swapCoverImage(deps, ctx.tenantId, eventId, null);
  if (!row) throw notFound();
  return toEvent(row);
}
