// The check-in page's service worker (issue 11). Scope: /events/. It only answers for the check-in
// page, the built assets and the two boot calls (session, site context); everything else goes to
// the network untouched. Assets are content-hashed: cache first. The page and the boot calls:
// network first, the cached copy when the network is down.
const CACHE = 'marquee-checkin-v1';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

function isCheckinPage(url, request) {
  return request.mode === 'navigate' && /^\/events\/[^/]+\/check-in\/?$/.test(url.pathname);
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok) await cache.put(request, res.clone());
  return res;
}

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const res = await fetch(request);
    if (res.ok) await cache.put(key ?? request, res.clone());
    return res;
  } catch (err) {
    const hit = await cache.match(key ?? request);
    if (hit) return hit;
    throw err;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/assets/')) event.respondWith(cacheFirst(request));
  else if (isCheckinPage(url, request)) event.respondWith(networkFirst(request, url.pathname));
  else if (url.pathname === '/api/auth/session' || url.pathname.startsWith('/api/site/')) event.respondWith(networkFirst(request));
});
