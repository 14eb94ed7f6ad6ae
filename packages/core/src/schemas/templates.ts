import { z } from 'zod';
import { M } from '../messages.js';
import { zListResponse } from './list.js';

// spec: accounts-admin-fees §3 Site template, §4 template edit, §5 Template, §7 templates, §9.

/** spec §9: template thumbnail max 20 MB. */
export const TEMPLATE_THUMBNAIL_MAX_BYTES = 20 * 1024 * 1024;
/** Our limit on the zip itself (the spec names none). */
export const TEMPLATE_ZIP_MAX_BYTES = 50 * 1024 * 1024;
/** spec §5: the zip must contain these files. */
export const TEMPLATE_REQUIRED_FILES = ['index.html', 'index.css', 'project.json', 'config.json', 'metadata.json'] as const;
/** spec §9: template toasts show 4 s. */
export const TEMPLATE_TOAST_MS = 4000;

/** spec §7 siteTemplateRequest{templateId (update only), name, version, description}. */
export const ZSiteTemplateFields = z.object({
  name: z.string({ error: M.templateName }).trim().min(1, M.templateName).max(200, M.invalidValue),
  description: z.string({ error: M.templateDescription }).trim().min(1, M.templateDescription).max(2000, M.invalidValue),
  /** The version the console last showed; the server decides the number (spec §4: a new zip raises it by one). */
  version: z.string().max(20).optional(),
});
export type TSiteTemplateFields = z.input<typeof ZSiteTemplateFields>;

export const ZCreateSiteTemplateRequest = z.object({ siteTemplateRequest: ZSiteTemplateFields });
export const ZUpdateSiteTemplateRequest = z.object({ siteTemplateRequest: ZSiteTemplateFields.extend({ templateId: z.uuid() }) });
export type TCreateSiteTemplateRequest = z.input<typeof ZCreateSiteTemplateRequest>;
export type TUpdateSiteTemplateRequest = z.input<typeof ZUpdateSiteTemplateRequest>;

/** spec §7: create or update answers the id and where to PUT the zip. */
export const ZSiteTemplateSaved = z.object({ id: z.string(), postUrl: z.string() });
export type TSiteTemplateSaved = z.infer<typeof ZSiteTemplateSaved>;

/** spec §7: thumbnail upload takes {mimeType}. */
export const ZThumbnailRequest = z.object({
  mimeType: z.string({ error: M.templateImageType }).regex(/^image\/[a-z0-9.+-]+$/i, M.templateImageType),
});
export const ZThumbnailGrant = z.object({ postUrl: z.string() });

/** v1, v2, …; null before the first zip is accepted. */
export const templateVersionLabel = (n: number): string | null => (n > 0 ? `v${n}` : null);

export const ZSiteTemplate = z.object({
  id: z.string(),
  details: z.object({
    name: z.string(),
    description: z.string(),
    version: z.string().nullable(),
    thumbnail: z.string().nullable(),
    mime: z.string().nullable(),
    dateCreated: z.string(),
    dateModified: z.string(),
  }),
});
export type TSiteTemplate = z.infer<typeof ZSiteTemplate>;
export const ZSiteTemplateList = zListResponse(ZSiteTemplate);
export type TSiteTemplateList = z.infer<typeof ZSiteTemplateList>;

export const ZSiteTemplateVersion = z.object({ version: z.string(), dateCreated: z.string(), size: z.number().int() });
export const ZSiteTemplateVersions = z.object({ result: z.array(ZSiteTemplateVersion) });
export type TSiteTemplateVersion = z.infer<typeof ZSiteTemplateVersion>;

/** spec §7: GET /site/templates/{id}/{version} returns result[0].fetchUrl. */
export const ZSiteTemplateFetch = z.object({ result: z.array(z.object({ version: z.string(), fetchUrl: z.string() })) });

// ---- event pages (issue 10: pages built from the templates in GrapesJS) --------------------------

export const EVENT_PAGE_MAX_CHARS = 2_000_000;

export const ZEventPageDraft = z.object({
  project: z.string().max(EVENT_PAGE_MAX_CHARS, M.invalidValue),
  html: z.string().max(EVENT_PAGE_MAX_CHARS, M.invalidValue),
  css: z.string().max(EVENT_PAGE_MAX_CHARS, M.invalidValue),
});
export type TEventPageDraft = z.infer<typeof ZEventPageDraft>;

export const ZEventPageStart = z.object({ templateId: z.uuid({ error: M.eventPageNoTemplate }) });

export const ZEventPage = z.object({
  templateId: z.string().nullable(),
  templateVersion: z.string().nullable(),
  draft: ZEventPageDraft.nullable(),
  draftSavedAt: z.string().nullable(),
  liveVersion: z.number().int().nullable(),
  versions: z.array(z.object({ version: z.number().int(), publishedAt: z.string() })),
});
export type TEventPage = z.infer<typeof ZEventPage>;

export const ZEventPageRollback = z.object({ version: z.number().int().min(1) });
