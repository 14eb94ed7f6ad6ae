import type { TSiteTemplateFields } from '@marquee/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { templatesApi } from './api';
import { templateKeys } from './queries';

export type SaveTemplateInput = { templateId: string | null; fields: TSiteTemplateFields; zip: File | null; thumbnail: File | null };
export type SaveTemplateStep = 'details' | 'thumbnail' | 'zip';

/** Thrown when the details were saved but a file was refused: the template exists from then on. */
export class TemplateFileRefused extends Error {
  constructor(
    readonly templateId: string,
    readonly step: SaveTemplateStep,
    readonly cause: unknown,
  ) {
    super('file refused');
  }
}

/**
 * spec §7: create or update (answers id and postUrl), then the thumbnail through {mimeType}, then
 * the zip PUT to postUrl. A new zip raises the version by one (§4).
 */
async function saveTemplate({ templateId, fields, zip, thumbnail }: SaveTemplateInput) {
  const saved = templateId ? await templatesApi.update(templateId, fields) : await templatesApi.create(fields);
  try {
    if (thumbnail) await templatesApi.uploadThumbnail(saved.id, thumbnail);
  } catch (e) {
    throw new TemplateFileRefused(saved.id, 'thumbnail', e);
  }
  try {
    if (zip) await templatesApi.uploadZip(saved.postUrl, zip);
  } catch (e) {
    throw new TemplateFileRefused(saved.id, 'zip', e);
  }
  return saved;
}

export function useSaveTemplate() {
  const client = useQueryClient();
  return useMutation({ mutationFn: saveTemplate, onSettled: () => client.invalidateQueries({ queryKey: templateKeys.all }) });
}

export function useDeleteTemplate() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (id: string) => templatesApi.remove(id), onSuccess: () => client.invalidateQueries({ queryKey: templateKeys.all }) });
}
