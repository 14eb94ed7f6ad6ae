import { useSiteContext } from './site-context';

/** The tenant whose console this host serves (the tenant routes only mount on a tenant's host). */
export function useTenantId(): string {
  const context = useSiteContext();
  if (!context.tenant) throw new Error('The tenant console needs a tenant host');
  return context.tenant.id;
}

/** The attendee site's address of an event: http://{tenant host}/{urlName}/. */
export function publicEventUrl(urlName: string): string {
  return `${window.location.origin}/${urlName}/`;
}
