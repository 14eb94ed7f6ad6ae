import { isEventPublic, M, templateVersionLabel, type TEventPage, type TEventPageDraft } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { SiteCtx, TenantCtx } from '../../platform/auth/context.js';
import { AppError, notFound } from '../../platform/errors.js';
import * as events from '../events/repository.js';
import * as templates from '../templates/repository.js';
import * as repo from './repository.js';
import { sanitizePageCss, sanitizePageHtml } from './sanitize.js';

// Event pages built from site templates (issue 10, beyond the spec). The organiser starts a draft
// from a template, edits it in GrapesJS (autosaved), and publishes: the draft is sanitised
// (sanitize.ts) into a new numbered version that goes live; older versions stay to roll back to.

async function assertEvent(deps: Deps, tenantId: string, eventId: string) {
  if (!(await events.findEvent(deps.db, tenantId, eventId))) throw notFound();
}

/**
 * Writes the draft while the event is kept (events/repository keepEvent): a delete of the event
 * under way finishes first and this answers 404, instead of the page's foreign key failing as a 500.
 */
async function writeDraft(deps: Deps, values: Parameters<typeof repo.upsertDraft>[1]) {
  await deps.db.transaction(async (tx) => {
    if (!(await events.keepEvent(tx, values.tenantId, values.eventId))) throw notFound();
    await repo.upsertDraft(tx, values);
  });
}

async function toPage(deps: Deps, tenantId: string, eventId: string): Promise<TEventPage> {
  const row = await repo.findPage(deps.db, tenantId, eventId);
  const versions = await repo.listVersions(deps.db, tenantId, eventId);
  return {
    templateId: row?.templateId ?? null,
    templateVersion: row?.templateVersion ? templateVersionLabel(row.templateVersion) : null,
    draft: row ? { project: row.draftProject, html: row.draftHtml, css: row.draftCss } : null,
    draftSavedAt: row?.draftSavedAt.toISOString() ?? null,
    liveVersion: row?.liveVersion ?? null,
    versions: versions.map((v) => ({ version: v.version, publishedAt: v.publishedAt.toISOString() })),
  };
}

export async function getEventPage({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }) {
  await assertEvent(deps, ctx.tenantId, eventId);
  return toPage(deps, ctx.tenantId, eventId);
}

/** Starts (or restarts) the draft from a template's newest version; what is published stays live. */
export async function startEventPage({ deps, ctx, eventId, templateId }: { deps: Deps; ctx: TenantCtx; eventId: string; templateId: string }) {
  await assertEvent(deps, ctx.tenantId, eventId);
  const template = await templates.findTemplate(deps.db, templateId);
  const files = template && template.currentVersion > 0 ? await templates.findVersion(deps.db, templateId, template.currentVersion) : undefined;
  if (!template || !files) throw new AppError('VALIDATION', M.eventPageNoTemplate, { templateId: M.eventPageNoTemplate });
  await writeDraft(deps, {
    tenantId: ctx.tenantId,
    eventId,
    templateId,
    templateVersion: files.version,
    draftProject: files.project,
    draftHtml: files.html,
    draftCss: files.css,
    draftSavedAt: new Date(),
  });
  return toPage(deps, ctx.tenantId, eventId);
}

/** The editor's autosave (writeDraft answers 404 for an event that is not there). */
export async function saveEventPageDraft({ deps, ctx, eventId, draft }: { deps: Deps; ctx: TenantCtx; eventId: string; draft: TEventPageDraft }) {
  const current = await repo.findPage(deps.db, ctx.tenantId, eventId);
  const savedAt = new Date();
  await writeDraft(deps, {
    tenantId: ctx.tenantId,
    eventId,
    templateId: current?.templateId ?? null,
    templateVersion: current?.templateVersion ?? null,
    draftProject: draft.project,
    draftHtml: draft.html,
    draftCss: draft.css,
    draftSavedAt: savedAt,
  });
  return { draftSavedAt: savedAt.toISOString() };
}

