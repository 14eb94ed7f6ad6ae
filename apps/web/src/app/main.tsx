import type { TPublicEvent, TSiteContext } from '@marquee/core';
import { createRoot } from 'react-dom/client';
import { api, errorMessage, isApiError } from '../ui/api-client';
import { isConsolePath, modeFor } from './mode';
import { createQueryClient } from './query-client';

// Each mode is its own chunk with its own providers and styles: the consoles bring Mantine, the
// attendee site (first load budget 150 KB gzipped, bench/first-load.ts) brings only its own code.
const loadConsole = () => import('./console-app');
const loadSite = () => import('../modes/site/site-app');

type Boot = { context: TSiteContext; event?: TPublicEvent };

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
  const root = createRoot(document.getElementById('root')!);
  const client = createQueryClient();
  // An event path can only be the attendee site: fetch its chunk while the host is being asked.
  const sitePreload = isConsolePath(window.location.pathname) ? null : loadSite();
  sitePreload?.catch(() => undefined);
  const boot = readBoot();
  let context: TSiteContext;
  try {
    context = boot?.context ?? (await api.get<TSiteContext>('/api/site/context'));
  } catch (e) {
    const unknownHost = isApiError(e) && e.status === 404;
    (await loadConsole()).renderStartupProblem({ root, client, unknownHost, message: errorMessage(e) });
    return;
  }
  client.setQueryData(['site', 'context'], context);
  // Same key and freshness as useEvent: the home page and ticket menu render from it without a request.
  if (boot?.event) client.setQueryData(['site', 'event', boot.event.details.urlName.toLowerCase()], boot.event);
  const mode = modeFor(context, window.location.pathname);
  document.documentElement.dataset.mode = mode;
  if (mode === 'site') (await (sitePreload ?? loadSite())).renderSite({ root, client, context });
  else await (await loadConsole()).renderConsole({ root, client, context, mode });
}

void start();
