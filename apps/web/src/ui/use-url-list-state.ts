import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { PAGE_SIZE_OPTIONS, type CursorPager } from './paged-table';
import { effectiveSearch } from './search-input';

// A list's search, page size and page kept in the address (?q=…&size=…&after=…), so Back, a
// breadcrumb or a shared link shows the list as it was left. Keyset pages are reached by cursor:
// `after` repeats, one cursor per page moved past, so Previous works after a restore too.
// Every change replaces the history entry: Back leaves the list rather than stepping through it.

const Q = 'q';
const SIZE = 'size';
const AFTER = 'after';

export type UrlListState = {
  /** The applied search term ('' for none), as the search box should show it. */
  search: string;
  setSearch: (term: string) => void;
  pager: CursorPager;
};

export function useUrlListState({ defaultPageSize }: { defaultPageSize: number }): UrlListState {
  const [params, setParams] = useSearchParams();

  const search = effectiveSearch(params.get(Q) ?? '');
  const sizeParam = Number(params.get(SIZE));
  const pageSize = sizeParam === defaultPageSize || (PAGE_SIZE_OPTIONS as readonly number[]).includes(sizeParam) ? sizeParam : defaultPageSize;
  const cursors = useMemo(() => params.getAll(AFTER).filter(Boolean), [params]);
  const page = cursors.length;

  const update = useCallback(
    (change: (next: URLSearchParams) => void) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          change(next);
          return next;
        },
        { replace: true, preventScrollReset: true },
      ),
    [setParams],
  );

  const setSearch = useCallback(
    (term: string) =>
      update((next) => {
        if (term) next.set(Q, term);
        else next.delete(Q);
        next.delete(AFTER);
      }),
    [update],
  );

  const pager: CursorPager = {
    cursor: cursors[page - 1],
    limit: pageSize,
    page,
    pageSize,
    setPageSize: (size) =>
      update((next) => {
        if (size === defaultPageSize) next.delete(SIZE);
        else next.set(SIZE, String(size));
        next.delete(AFTER);
      }),
    next: (nextCursor) => {
      if (!nextCursor) return;
      update((next) => {
        // From the page shown, so a double click moves one page, not two.
        const seen = next.getAll(AFTER).filter(Boolean).slice(0, page);
        next.delete(AFTER);
        for (const c of [...seen, nextCursor]) next.append(AFTER, c);
      });
    },
    prev: () =>
      update((next) => {
        const all = next.getAll(AFTER).filter(Boolean);
        next.delete(AFTER);
        for (const c of all.slice(0, -1)) next.append(AFTER, c);
      }),
    reset: () => update((next) => next.delete(AFTER)),
  };

  return { search, setSearch, pager };
}
