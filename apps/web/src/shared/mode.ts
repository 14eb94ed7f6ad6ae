import { isReservedPath, type TSiteContext } from '@marquee/core';

export type Mode = 'platform' | 'tenant' | 'site';

/** Puts what the page already holds into a mode's query cache (react-query in the consoles, features/attendee/site/site-query.tsx on the site). */
export type SeedCache = (client: { setQueryData: (key: readonly unknown[], data: unknown) => unknown }) => void;

/**
 * The platform host is the platform console. A tenant's host is its console for '/' and the
 * reserved first path segments (login, events, reports...), and the attendee site for anything
 * else (/{eventName}/...).
 */
export function modeFor(context: TSiteContext, pathname: string): Mode {
  if (context.mode === 'platform') return 'platform';
  return isConsolePath(pathname) ? 'tenant' : 'site';
}

export function firstSegment(pathname: string): string {
  return decodeURIComponent(pathname.split('/').filter(Boolean)[0] ?? '');
}

export function isConsolePath(pathname: string): boolean {
  const first = firstSegment(pathname);
  // Policies (refund policy, terms) are read by attendees on the event site, signed in or not.
  if (first === 'policies') return false;
  // A buyer's private order page (issue 15) is the attendee site's, opened from a mail.
  if (first === 'orders') return false;
  // So is the unsubscribe link of messages to attendees (issue 15).
  if (first === 'unsubscribe') return false;
  // And a transferred ticket's new holder's page (issue 24).
  if (first === 'tickets') return false;
  // And the ticket widget inside an organiser's page (issue 28).
  if (first === 'embed') return false;
  return first === '' || isReservedPath(first);
}
