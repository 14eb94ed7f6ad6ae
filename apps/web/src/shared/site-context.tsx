import { createContext, useContext, type ReactNode } from 'react';
import type { TSiteContext } from '@marquee/core';

// What this host serves (spec: reports-payouts-checkout §2 two modes): read once at start-up
// from GET /api/site/context and shared with every screen.
const SiteContextValue = createContext<TSiteContext | null>(null);

export function SiteContextProvider({ value, children }: { value: TSiteContext; children: ReactNode }) {
  return <SiteContextValue.Provider value={value}>{children}</SiteContextValue.Provider>;
}

export function useSiteContext(): TSiteContext {
  const value = useContext(SiteContextValue);
  if (!value) throw new Error('useSiteContext outside SiteContextProvider');
  return value;
}
