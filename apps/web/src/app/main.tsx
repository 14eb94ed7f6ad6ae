import type { TPublicEvent, TSiteContext } from '@marquee/core';
import { createRoot } from 'react-dom/client';
import { api, errorMessage, isNotFound } from '../ui/api-client';
import { isConsolePath, modeFor, type SeedCache } from '../shared/mode';

// Each mode is its own chunk with its own providers and styles: the consoles bring Mantine, the
// attendee site (first load budget 150 KB gzipped, bench/first-load.ts) brings only its own code.
const loadConsole = () => import('./console-app');
const loadSite = () => import('../modes/site/site-app');

/**
 * `site`: the server rendered an attendee-site page here (the tenant's public /events page is on a
 * console path); `page`: an event's published page (issue 10), or null when it has none.
 */
type Boot = { context: TSiteContext; event?: TPublicEvent; site?: boolean; page?: { version: number; html: string; css: string } | null; events?: unknown };

/** What the server rendered into an event page (<script id="mq-boot">): the host's context and the event, so the first paint asks nothing. */
function readBoot(): Boot | null {
  const el = document.getElementById('mq-boot');
  if (!el?.textContent) return null;
  try {
    return JSON.parse(el.textContent) as Boot;
  } catch {
    return null;
  }
}

async function start() {
  const container = document.getElementById('root')!;
  const boot = readBoot();
  // An event path can only be the attendee site: fetch its chunk while the host is being asked.
  const sitePreload = isConsolePath(window.location.pathname) && !boot?.site ? null : loadSite();
  sitePreload?.catch(() => undefined);
  let context: TSiteContext;
  try {
    context = boot?.context ?? (await api.get<TSiteContext>('/api/site/context'));
  } catch (e) {
    // The host names no tenant (the platform answers /api/site/context with NOT_FOUND).
    const unknownHost = isNotFound(e);
    (await loadConsole()).renderStartupProblem({ root: createRoot(container), unknownHost, message: errorMessage(e) });
    return;
  }
  const seed: SeedCache = (client) => {
    client.setQueryData(['site', 'context'], context);
    // Same key and freshness as useEvent: the home page and ticket menu render from it without a request.
    if (boot?.event) {
      const key = boot.event.details.urlName.toLowerCase();
      client.setQueryData(['site', 'event', key], boot.event);
      // The event home's published page (or that it has none), as usePublishedPage keeps it.
      if (boot.page !== undefined) client.setQueryData(['site', 'page', key], boot.page);
    }
    if (boot?.events) client.setQueryData(['site', 'events'], boot.events);
  };
  const mode = boot?.site ? 'site' : modeFor(context, window.location.pathname);
  document.documentElement.dataset.mode = mode;
  if (mode === 'site') await (await (sitePreload ?? loadSite())).startSite({ container, seed, context });
  else await (await loadConsole()).renderConsole({ root: createRoot(container), seed, context, mode });
}

void start();
