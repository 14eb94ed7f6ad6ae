import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useSiteContext } from '../../shared/site-context';
import { isConsolePath } from '../../shared/mode';
import { FullPageLoader } from './full-page-loader';
import { NotFoundPage } from './not-found';

/**
 * An unknown console path. On a tenant's host a path that is not a console path belongs to the
 * attendee site, which is another bundle: load it with a full page load.
 */
export function ConsoleNotFound() {
  const { pathname } = useLocation();
  const context = useSiteContext();
  const isSite = context.mode === 'tenant' && !isConsolePath(pathname);
  useEffect(() => {
    if (isSite) window.location.assign(window.location.href);
  }, [isSite, pathname]);
  return isSite ? <FullPageLoader /> : <NotFoundPage />;
}
