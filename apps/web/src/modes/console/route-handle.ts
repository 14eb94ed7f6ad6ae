import type { PlatformRole } from '@marquee/core';
import { useEffect } from 'react';
import { useMatches } from 'react-router';

/** What a route table says about a page (react-router `handle`). */
export type RouteHandle = {
  /** Shown in the browser tab: "{title} · Marquee". */
  title?: string;
  /** Only console members see it; a signed-in person without access gets a polite notice. */
  consoleOnly?: boolean;
  /**
   * Only these platform roles may open it (the same set as the server's guard on its data); anyone
   * else in the console reads that they have no access. Unset: every member of the console.
   */
  platformRoles?: readonly PlatformRole[];
  /** A tenant-console page for the tenant's own members (admin or staff), not for event-only staff. */
  tenantWide?: boolean;
  /** A page that is the whole screen (the door's check-in page): no console navigation around it. */
  fullScreen?: boolean;
};

export function useRouteHandle(): RouteHandle {
  const matches = useMatches();
  const merged: RouteHandle = {};
  for (const m of matches) Object.assign(merged, (m.handle as RouteHandle | undefined) ?? {});
  return merged;
}

export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    document.title = title ? `${title} · Marquee` : 'Marquee';
  }, [title]);
}