/** Publishes the draft, sanitised, as the next version; the previous one is kept for rollback. */
export async function publishEventPage({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }) {
  await assertEvent(deps, ctx.tenantId, eventId);
  await deps.db.transaction(async (tx) => {
    const page = await repo.findPage(tx, ctx.tenantId, eventId, true);
    if (!page) throw new AppError('CONFLICT', M.eventPageNoDraft);
    const [latest] = await repo.listVersions(tx, ctx.tenantId, eventId);
    const version = (latest?.version ?? 0) + 1;
    await repo.insertVersion(tx, {
      tenantId: ctx.tenantId,
      eventId,
      version,
      html: sanitizePageHtml(page.draftHtml),
      css: sanitizePageCss(page.draftCss),
      project: page.draftProject,
    });
    await repo.setLive(tx, ctx.tenantId, eventId, version);
  });
  return toPage(deps, ctx.tenantId, eventId);
}

/** Puts an earlier published version back live. */
export async function rollbackEventPage({ deps, ctx, eventId, version }: { deps: Deps; ctx: TenantCtx; eventId: string; version: number }) {
  await assertEvent(deps, ctx.tenantId, eventId);
  if (!(await repo.findVersion(deps.db, ctx.tenantId, eventId, version))) throw new AppError('VALIDATION', M.eventPageVersionUnknown, { version: M.eventPageVersionUnknown });
  await repo.setLive(deps.db, ctx.tenantId, eventId, version);
  return toPage(deps, ctx.tenantId, eventId);
}

/** Takes the page offline: the event home is the default one again; every version is kept. */
export async function unpublishEventPage({ deps, ctx, eventId }: { deps: Deps; ctx: TenantCtx; eventId: string }) {
  await assertEvent(deps, ctx.tenantId, eventId);
  await repo.setLive(deps.db, ctx.tenantId, eventId, null);
  return toPage(deps, ctx.tenantId, eventId);
}

/** The live page of a public event on this host, or null (no page: the default event home shows). */
export async function getPublishedEventPage({ deps, site, eventName }: { deps: Deps; site: SiteCtx; eventName: string }) {
  const event = await events.findEventByUrlName(deps.db, site.tenant.id, eventName);
  if (!event || !isEventPublic(event)) return null;
  const page = await repo.findPage(deps.db, site.tenant.id, event.id);
  if (!page?.liveVersion) return null;
  const live = await repo.findVersion(deps.db, site.tenant.id, event.id, page.liveVersion);
  return live ? { version: live.version, html: live.html, css: live.css } : null;
}

/** Event pages' CSP: no script but the app's own, no frames, no plugins, no base or form tricks. */
export const EVENT_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data: https:",
  "connect-src 'self'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self' https://checkout.stripe.com",
  "frame-ancestors 'none'",
].join('; ');

/**
 * /{eventName}/ with a published page: the web app's shell with the page already in it, so it shows
 * before any script runs; the app then mounts the same page with the live ticket menu where the
 * template marks it. null when the event has no live page (the caller serves today's default).
 */
type PublishedPage = { version: number; html: string; css: string };
const publishedCache = new Map<string, { at: number; page: Promise<PublishedPage | null> }>();

/**
 * The published page of an event, as the event home needs it on every request: kept per node for
 * PUBLIC_SNAPSHOT_MS like the public event snapshot (a publish shows within that time on every node).
 */
export function publishedPageFor({ deps, site, eventName }: { deps: Deps; site: SiteCtx; eventName: string }): Promise<PublishedPage | null> {
  const ttl = deps.config.publicSnapshotMs;
  if (ttl <= 0) return getPublishedEventPage({ deps, site, eventName });
  const key = `${site.tenant.id}\n${eventName.toLowerCase()}`;
  const hit = publishedCache.get(key);
  if (hit && Date.now() - hit.at < ttl) return hit.page;
  const page = getPublishedEventPage({ deps, site, eventName }).catch((err: unknown) => {
    publishedCache.delete(key);
    throw err;
  });
  if (publishedCache.size > 10_000) publishedCache.clear();
  publishedCache.set(key, { at: Date.now(), page });
  return page;
}

/**
 * The event home with the organiser's published page in it (issue 10): the sanitised markup in the
 * app's root (the live ticket menu mounts where the template marks it) and its CSS in the head.
 */
export function withPublishedPage(document: string, page: PublishedPage): string {
  return document
    .replace('</head>', () => `<style data-event-page>${page.css.replace(/<\/style/gi, '<\\/style')}</style></head>`)
    .replace('<div id="root"></div>', () => `<div id="root"><div class="marquee-event-page" data-event-page-version="${page.version}">${page.html}</div></div>`);
}
