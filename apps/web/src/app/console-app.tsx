import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import type { TSiteContext } from '@marquee/core';
import { StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router';
import { Providers } from './providers';
import { createQueryClient } from './query-client';
import type { SeedCache } from '../shared/mode';
import { SiteContextProvider } from '../shared/site-context';
import { StartupProblem } from './startup-problem';

// The consoles (platform and tenant) and the start-up problem page: everything that needs Mantine
// and its styles. main.tsx loads this chunk only for them, so the attendee site never pays for it.

async function routesFor(mode: 'platform' | 'tenant'): Promise<RouteObject[]> {
  switch (mode) {
    case 'platform':
      return (await import('../modes/platform/routes')).platformRoutes;
    case 'tenant':
      return (await import('../modes/tenant/routes')).tenantRoutes;
  }
}

export async function renderConsole(opts: { root: Root; seed: SeedCache; context: TSiteContext; mode: 'platform' | 'tenant' }) {
  const client = createQueryClient();
  opts.seed(client);
  const router = createBrowserRouter(await routesFor(opts.mode));
  opts.root.render(
    <StrictMode>
      <Providers client={client}>
        <SiteContextProvider value={opts.context}>
          <RouterProvider router={router} />
        </SiteContextProvider>
      </Providers>
    </StrictMode>,
  );
}

export function renderStartupProblem(opts: { root: Root; unknownHost: boolean; message: string }) {
  opts.root.render(
    <Providers client={createQueryClient()}>
      <StartupProblem unknownHost={opts.unknownHost} message={opts.message} />
    </Providers>,
  );
}
