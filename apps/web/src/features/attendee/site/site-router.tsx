import {
  createContext,
  Suspense,
  use,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type ComponentType,
  type MouseEvent,
  type ReactNode,
} from 'react';

// The attendee site's router: the few react-router calls its pages make (Link, Outlet, useParams,
// useMatch, useNavigate, useLocation, useSearchParams, Navigate), on the History API, and the same
// on the server (a fixed location). react-router's data router weighs about 27 KB gzipped, a
// quarter of the attendee site's first-load budget (issue 13, bench/first-load.ts); the consoles
// keep react-router. Navigation state is kept in history.state as react-router keeps it
// ({ usr, key, idx }), so a reload of the checkout sees what the cart's CONTINUE left.

export type SiteLocation = { pathname: string; search: string; hash: string; state: unknown; key: string };
type NavigateOptions = { replace?: boolean; state?: unknown };
type Navigate = (to: string | number, opts?: NavigateOptions) => void;

/** `basename`: a prefix every path of this router lives under ('' or '/embed', issue 28's embeddable pages). */
type RouterValue = { location: SiteLocation; navigate: Navigate; basename: string };
const RouterContext = createContext<RouterValue | null>(null);
type RouteValue = { params: Record<string, string>; outlet: ReactNode; outletContext: unknown };
const RouteContext = createContext<RouteValue>({ params: {}, outlet: null, outletContext: undefined });

/** A lazily loaded component: loaded once, then rendered at once (the server and the hydrating client load it before rendering). */
export type LazyPage<P = {}> = { load: () => Promise<ComponentType<P>>; loaded?: ComponentType<P>; promise?: Promise<ComponentType<P>> };

export function lazyPage<M extends Record<string, unknown>, K extends keyof M & string>(
  importer: () => Promise<M>,
  name: K,
): LazyPage<M[K] extends ComponentType<infer P> ? P : never> {
  type P = M[K] extends ComponentType<infer Q> ? Q : never;
  const page: LazyPage<P> = {
    load: () =>
      (page.promise ??= importer().then((m) => {
        page.loaded = m[name] as ComponentType<P>;
        return page.loaded;
      })),
  };
  return page;
}

/** Renders a lazy component with its props (suspends until its code is there, unless already loaded). */
export function Lazy<P extends object>({ of, ...props }: { of: LazyPage<P> } & P) {
  const C = of.loaded ?? use(of.load());
  return <C {...(props as unknown as P)} />;
}

/** A route of the site: a pattern such as '/:eventName/tickets' and what it shows. */
export type SiteRoute = { pattern: string; page: LazyPage | ComponentType; layout?: ComponentType };

const isLazy = (p: LazyPage | ComponentType): p is LazyPage => typeof p === 'object' && 'load' in p;

/** Matches `/a/:b/c` against a pathname: the params, or null. A trailing slash does not matter. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  if (want.at(-1) === '*') {
    if (have.length < want.length - 1) return null;
  } else if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w === '*') break;
    let h: string;
    try {
      h = decodeURIComponent(have[i]!);
    } catch {
      return null;
    }
    if (w.startsWith(':')) params[w.slice(1)] = h;
    else if (w !== h) return null;
  }
  return params;
}

export function findRoute(routes: readonly SiteRoute[], pathname: string) {
  for (const route of routes) {
    const params = matchPath(route.pattern, pathname);
    if (params) return { route, params };
  }
  return null;
}

/** Loads the page the pathname shows, so the first render (server, or hydration) has it. */
export async function preloadRoute(routes: readonly SiteRoute[], pathname: string): Promise<void> {
  const found = findRoute(routes, pathname);
  if (found && isLazy(found.route.page)) await found.route.page.load();
}

function Page({ page }: { page: LazyPage | ComponentType }) {
  if (!isLazy(page)) {
    const C = page;
    return <C />;
  }
  const C = page.loaded ?? use(page.load());
  return <C />;
}

/** The pathname without the router's basename ('/embed/gala/tickets' -> '/gala/tickets'). */
const withoutBase = (pathname: string, basename: string) => (basename && (pathname === basename || pathname.startsWith(`${basename}/`)) ? pathname.slice(basename.length) || '/' : pathname);
/** An app path under the router's basename ('/gala/cart' -> '/embed/gala/cart'); other addresses as they are. */
export const withBase = (to: string, basename: string) => (basename && to.startsWith('/') && !to.startsWith('//') ? `${basename}${to}` : to);

