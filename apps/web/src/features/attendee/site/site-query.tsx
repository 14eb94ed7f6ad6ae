import { createContext, useCallback, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { isRetryable } from '../../../ui/api-client';

// The attendee site's data cache: the part of @tanstack/react-query's API the site uses (useQuery,
// useMutation, useQueryClient, keepPreviousData), in a few hundred bytes instead of the 10 KB gzipped
// of query-core, which every attendee page paid on its first load (issue 13: <= 100 KB per page,
// bench/first-load.ts; docs/decisions.md "The attendee site's own data cache"). The consoles keep
// react-query. Same semantics where the site relies on them: one cache entry per key shared by every
// component, one request in flight per key, data fresh for `staleTime` (30 s by default), retries of
// network and server errors (not of 4xx), the previous data kept while a new key loads, polling.

type Key = readonly unknown[];
export type QueryState<T = unknown> = { data: T | undefined; error: unknown; status: 'pending' | 'success' | 'error'; fetching: boolean; updatedAt: number; updates: number };
type Fetcher = (ctx: { signal: AbortSignal }) => Promise<unknown>;
type Retry = boolean | number | ((failures: number, error: unknown) => boolean);
type Slot = { state: QueryState; listeners: Set<() => void>; run: number; inFlight: Promise<QueryState> | null };

const DEFAULT_STALE_MS = 30_000;
const EMPTY: QueryState = { data: undefined, error: null, status: 'pending', fetching: false, updatedAt: 0, updates: 0 };
const hashKey = (key: Key) => JSON.stringify(key);
/** As react-query's default: network and server errors are tried again, twice; an answer of 4xx is final. */
const defaultRetry = (failures: number, error: unknown) => isRetryable(error) && failures < 2;

function shouldRetry(retry: Retry | undefined, failures: number, error: unknown): boolean {
  if (retry === undefined) return defaultRetry(failures, error);
  if (typeof retry === 'function') return retry(failures, error);
  if (typeof retry === 'number') return failures < retry;
  return retry && failures < 3;
}

export class QueryClient {
  private slots = new Map<string, Slot>();
  constructor(private readonly opts: { onError?: (error: unknown) => void } = {}) {}

  private slot(hash: string): Slot {
    let s = this.slots.get(hash);
    if (!s) this.slots.set(hash, (s = { state: EMPTY, listeners: new Set(), run: 0, inFlight: null }));
    return s;
  }
  private set(hash: string, state: QueryState) {
    const s = this.slot(hash);
    s.state = state;
    for (const l of [...s.listeners]) l();
  }

  stateOf(hash: string): QueryState {
    return this.slots.get(hash)?.state ?? EMPTY;
  }
  subscribe(hash: string, listener: () => void): () => void {
    const s = this.slot(hash);
    s.listeners.add(listener);
    return () => s.listeners.delete(listener);
  }
  getQueryData<T>(key: Key): T | undefined {
    return this.stateOf(hashKey(key)).data as T | undefined;
  }
  setQueryData<T>(key: Key, data: T | undefined) {
    const hash = hashKey(key);
    const prev = this.stateOf(hash);
    this.set(hash, { ...prev, data, error: null, status: data === undefined ? prev.status : 'success', updatedAt: Date.now(), updates: prev.updates + 1 });
  }
  /** Reports an error to the client's handler (a lost session, for instance). */
  reportError(error: unknown) {
    this.opts.onError?.(error);
  }
  clear() {
    this.slots.clear();
  }

  /**
   * Fetches the key: joins the request in flight unless `force` (a refetch starts anew, and only the
   * newest answer is kept). Resolves to the state after it, never rejects.
   */
  fetch(key: Key, fn: Fetcher, opts: { retry?: Retry; force?: boolean } = {}): Promise<QueryState> {
    const hash = hashKey(key);
    const s = this.slot(hash);
    if (s.inFlight && !opts.force) return s.inFlight;
    const run = ++s.run;
    this.set(hash, { ...s.state, fetching: true });
    const attempt = async (): Promise<QueryState> => {
      for (let failures = 0; ; failures++) {
        try {
          const data = await fn({ signal: new AbortController().signal });
          if (run === s.run) this.set(hash, { data, error: null, status: 'success', fetching: false, updatedAt: Date.now(), updates: s.state.updates + 1 });
          return s.state;
        } catch (error) {
          if (run === s.run && shouldRetry(opts.retry, failures, error)) {
            await new Promise((r) => setTimeout(r, Math.min(1000 * 2 ** failures, 30_000)));
            continue;
          }
          if (run === s.run) {
            this.reportError(error);
            this.set(hash, { ...s.state, error, status: 'error', fetching: false, updatedAt: 0, updates: s.state.updates + 1 });
          }
          return s.state;
        }
      }
    };
    const p = attempt().finally(() => {
      if (s.inFlight === p) s.inFlight = null;
    });
    s.inFlight = p;
    return p;
  }
}

const Context = createContext<QueryClient | null>(null);

export function QueryClientProvider({ client, children }: { client: QueryClient; children: ReactNode }) {
  return <Context.Provider value={client}>{children}</Context.Provider>;
}

export function useQueryClient(): QueryClient {
  const client = useContext(Context);
  if (!client) throw new Error('useQueryClient outside QueryClientProvider');
  return client;
}

/** `placeholderData: keepPreviousData`: while a new key loads, the last key's data stays on screen. */
export const keepPreviousData = <T,>(previous: T | undefined) => previous;

export type QueryOptions<T> = {
  queryKey: Key;
  queryFn: (ctx: { signal: AbortSignal }) => Promise<T>;
  enabled?: boolean;
  staleTime?: number;
  refetchOnMount?: boolean | 'always';
  retry?: Retry;
  placeholderData?: typeof keepPreviousData;
  refetchInterval?: number | false | ((query: { state: { data: T | undefined; error: unknown } }) => number | false);
};

export function useQuery<T>(opts: QueryOptions<T>) {
  const client = useQueryClient();
  const hash = hashKey(opts.queryKey);
  const enabled = opts.enabled ?? true;
  const state = useSyncExternalStore(
    useCallback((listener: () => void) => client.subscribe(hash, listener), [client, hash]),
    () => client.stateOf(hash),
    () => client.stateOf(hash),
  ) as QueryState<T>;
  const latest = useRef(opts);
  latest.current = opts;
  const fetch = useCallback(
    (force: boolean) => client.fetch(latest.current.queryKey, latest.current.queryFn, { retry: latest.current.retry, force }),
    [client],
  );
  // What this component has seen of the key since it mounted (or since the key changed).
  const seen = useRef<{ hash: string; updates: number } | null>(null);
  if (seen.current?.hash !== hash) seen.current = { hash, updates: state.updates };
  const previous = useRef<T | undefined>(undefined);

  useEffect(() => {
    if (!enabled) return;
    const now = client.stateOf(hash);
    const stale = now.updatedAt === 0 || Date.now() - now.updatedAt >= (latest.current.staleTime ?? DEFAULT_STALE_MS);
    const mount = latest.current.refetchOnMount ?? true;
    if (mount === 'always' || (mount && stale) || now.status === 'pending') void fetch(false);
  }, [client, hash, enabled, fetch]);

  const interval = typeof opts.refetchInterval === 'function' ? opts.refetchInterval({ state: { data: state.data, error: state.error } }) : (opts.refetchInterval ?? false);
  useEffect(() => {
    if (!enabled || !interval || state.fetching) return;
    const timer = setTimeout(() => void fetch(true), interval);
    return () => clearTimeout(timer);
  }, [enabled, interval, state.fetching, state.updates, fetch]);

  const placeholder = state.data === undefined && opts.placeholderData ? opts.placeholderData(previous.current) : undefined;
  if (state.data !== undefined) previous.current = state.data;
  const data = state.data ?? placeholder;
  const status = data !== undefined && state.status !== 'error' ? 'success' : state.status;
  return {
    data,
    error: state.error,
    status,
    isPending: status === 'pending',
    isLoading: status === 'pending' && state.fetching,
    isSuccess: status === 'success',
    isError: status === 'error',
    isFetching: state.fetching,
    isPlaceholderData: state.data === undefined && placeholder !== undefined,
    isFetchedAfterMount: state.updates > seen.current.updates,
    refetch: async () => {
      const after = await fetch(true);
      return { data: after.data as T | undefined, error: after.error, status: after.status };
    },
  };
}

type MutationState<D, V> = { status: 'idle' | 'pending' | 'success' | 'error'; data: D | undefined; error: unknown; variables: V | undefined };
type MutationOptions<D, V> = {
  mutationFn: (variables: V) => Promise<D>;
  onSuccess?: (data: D, variables: V) => unknown;
  onError?: (error: unknown, variables: V) => unknown;
  onSettled?: (data: D | undefined, error: unknown, variables: V) => unknown;
};

export function useMutation<D, V = void>(opts: MutationOptions<D, V>) {
  const client = useQueryClient();
  const [state, setState] = useState<MutationState<D, V>>({ status: 'idle', data: undefined, error: null, variables: undefined });
  const latest = useRef(opts);
  latest.current = opts;
  const mutateAsync = useCallback(
    async (variables: V): Promise<D> => {
      setState({ status: 'pending', data: undefined, error: null, variables });
      try {
        const data = await latest.current.mutationFn(variables);
        await latest.current.onSuccess?.(data, variables);
        setState({ status: 'success', data, error: null, variables });
        await latest.current.onSettled?.(data, null, variables);
        return data;
      } catch (error) {
        client.reportError(error);
        await latest.current.onError?.(error, variables);
        setState({ status: 'error', data: undefined, error, variables });
        await latest.current.onSettled?.(undefined, error, variables);
        throw error;
      }
    },
    [client],
  );
  const mutate = useCallback((variables: V) => void mutateAsync(variables).catch(() => undefined), [mutateAsync]);
  const reset = useCallback(() => setState({ status: 'idle', data: undefined, error: null, variables: undefined }), []);
  const common = { error: state.error, variables: state.variables, mutate, mutateAsync, reset, isIdle: state.status === 'idle', isPending: state.status === 'pending', isError: state.status === 'error' };
  // As react-query's result: `isSuccess` narrows `data` to the answer.
  return state.status === 'success'
    ? { ...common, status: 'success' as const, isSuccess: true as const, data: state.data as D }
    : { ...common, status: state.status, isSuccess: false as const, data: undefined };
}
