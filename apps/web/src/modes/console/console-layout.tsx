import { Outlet } from 'react-router';
import { useSiteContext } from '../../shared/site-context';
import { isTenantWideMember } from '../../shared/access';
import { hasPlatformRole, useSession } from '../../ui/session';
import type { ConsoleArea } from './console-area';
import { AccountShell, ConsoleShell } from './console-shell';
import { FullPageLoader } from './full-page-loader';
import { NoConsoleAccess } from './no-console-access';
import { NoPageAccess } from '../../ui/no-page-access';
import { RedirectToLogin } from './redirect-to-login';
import { useDocumentTitle, useRouteHandle } from './route-handle';

/**
 * Every page behind sign-in. Members get the console with its navigation; a signed-in person
 * without access still reaches their own profile and password pages, and a notice elsewhere.
 */
export function ConsoleLayout({ area }: { area: ConsoleArea }) {
  const context = useSiteContext();
  const { session, isLoading } = useSession();
  const handle = useRouteHandle();
  useDocumentTitle(handle.title);

  if (isLoading) return <FullPageLoader />;
  if (!session) return <RedirectToLogin />;

  if (area.hasAccess(session.memberships, context)) {
    const allowed =
      (!handle.platformRoles || hasPlatformRole(session.memberships, handle.platformRoles)) &&
      (!handle.tenantWide || isTenantWideMember(session.memberships, context.tenant?.id));
    if (allowed && handle.fullScreen) return <Outlet />;
    return (
      <ConsoleShell area={area} session={session}>
        {allowed ? <Outlet /> : <NoPageAccess />}
      </ConsoleShell>
    );
  }
  const place = area.key === 'platform' ? 'platform console' : `${context.tenant?.name ?? 'organiser'} console`;
  return (
    <AccountShell session={session} subtitle={area.subtitle(context)}>
      {handle.consoleOnly ? <NoConsoleAccess session={session} area={area.key} place={place} /> : <Outlet />}
    </AccountShell>
  );
}
