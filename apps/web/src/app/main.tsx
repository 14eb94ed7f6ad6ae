import type { TSiteContext } from '@marquee/core';
import { createRoot } from 'react-dom/client';
import { api, errorMessage, isApiError } from '../ui/api-client';
import { isConsolePath, modeFor } from './mode';
import { createQueryClient } from './query-client';

// Each mode is its own chunk with its own providers and styles: the consoles bring Mantine, the
// attendee site (first load budget 150 KB gzipped, bench/first-load.ts) brings only its own code.
const loadConsole = () => import('./console-app');
const loadSite = () => import('../modes/site/site-app');

async function start() {
  const root = createRoot(document.getElementById('root')!);
  const client = createQueryClient();
  // An event path can only be the attendee site: fetch its chunk while the host is being asked.
  const sitePreload = isConsolePath(window.location.pathname) ? null : loadSite();
  sitePreload?.catch(() => undefined);
  let context: TSiteContext;
  try {
    context = await api.get<TSiteContext>('/api/site/context');
  } catch (e) {
    const unknownHost = isApiError(e) && e.status === 404;
    (await loadConsole()).renderStartupProblem({ root, client, unknownHost, message: errorMessage(e) });
    return;
  }
  client.setQueryData(['site', 'context'], context);
  const mode = modeFor(context, window.location.pathname);
  document.documentElement.dataset.mode = mode;
  if (mode === 'site') (await (sitePreload ?? loadSite())).renderSite({ root, client, context });
  else await (await loadConsole()).renderConsole({ root, client, context, mode });
}

void start();
