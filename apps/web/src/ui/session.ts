import { hasAnyRole, type PlatformRole, type TMembership, type TSession } from '@marquee/core';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { setCsrfToken } from './api-client';
import { fetchSession, markSignedIn, sessionQueryKey } from './session-api';

export { fetchSession, sessionQueryKey, sessionWasLost } from './session-api';

/** Stores a session answer (login, change-password) so every screen sees it at once. */
export function storeSession(client: QueryClient, session: TSession | null) {
  setCsrfToken(session?.csrfToken ?? null);
  if (session) markSignedIn();
  client.setQueryData(sessionQueryKey, session);
}

export function useSession() {
  const query = useQuery({ queryKey: sessionQueryKey, queryFn: fetchSession, staleTime: 60_000, retry: false });
  const session = query.data ?? null;
  return {
    session,
    user: session?.user ?? null,
    memberships: session?.memberships ?? [],
    isLoading: query.isPending,
    refetch: query.refetch,
  };
}

export const isPlatformMember = (memberships: TMembership[]) => memberships.some((m) => m.kind === 'platform');

/** The platform roles a person holds (none outside the platform). */
export const platformRolesOf = (memberships: TMembership[]) =>
  memberships.filter((m) => m.kind === 'platform').flatMap((m) => m.roles) as PlatformRole[];

/** Whether the person passes a platform guard allowing `allowed` (packages/core roles.ts, as the server checks it). */
export const hasPlatformRole = (memberships: TMembership[], allowed: readonly PlatformRole[]) => hasAnyRole(platformRolesOf(memberships), allowed);

/** Memberships that open a tenant console (tenant-wide or event staff), one per tenant. */
export function tenantConsoles(memberships: TMembership[]): { tenantId: string; tenantName: string; tenantUrl: string }[] {
  const seen = new Map<string, { tenantId: string; tenantName: string; tenantUrl: string }>();
  for (const m of memberships) {
    if (m.kind === 'platform' || !m.tenantId || !m.tenantUrl) continue;
    if (!seen.has(m.tenantId)) seen.set(m.tenantId, { tenantId: m.tenantId, tenantName: m.tenantName ?? m.tenantUrl, tenantUrl: m.tenantUrl });
  }
  return [...seen.values()];
}

export function displayName(user: { firstName: string; lastName: string; email: string }): string {
  const name = `${user.firstName} ${user.lastName}`.trim();
  return name || user.email;
}

export function initials(user: { firstName: string; lastName: string; email: string }): string {
  const a = user.firstName.trim()[0] ?? user.email[0] ?? '?';
  const b = user.lastName.trim()[0] ?? '';
  return `${a}${b}`.toUpperCase();
}
