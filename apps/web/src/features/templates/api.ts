import {
  encodeFilters,
  type ListResponse,
  type TSiteTemplate,
  type TSiteTemplateFields,
  type TSiteTemplateSaved,
  type TSiteTemplateVersion,
} from '@marquee/core';
import { api, ApiError } from '../../ui/api-client';

// spec: accounts-admin-fees §7 templates: create or update answers {id, postUrl}; the zip is PUT
// to postUrl as application/zip; thumbnail upload takes {mimeType}; GET /site/templates/{id}/{version}
// answers result[0].fetchUrl.

export type TemplateListQuery = { cursor?: string; limit: number; search?: string };

const base = '/api/site/templates';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

/** PUT a file's bytes to a signed postUrl; a refusal becomes an ApiError with the server's message. */
async function putFile(postUrl: string, file: Blob, contentType: string): Promise<{ success: true; version: string | null }> {
  let res: Response;
  try {
    res = await fetch(postUrl, { method: 'PUT', body: file, headers: { 'content-type': contentType }, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'NETWORK', 'We could not reach Marquee. Check your connection and try again.');
  }
  const body = (await res.json().catch(() => null)) as { error?: { code: string; message: string; fields?: Record<string, string> } } | null;
  if (!res.ok) throw new ApiError(res.status, body?.error?.code ?? 'INTERNAL', body?.error?.message ?? 'The upload failed.', body?.error?.fields ?? {});
  return body as { success: true; version: string | null };
}

export const templatesApi = {
  list: ({ cursor, limit, search }: TemplateListQuery, signal?: AbortSignal) =>
    api.get<ListResponse<TSiteTemplate>>(base, { cursor, limit, filters: search ? encodeFilters([{ field: 'details.name', op: '=', value: search }]) : undefined }, signal),
  create: (fields: TSiteTemplateFields) => api.post<TSiteTemplateSaved>(base, { siteTemplateRequest: fields }),
  update: (templateId: string, fields: TSiteTemplateFields) => api.put<TSiteTemplateSaved>(base, { siteTemplateRequest: { ...fields, templateId } }),
  remove: (templateId: string) => api.delete<{ success: true }>(one(templateId)),
  versions: (templateId: string, signal?: AbortSignal) => api.get<{ result: TSiteTemplateVersion[] }>(`${one(templateId)}/versions`, undefined, signal),
  fetchUrl: async (templateId: string, version: string) => (await api.get<{ result: Array<{ fetchUrl: string }> }>(`${one(templateId)}/${encodeURIComponent(version)}`)).result[0]!.fetchUrl,
  uploadZip: (postUrl: string, zip: File) => putFile(postUrl, zip, 'application/zip'),
  uploadThumbnail: async (templateId: string, image: File) => {
    const { postUrl } = await api.post<{ postUrl: string }>(`${one(templateId)}/thumbnail`, { mimeType: image.type });
    return putFile(postUrl, image, image.type);
  },
};
