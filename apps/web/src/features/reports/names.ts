import { useQuery } from '@tanstack/react-query';
import { useSiteContext } from '../../shared/site-context';
import { useTenant } from '../tenants/queries';
import { reportsApi } from './api';

/**
 * The tenant's name, URL label and site host for report titles: the host's tenant, or the path's on
 * the platform. Titles name the tenant by its name; the host is the "tenant URL" shown beside it
 * (issue 21.19: the bare label read as a name).
 */
export function useTenantNames(tenantId: string) {
  const context = useSiteContext();
  const platform = context.mode === 'platform';
  const tenant = useTenant(platform ? tenantId : undefined);
  if (!platform) return { name: context.tenant?.name ?? '', url: context.tenant?.url ?? '', host: window.location.host };
  const url = tenant.data?.details.url ?? '';
  return { name: tenant.data?.details.name ?? '', url, host: url ? tenantHost(url) : '' };
}

/** A tenant's site host, from the platform console: {url}.{this host}. */
export const tenantHost = (url: string) => `${url}.${window.location.host}`;

/** spec §7: GET /tenants/{tenant_id}/events/{event_id}, the event basics (its name for titles). */
export function useEventName(tenantId: string, eventId: string) {
  const event = useQuery({
    queryKey: ['reports', 'event-basics', tenantId, eventId],
    queryFn: ({ signal }) => reportsApi.eventBasics(tenantId, eventId, signal),
    enabled: !!tenantId && !!eventId,
    staleTime: 60_000,
  });
  return { name: event.data?.details.name ?? '', missing: event.isError };
}
