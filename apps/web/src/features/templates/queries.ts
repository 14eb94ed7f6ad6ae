import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { templatesApi, type TemplateListQuery } from './api';

export const templateKeys = {
  all: ['site-templates'] as const,
  list: (q: TemplateListQuery) => ['site-templates', 'list', q] as const,
  versions: (id: string) => ['site-templates', 'versions', id] as const,
};

/** spec: accounts §2 screen 18: the Sitebuilder Templates list. */
export function useTemplates(q: TemplateListQuery) {
  return useQuery({ queryKey: templateKeys.list(q), queryFn: ({ signal }) => templatesApi.list(q, signal), placeholderData: keepPreviousData });
}

/** Every accepted zip of a template, newest first. */
export function useTemplateVersions(id: string | null) {
  return useQuery({ queryKey: templateKeys.versions(id ?? ''), queryFn: ({ signal }) => templatesApi.versions(id!, signal), enabled: !!id });
}
