import { M } from '@marquee/core';
import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { notify } from '../../ui/notify';
import { sessionWasLost } from '../../ui/session';

/**
 * spec: accounts-admin-fees §8 Dashboard: 'Invalid user session' / 'Please login first', when a
 * session was lost or a signed-out visitor opens a console page by its address; not when someone
 * simply opens the console's home to sign in (issue 15: a stale toast on first load). Signing in
 * closes it.
 */
export function RedirectToLogin() {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  useEffect(() => {
    if (sessionWasLost() || here !== '/') notify.warning(M.invalidSessionTitle, M.invalidSessionBody, { id: 'invalid-session' });
  }, [here]);
  const to = here === '/' ? '/login' : `/login?${new URLSearchParams({ next: here })}`;
  return <Navigate to={to} replace />;
}
