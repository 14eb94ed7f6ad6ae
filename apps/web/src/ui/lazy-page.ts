import type { ComponentType } from 'react';

/**
 * A react-router `lazy` for a page module with a named export, so route tables stay one line a
 * page: `{ path: 'outbox', lazy: lazyPage(() => import('./outbox-page'), 'OutboxPage') }`.
 */
export function lazyPage<M extends Record<string, unknown>, K extends keyof M & string>(load: () => Promise<M>, name: K) {
  return async () => ({ Component: (await load())[name] as ComponentType });
}
