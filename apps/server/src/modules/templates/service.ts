import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  M,
  TEMPLATE_THUMBNAIL_MAX_BYTES,
  TEMPLATE_ZIP_MAX_BYTES,
  templateVersionLabel,
  type TSiteTemplate,
  type TSiteTemplateSaved,
  type ZSiteTemplateFields,
} from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import { IMAGE_TYPES, sniffContentType } from '../../platform/content-type.js';
import { AppError, notFound } from '../../platform/errors.js';
import { compileList } from '../../platform/list-query.js';
import * as repo from './repository.js';
import { checkTemplateZip, ZipRefused, type CheckedTemplate } from './zip-check.js';

// Site templates (spec: accounts-admin-fees §3, §4 template edit, §5, §7; issue 10). Create or
// update answers {id, postUrl}; the zip PUT to postUrl is checked (zip-check.ts) before anything is
// stored, and each accepted zip becomes the next version, the older ones kept and downloadable.

type Fields = z.output<typeof ZSiteTemplateFields>;
type UploadKind = 'zip' | 'thumbnail';

const UPLOAD_TTL_SECONDS = 15 * 60;
const FETCH_TTL_SECONDS = 15 * 60;

function toTemplate(deps: Deps, row: repo.TemplateRow): TSiteTemplate {
  return {
    id: row.id,
    details: {
      name: row.name,
      description: row.description,
      version: templateVersionLabel(row.currentVersion),
      thumbnail: row.thumbnailKey ? deps.storage.downloadUrl(row.thumbnailKey, 24 * 3600) : null,
      mime: row.thumbnailMime,
      dateCreated: row.createdAt.toISOString(),
      dateModified: row.updatedAt.toISOString(),
    },
  };
}

const signUpload = (deps: Deps, id: string, exp: number) => createHmac('sha256', deps.config.secret).update(`template-upload\n${id}\n${exp}`).digest('base64url');

async function grantUpload(deps: Deps, templateId: string, kind: UploadKind): Promise<string> {
  const id = randomUUID();
  const exp = Math.floor(Date.now() / 1000) + UPLOAD_TTL_SECONDS;
  await repo.insertUpload(deps.db, { id, templateId, kind, expiresAt: new Date(exp * 1000) });
  return `/api/site/template-uploads/${id}?exp=${exp}&sig=${signUpload(deps, id, exp)}`;
}

export async function listTemplates({ deps, query, withZipOnly = false }: { deps: Deps; query: unknown; withZipOnly?: boolean }) {
  const q = compileList(repo.TEMPLATE_LIST, query);
  const { rows, total } = await repo.listTemplates(deps.db, q, { withZipOnly });
  return q.page(rows, total, ({ row }) => toTemplate(deps, row));
}

export async function getTemplate({ deps, templateId }: { deps: Deps; templateId: string }): Promise<TSiteTemplate> {
  const row = await repo.findTemplate(deps.db, templateId);
  if (!row) throw notFound();
  return toTemplate(deps, row);
}

/** spec §7: create answers the id and the zip's postUrl; the version starts when the zip is accepted. */
export async function createTemplate({ deps, input }: { deps: Deps; input: Fields }): Promise<TSiteTemplateSaved> {
  const id = randomUUID();
  await repo.insertTemplate(deps.db, { id, name: input.name, description: input.description });
  return { id, postUrl: await grantUpload(deps, id, 'zip') };
}

/** spec §4: editing keeps the version; only a new zip PUT to the answered postUrl raises it. */
export async function updateTemplate({ deps, templateId, input }: { deps: Deps; templateId: string; input: Fields }): Promise<TSiteTemplateSaved> {
  if (!(await repo.updateTemplate(deps.db, templateId, { name: input.name, description: input.description }))) throw notFound();
  return { id: templateId, postUrl: await grantUpload(deps, templateId, 'zip') };
}

/** spec §7 thumbnail upload takes {mimeType}: an image type only; the bytes are judged again on arrival. */
export async function grantThumbnailUpload({ deps, templateId, mimeType }: { deps: Deps; templateId: string; mimeType: string }) {
  if (!(await repo.findTemplate(deps.db, templateId))) throw notFound();
  if (!(IMAGE_TYPES as string[]).includes(mimeType.toLowerCase())) throw new AppError('UNSUPPORTED_MEDIA_TYPE', M.templateImageType, { mimeType: M.templateImageType });
  return { postUrl: await grantUpload(deps, templateId, 'thumbnail') };
}

export async function listVersions({ deps, templateId }: { deps: Deps; templateId: string }) {
  if (!(await repo.findTemplate(deps.db, templateId))) throw notFound();
  const rows = await repo.listVersions(deps.db, templateId);
  return { result: rows.map((r) => ({ version: templateVersionLabel(r.version)!, dateCreated: r.createdAt.toISOString(), size: r.zipBytes })) };
}

/** 'v2' or '2'. */
export function parseVersion(text: string): number | null {
  const m = /^v?([1-9][0-9]{0,8})$/i.exec(text);
  return m ? Number(m[1]) : null;
}

