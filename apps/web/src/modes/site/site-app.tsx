import './site.css';
import { brandShades, type TSiteContext } from '@marquee/core';
import { Component, StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Toaster } from '../../features/attendee/event-site/kit/toast';
import { SiteContextProvider } from '../../shared/site-context';
import type { SeedCache } from '../../shared/mode';
import { isApiError } from '../../ui/api-client';
import { sessionQueryKey } from '../../ui/session-api';
import { publishedEventPage, siteRoutes } from './routes';
import { SiteFallback } from './site-fallback';
import { QueryClient, QueryClientProvider } from '../../features/attendee/site/site-query';
import { preloadRoute, SiteRouter, type SiteLocation } from '../../features/attendee/site/site-router';
import { embedBasename, embedSession, isForeignParent, plainFrameReturnPath, startEmbedResize } from '../../features/attendee/site/embed';

class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? <SiteFallback kind="error" /> : this.props.children;
  }
}

/** Marks the document once the app is live (hydrated or rendered): browser tests wait for it before clicking. */
function LiveMarker() {
  useEffect(() => {
    document.documentElement.dataset.live = 'true';
  }, []);
  return null;
}

/** The site's data cache; a 401 of an ended session anywhere means nobody is signed in any more (as in the consoles). */
export function createSiteClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    onError: (error) => {
      if (isApiError(error) && error.domainCode === 'NOT_SIGNED_IN') client.setQueryData(sessionQueryKey, null);
    },
  });
  return client;
}

/**
 * The attendee site: the same tree in the browser and on the server (modes/site/ssr-entry.tsx, with
 * a fixed `location`). No Mantine, no react-router and no console code: its first load is
 * budgeted at 100 KB gzipped (bench/first-load.ts).
 */
/**
 * Issue 28: the tenant's brand colour as the site's accent (and the widget's: the same pages). The
 * colour was checked on saving (#rrggbb, core checkBrandColor), so it is safe in a style sheet.
 */
export function brandStyle(color: string | null | undefined): string | null {
  if (!color || !/^#[0-9a-f]{6}$/i.test(color)) return null;
  const { brand, dark, soft } = brandShades(color);
  return `:root{--s-brand:${brand};--s-brand-dark:${dark};--s-brand-soft:${soft}}`;
}

export function SiteApp({ client, context, location, basename }: { client: QueryClient; context: TSiteContext; location?: SiteLocation; basename?: string }) {
  const brand = brandStyle(context.tenant?.brandColor);
  return (
    <StrictMode>
      {brand && <style data-brand="">{brand}</style>}
      <QueryClientProvider client={client}>
        <SiteContextProvider value={context}>
          <ErrorBoundary>
            <SiteRouter routes={siteRoutes} location={location} basename={basename} fallback={<SiteFallback kind="loading" />} />
            <Toaster />
            <LiveMarker />
          </ErrorBoundary>
        </SiteContextProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}

/**
 * Starts the attendee site in #root: hydrates what the server rendered there (data-ssr), once the
 * page's own code is loaded so the first render matches it; renders from scratch otherwise.
 */
export async function startSite(opts: { container: HTMLElement; seed: SeedCache; context: TSiteContext }) {
  const client = createSiteClient();
  opts.seed(client);
  // Issue 28: /embed/{eventName}/... is the ticket widget inside an organiser's page.
  const basename = embedBasename(window.location.pathname);
  if (basename) {
    document.documentElement.dataset.embed = 'true';
    if (isForeignParent()) {
      createRoot(opts.container).render(<SiteFallback kind="embed-refused" />);
      return;
    }
    // Back from paying in a plain <iframe>: open the order (or the checkout again) in place.
    const back = plainFrameReturnPath(window.location.pathname);
    if (back && `${window.location.pathname}${window.location.search}` !== back) window.history.replaceState(null, '', back);
    // What the snippet put in the first address (its page, for the return), read before any navigation.
    embedSession();
    startEmbedResize(opts.container);
  }
  const app = <SiteApp client={client} context={opts.context} basename={basename} />;
  if (opts.container.hasAttribute('data-ssr')) {
    await preloadRoute(siteRoutes, window.location.pathname);
    if (opts.container.querySelector('[data-testid="published-event-page"]')) await publishedEventPage.load();
    hydrateRoot(opts.container, app, {
      onRecoverableError: (error) => console.error('hydration:', error),
    });
  } else {
    createRoot(opts.container).render(app);
  }
}