function locationOf(url: URL, state: unknown, basename = ''): SiteLocation {
  const s = state as { usr?: unknown; key?: string } | null;
  return { pathname: withoutBase(url.pathname, basename), search: url.search, hash: url.hash, state: s?.usr ?? null, key: s?.key ?? 'default' };
}

/** The routes, on the browser's history (client) or at a fixed location (server). */
export function SiteRouter({
  routes,
  location: fixed,
  fallback,
  basename = '',
}: {
  routes: readonly SiteRoute[];
  location?: SiteLocation;
  fallback: ReactNode;
  basename?: string;
}) {
  const [location, setLocation] = useState<SiteLocation>(() => fixed ?? locationOf(new URL(window.location.href), window.history.state, basename));

  useEffect(() => {
    if (fixed) return;
    const onPop = () => setLocation(locationOf(new URL(window.location.href), window.history.state, basename));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [fixed, basename]);

  const navigate = useCallback<Navigate>((to, opts = {}) => {
    if (typeof to === 'number') return window.history.go(to);
    const url = new URL(withBase(to, basename), window.location.href);
    if (url.origin !== window.location.origin) return window.location.assign(url.href);
    const idx = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + (opts.replace ? 0 : 1);
    const state = { usr: opts.state ?? null, key: Math.random().toString(36).slice(2, 10), idx };
    if (opts.replace) window.history.replaceState(state, '', url.href);
    else window.history.pushState(state, '', url.href);
    setLocation(locationOf(url, state, basename));
    if (!opts.replace) window.scrollTo(0, 0);
  }, [basename]);

  const value = useMemo(() => ({ location, navigate, basename }), [location, navigate, basename]);
  const found = findRoute(routes, location.pathname);
  let content: ReactNode = null;
  if (found) {
    const page = <Page page={found.route.page} />;
    const Layout = found.route.layout;
    content = (
      <RouteContext value={{ params: found.params, outlet: page, outletContext: undefined }}>{Layout ? <Layout /> : page}</RouteContext>
    );
  }
  return (
    <RouterContext value={value}>
      <Suspense fallback={fallback}>{content}</Suspense>
    </RouterContext>
  );
}

function useRouter(): RouterValue {
  const value = useContext(RouterContext);
  if (!value) throw new Error('outside SiteRouter');
  return value;
}

export const useLocation = () => useRouter().location;
export const useNavigate = () => useRouter().navigate;
/** The router's basename: '/embed' on the embeddable pages (issue 28), '' elsewhere. */
export const useBasename = () => useRouter().basename;
export const useParams = <T extends Record<string, string> = Record<string, string>>() => useContext(RouteContext).params as Partial<T>;
export const useOutletContext = <T,>() => useContext(RouteContext).outletContext as T;

export function useMatch(pattern: string): { params: Record<string, string> } | null {
  const { pathname } = useLocation();
  const params = matchPath(pattern, pathname);
  return params ? { params } : null;
}

export function useSearchParams(): [URLSearchParams] {
  const { search } = useLocation();
  return [useMemo(() => new URLSearchParams(search), [search])];
}

/** The matched page, given `context` (react-router's <Outlet context>). */
export function Outlet({ context }: { context?: unknown }) {
  const route = useContext(RouteContext);
  return <RouteContext value={{ ...route, outletContext: context }}>{route.outlet}</RouteContext>;
}

export function Navigate({ to, replace, state }: { to: string; replace?: boolean; state?: unknown }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace, state }), [navigate, to, replace, state]);
  return null;
}

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string; replace?: boolean; state?: unknown };

/** An <a href> that navigates in place on a plain left click (a new tab, a download and the like stay the browser's). */
export function Link({ to, replace, state, onClick, target, ...rest }: LinkProps) {
  const { navigate, basename } = useRouter();
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.altKey || e.ctrlKey || e.shiftKey || (target && target !== '_self')) return;
    e.preventDefault();
    navigate(to, { replace, state });
  };
  return <a href={withBase(to, basename)} target={target} onClick={handle} {...rest} />;
}
