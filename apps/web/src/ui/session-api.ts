import type { TCurrentSession, TSession } from '@marquee/core';
import { api, domainCodeOf, setCsrfToken } from './api-client';

// The session's request, without react-query: the attendee site asks it through its own small cache
// (features/attendee/site/site-query.tsx), the consoles through react-query (session.ts).

export const sessionQueryKey = ['auth', 'session'] as const;

// Whether someone was signed in during this page's life: only then is a missing session a lost
// one worth a toast. A first visit (or the page after sign-out, a full load) just shows sign-in.
let signedInThisPage = false;
export const sessionWasLost = () => signedInThisPage;

/** The signed-in session, or null when nobody is signed in on this host. */
export async function fetchSession(): Promise<TSession | null> {
  try {
    const session = await api.get<TSession>('/api/auth/session');
    signedInThisPage = true;
    setCsrfToken(session.csrfToken);
    return session;
  } catch (e) {
    if (domainCodeOf(e) === 'NOT_SIGNED_IN') {
      setCsrfToken(null);
      return null;
    }
    throw e;
  }
}

/** A session stored without asking (sign-in, change of password) counts as signed in too. */
export function markSignedIn() {
  signedInThisPage = true;
}

/**
 * The same question for the attendee site: who is signed in, or null, answered 200 either way, so a
 * buyer who is not signed in sees no failed request in the browser's console.
 */
export async function fetchCurrentSession(): Promise<TSession | null> {
  const { session } = await api.get<TCurrentSession>('/api/auth/session/current');
  if (session) signedInThisPage = true;
  setCsrfToken(session?.csrfToken ?? null);
  return session;
}