/** spec §7: GET /site/templates/{id}/{version} returns result[0].fetchUrl. */
export async function fetchVersion({ deps, templateId, version }: { deps: Deps; templateId: string; version: string }) {
  const n = parseVersion(version);
  const row = n === null ? undefined : await repo.findVersion(deps.db, templateId, n);
  if (!row) throw notFound();
  return { result: [{ version: templateVersionLabel(row.version)!, fetchUrl: deps.storage.downloadUrl(row.zipKey, FETCH_TTL_SECONDS) }] };
}

/** spec §7: delete by id. Event pages built from it keep their own copy (their template link is cleared). */
export async function deleteTemplate({ deps, templateId }: { deps: Deps; templateId: string }) {
  const row = await repo.findTemplate(deps.db, templateId);
  if (!row) throw notFound();
  const versions = await repo.listVersions(deps.db, templateId);
  if (!(await repo.deleteTemplate(deps.db, templateId))) throw notFound();
  for (const key of [...versions.map((v) => v.zipKey), row.thumbnailKey]) if (key) await deps.storage.delete(key);
  return { success: true as const };
}

function verifyUploadSignature(deps: Deps, id: string, query: { exp?: string; sig?: string }): boolean {
  const exp = Number(query.exp);
  if (!query.sig || !Number.isFinite(exp) || exp < Date.now() / 1000) return false;
  const a = Buffer.from(query.sig);
  const b = Buffer.from(signUpload(deps, id, exp));
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Checks a PUT to a postUrl before a byte of its body is read: 404 for a bad signature, 413 for a declared size past the limit. */
export function precheckUpload({ deps, uploadId, query, contentLength }: { deps: Deps; uploadId: string; query: { exp?: string; sig?: string }; contentLength: number | null }) {
  if (!verifyUploadSignature(deps, uploadId, query)) throw notFound();
  if (contentLength !== null && contentLength > TEMPLATE_ZIP_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', M.templateZipTooLarge);
}

async function saveBody(body: Readable, file: string, maxBytes: number, tooLarge: string): Promise<number> {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, next) {
      seen += chunk.length;
      if (seen > maxBytes) next(new AppError('PAYLOAD_TOO_LARGE', tooLarge));
      else next(null, chunk);
    },
  });
  await pipeline(body, counter, createWriteStream(file));
  return seen;
}

async function headOf(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(16);
    const { bytesRead } = await handle.read(buf, 0, 16, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The PUT to a postUrl: the link is taken (single use), the body streamed to a scratch file within
 * the limit, checked, then stored; a refused file leaves nothing behind.
 */
export async function receiveUpload({ deps, uploadId, query, body }: { deps: Deps; uploadId: string; query: { exp?: string; sig?: string }; body: Readable }) {
  if (!verifyUploadSignature(deps, uploadId, query)) throw notFound();
  const grant = await repo.claimUpload(deps.db, uploadId);
  if (!grant) throw new AppError('GONE', M.templateUploadExpired);
  const scratch = path.join(deps.config.dataDir, 'tmp');
  await mkdir(scratch, { recursive: true });
  const file = path.join(scratch, `upload-${randomUUID()}`);
  try {
    if (grant.kind === 'thumbnail') {
      const size = await saveBody(body, file, TEMPLATE_THUMBNAIL_MAX_BYTES, M.templateImageSize);
      const type = sniffContentType(await headOf(file));
      if (size === 0 || !type || !IMAGE_TYPES.includes(type)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', M.templateImageType);
      const key = `templates/${grant.templateId}/thumbnail-${randomUUID()}.${type.slice('image/'.length)}`;
      await deps.storage.putStream(key, createReadStream(file), type);
      const old = await deps.db.transaction(async (tx) => {
        const row = await repo.findTemplate(tx, grant.templateId, 'update');
        if (row) await repo.updateTemplate(tx, grant.templateId, { thumbnailKey: key, thumbnailMime: type });
        return row;
      });
      if (!old) {
        await deps.storage.delete(key);
        throw notFound();
      }
      if (old.thumbnailKey) await deps.storage.delete(old.thumbnailKey);
      return { success: true as const, version: null };
    }
    const size = await saveBody(body, file, TEMPLATE_ZIP_MAX_BYTES, M.templateZipTooLarge);
    let files: CheckedTemplate;
    try {
      files = await checkTemplateZip(file);
    } catch (err) {
      if (err instanceof ZipRefused) {
        const code = err.problem === 'too-big' ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST';
        throw new AppError(code, err.message, { zip: err.message });
      }
      throw err;
    }
    const key = `templates/${grant.templateId}/zip-${randomUUID()}.zip`;
    await deps.storage.putStream(key, createReadStream(file), 'application/zip');
    const version = await deps.db.transaction(async (tx) => {
      const row = await repo.findTemplate(tx, grant.templateId, 'update');
      if (!row) return null;
      const next = row.currentVersion + 1;
      await repo.insertVersion(tx, { templateId: row.id, version: next, zipKey: key, zipBytes: size, html: files.html, css: files.css, project: files.project });
      await repo.updateTemplate(tx, row.id, { currentVersion: next });
      return next;
    });
    if (version === null) {
      await deps.storage.delete(key);
      throw notFound();
    }
    return { success: true as const, version: templateVersionLabel(version) };
  } finally {
    await rm(file, { force: true });
  }
}
