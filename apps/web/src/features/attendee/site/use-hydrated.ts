import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while React hydrates server-rendered HTML (and on the server), true after: what the
 * browser alone knows (the stored cart, a pending order) is read only then, so the first render
 * matches the server's HTML.
 */
export const useHydrated = () =>
  useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
