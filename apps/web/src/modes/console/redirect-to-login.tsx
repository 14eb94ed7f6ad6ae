import { M } from '@marquee/core';
import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { notify } from '../../ui/notify';
import { sessionWasLost } from '../../ui/session';

/**
 * spec: accounts-admin-fees §8 Dashboard: 'Invalid user session' / 'Please login first', when a
 * session was lost (issue 15: not on a first visit, where nobody had signed in).
 */
export function RedirectToLogin() {
  const location = useLocation();
  useEffect(() => {
    if (sessionWasLost()) notify.warning(M.invalidSessionTitle, M.invalidSessionBody, { id: 'invalid-session' });
  }, []);
  const here = `${location.pathname}${location.search}`;
  const to = here === '/' ? '/login' : `/login?${new URLSearchParams({ next: here })}`;
  return <Navigate to={to} replace />;
}
