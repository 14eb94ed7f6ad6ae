// Keeps the check-in page available without a network (issue 11): public/checkin-sw.js, scoped to
// the events pages, serves the page, its assets and the session from its cache when offline. The
// assets this load already fetched are put in that cache here, since the worker was not yet
// watching when they arrived.

export const CHECKIN_CACHE = 'marquee-checkin-v1';

export function registerCheckinWorker() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  void navigator.serviceWorker
    .register('/checkin-sw.js', { scope: '/events/' })
    .then(async () => {
      const cache = await caches.open(CHECKIN_CACHE);
      const sameOrigin = performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((url) => {
          const u = new URL(url);
          return u.origin === location.origin && (u.pathname.startsWith('/assets/') || u.pathname === '/api/auth/session' || u.pathname.startsWith('/api/site/'));
        });
      await Promise.all([location.pathname, ...sameOrigin].map((url) => cache.add(url).catch(() => undefined)));
    })
    .catch(() => undefined);
}
