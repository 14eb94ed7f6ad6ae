import './site.css';
import type { TSiteContext } from '@marquee/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { SiteContextProvider } from '../../shared/site-context';
import { siteRoutes } from './routes';

/**
 * The attendee site's entry (loaded by main.tsx on a tenant host for /{eventName}/...). No Mantine
 * and no console code: its first load is budgeted at 150 KB gzipped (bench/first-load.ts).
 */
export function renderSite(opts: { root: Root; client: QueryClient; context: TSiteContext }) {
  const router = createBrowserRouter(siteRoutes);
  opts.root.render(
    <StrictMode>
      <QueryClientProvider client={opts.client}>
        <SiteContextProvider value={opts.context}>
          <RouterProvider router={router} />
        </SiteContextProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}
