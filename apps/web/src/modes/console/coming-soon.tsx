import type { RouteObject } from 'react-router';
import type { RouteHandle } from './route-handle';

/** A route for a page a later issue builds; replace it with the real page's `lazy`. */
export function comingSoon(path: string | undefined, title: string, description: string): RouteObject {
  const handle: RouteHandle = { title, consoleOnly: true };
  const page = {
    handle,
    lazy: async () => {
      const { NotYetAvailable: Page } = await import('./not-yet-available');
      return { Component: () => <Page title={title} description={description} /> };
    },
  };
  return path === undefined ? { index: true, ...page } : { path, ...page };
}
