import { type TSectionSpec, type TVenueLayout, type TVenueLayoutList, type ZVenueLayoutInput } from '@marquee/core';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { notFound } from '../../platform/errors.js';
import { SM } from '@marquee/core';
import * as repo from './repository.js';

// Issue 27.3: the tenant's venue layouts (the editor saves a whole plan: its sections' grids and
// the seats the house marks). An event copies a layout when it takes it (event-seating.ts), so a
// layout edited later changes no event's seats.

type LayoutInput = z.output<typeof ZVenueLayoutInput>;

function sectionSpecOf(s: repo.SectionRow): TSectionSpec {
  return {
    name: s.name,
    category: s.category,
    rows: s.rows,
    seatsPerRow: s.seatsPerRow,
    rowLabels: s.rowLabels as TSectionSpec['rowLabels'],
    firstRow: s.firstRow,
    numbering: s.numbering as TSectionSpec['numbering'],
    aisleAfter: s.aisleAfter ? s.aisleAfter.split(',').map(Number) : [],
    curve: s.curve / 10,
    angle: s.angle,
    x: s.x,
    y: s.y,
  };
}

export function toWire(layout: repo.LayoutRow, sections: repo.SectionRow[], flags: repo.FlagRow[]): TVenueLayout {
  const specs = sections.map(sectionSpecOf);
  return {
    id: layout.id,
    details: {
      name: layout.name,
      sections: specs,
      blocked: flags.filter((f) => f.status === 'blocked').map((f) => f.seatKey),
      kept: flags.filter((f) => f.status === 'kept').map((f) => f.seatKey),
      accessible: flags.filter((f) => f.accessible).map((f) => f.seatKey),
      companion: flags.filter((f) => f.companion).map((f) => f.seatKey),
      seatCount: specs.reduce((n, s) => n + s.rows * s.seatsPerRow, 0),
      createdAt: layout.createdAt.toISOString(),
      updatedAt: layout.updatedAt.toISOString(),
    },
  };
}

/** The layout with its sections' specs and flags, as the event's copy needs it; null: not this tenant's. */
export async function loadLayout(deps: Deps, tenantId: string, layoutId: string) {
  const layout = await repo.findLayout(deps.db, tenantId, layoutId);
  if (!layout) return null;
  const [sections, flags] = await Promise.all([repo.sectionsOf(deps.db, tenantId, [layoutId]), repo.flagsOf(deps.db, tenantId, [layoutId])]);
  return { layout, sections, flags, wire: toWire(layout, sections, flags) };
}

export async function listLayouts({ deps, ctx }: { deps: Deps; ctx: TenantCtx }): Promise<TVenueLayoutList> {
  const layouts = await repo.listLayouts(deps.db, ctx.tenantId);
  const ids = layouts.map((l) => l.id);
  const [sections, flags] = await Promise.all([repo.sectionsOf(deps.db, ctx.tenantId, ids), repo.flagsOf(deps.db, ctx.tenantId, ids)]);
  const result = layouts.map((l) =>
    toWire(
      l,
      sections.filter((s) => s.layoutId === l.id),
      flags.filter((f) => f.layoutId === l.id),
    ),
  );
  return { result, count: result.length, cursor: null };
}

export async function getLayout({ deps, ctx, layoutId }: { deps: Deps; ctx: TenantCtx; layoutId: string }): Promise<TVenueLayout> {
  const found = await loadLayout(deps, ctx.tenantId, layoutId);
  if (!found) throw notFound(SM.layoutNotFound);
  return found.wire;
}

function contentOf(input: LayoutInput) {
  const sections = input.sections.map((s, position) => ({
    position,
    name: s.name,
    category: s.category,
    rows: s.rows,
    seatsPerRow: s.seatsPerRow,
    rowLabels: s.rowLabels,
    firstRow: s.firstRow,
    numbering: s.numbering,
    aisleAfter: [...new Set(s.aisleAfter)].sort((a, b) => a - b).join(','),
    curve: Math.round(s.curve * 10),
    angle: s.angle,
    x: s.x,
    y: s.y,
  }));
  const flags = new Map<string, { seatKey: string; status: 'open' | 'blocked' | 'kept'; accessible: boolean; companion: boolean }>();
  const flag = (key: string) => flags.get(key) ?? flags.set(key, { seatKey: key, status: 'open', accessible: false, companion: false }).get(key)!;
  for (const k of input.kept) flag(k).status = 'kept';
  for (const k of input.blocked) flag(k).status = 'blocked';
  for (const k of input.accessible) flag(k).accessible = true;
  for (const k of input.companion) flag(k).companion = true;
  return { sections, flags: [...flags.values()] };
}

export async function createLayout({ deps, ctx, input }: { deps: Deps; ctx: TenantCtx; input: LayoutInput }): Promise<TVenueLayout> {
  const id = randomUUID();
  const { sections, flags } = contentOf(input);
  await deps.db.transaction(async (tx) => {
    await repo.insertLayout(tx, { tenantId: ctx.tenantId, id, name: input.name });
    await repo.replaceLayoutContent(tx, ctx.tenantId, id, sections, flags);
  });
  return getLayout({ deps, ctx, layoutId: id });
}

export async function updateLayout({ deps, ctx, layoutId, input }: { deps: Deps; ctx: TenantCtx; layoutId: string; input: LayoutInput }): Promise<TVenueLayout> {
  const { sections, flags } = contentOf(input);
  await deps.db.transaction(async (tx) => {
    if (!(await repo.findLayout(tx, ctx.tenantId, layoutId, true))) throw notFound(SM.layoutNotFound);
    await repo.renameLayout(tx, ctx.tenantId, layoutId, input.name);
    await repo.replaceLayoutContent(tx, ctx.tenantId, layoutId, sections, flags);
  });
  return getLayout({ deps, ctx, layoutId });
}

export async function deleteLayout({ deps, ctx, layoutId }: { deps: Deps; ctx: TenantCtx; layoutId: string }): Promise<{ success: true }> {
  const deleted = await deps.db.transaction((tx) => repo.deleteLayout(tx, ctx.tenantId, layoutId));
  if (!deleted) throw notFound(SM.layoutNotFound);
  return { success: true };
}
