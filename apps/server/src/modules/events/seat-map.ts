import { M, SEATMAP_MAX_BYTES, type TEvent } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { sniffContentType, type SniffedType } from '../../platform/content-type.js';
import { AppError, notFound } from '../../platform/errors.js';
import { findOrThrow, toEvent } from './event-view.js';
import * as repo from './repository.js';
import { assertWritable } from './writable.js';

// The event's seat map: one PNG, JPEG or GIF, served by the attendee site.

const SEATMAP_EXT: Partial<Record<SniffedType, 'png' | 'jpg' | 'gif'>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif' };

/** A PNG, JPEG or GIF judged by its bytes, at most 5 MB; replaces any earlier seat map. */
export async function uploadSeatMap({
  deps,
  ctx,
  eventId,
  bytes,
  truncated,
}: {
  deps: Deps;
  ctx: TenantCtx;
  eventId: string;
  bytes: Buffer;
  truncated: boolean;
}): Promise<TEvent> {
  const current = await findOrThrow(deps.db, ctx.tenantId, eventId);
  assertWritable(current);
  if (truncated || bytes.length > SEATMAP_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', M.seatmapSize);
  const type = sniffContentType(bytes);
  const ext = type ? SEATMAP_EXT[type] : undefined;
  if (!type || !ext) throw new AppError('UNSUPPORTED_MEDIA_TYPE', M.seatmapType);
  const key = `tenants/${ctx.tenantId}/events/${eventId}/seatmap.${ext}`;
  await deps.storage.put(key, bytes, type);
  const row = await repo.updateEvent(deps.db, ctx.tenantId, eventId, { seatmapKey: key });
  if (!row) throw notFound();
  if (current.seatmapKey && current.seatmapKey !== key) await deps.storage.delete(current.seatmapKey);
  return toEvent(row);
}

export async function deleteSeatMap({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }): Promise<TEvent> {
  const current = await findOrThrow(deps.db, ctx.tenantId, eventId);
  assertWritable(current);
  const row = await repo.updateEvent(deps.db, ctx.tenantId, eventId, { seatmapKey: null });
  if (!row) throw notFound();
  if (current.seatmapKey) await deps.storage.delete(current.seatmapKey);
  return toEvent(row);
}
