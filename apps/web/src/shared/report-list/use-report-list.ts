import { encodeFilters, type Filter } from '@marquee/core';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, type CursorPager } from '../../ui/paged-table';
import type { SearchTransform } from './search-rules';

// A report list's state kept in the address (?field=…&q=…&from=…&to=…&used=…&size=…&after=…), so
// Back from an order shows the list as it was left. Every change replaces the history entry and
// returns to the first page.

export type SearchField = { value: string; label: string; field: string; transform?: SearchTransform };

export type ReportListState = {
  field: string;
  search: string;
  from: string;
  to: string;
  used: string;
  set: (changes: Partial<Record<'field' | 'q' | 'from' | 'to' | 'used', string>>) => void;
  pager: CursorPager;
  /** The list query for the API: cursor, limit and the filters on the wire. */
  query: { cursor?: string; limit: number; filters?: string[] };
  /** The same filters without paging, for the export. */
  filters: string[];
};

export type ReportListOptions = {
  searchFields: readonly SearchField[];
  /** details.dateCreated, or details.transactionDate for refunds (spec §5). */
  dateField?: string;
  usedField?: string;
};

const endOfDay = (day: string) => `${day}T23:59:59.999`;

export function useReportList({ searchFields, dateField, usedField }: ReportListOptions): ReportListState {
  const [params, setParams] = useSearchParams();
  const field = params.get('field') && searchFields.some((f) => f.value === params.get('field')) ? params.get('field')! : (searchFields[0]?.value ?? '');
  const search = params.get('q') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const used = params.get('used') ?? '';
  const sizeParam = Number(params.get('size'));
  const pageSize = (PAGE_SIZE_OPTIONS as readonly number[]).includes(sizeParam) ? sizeParam : DEFAULT_PAGE_SIZE;
  const cursors = useMemo(() => params.getAll('after').filter(Boolean), [params]);
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

  const set = useCallback(
    (changes: Partial<Record<'field' | 'q' | 'from' | 'to' | 'used', string>>) =>
      update((next) => {
        for (const [k, v] of Object.entries(changes)) {
          if (v) next.set(k, v);
          else next.delete(k);
        }
        next.delete('after');
      }),
    [update],
  );

  const filters = useMemo(() => {
    const list: Filter[] = [];
    const f = searchFields.find((s) => s.value === field);
    if (f && search) list.push({ field: f.field, op: '=', value: search });
    // spec §5: the date range is a >= and <= pair on the list's date field.
    if (dateField && from) list.push({ field: dateField, op: '>=', value: new Date(`${from}T00:00:00`).toISOString() });
    if (dateField && to) list.push({ field: dateField, op: '<=', value: new Date(endOfDay(to)).toISOString() });
    if (usedField && (used === 'true' || used === 'false')) list.push({ field: usedField, op: '=', value: used });
    return encodeFilters(list);
  }, [searchFields, field, search, dateField, from, to, usedField, used]);

  const pager: CursorPager = {
    cursor: cursors[page - 1],
    limit: pageSize,
    page,
    pageSize,
    setPageSize: (size) =>
      update((next) => {
        if (size === DEFAULT_PAGE_SIZE) next.delete('size');
        else next.set('size', String(size));
        next.delete('after');
      }),
    next: (nextCursor) => {
      if (!nextCursor) return;
      update((next) => {
        const seen = next.getAll('after').filter(Boolean).slice(0, page);
        next.delete('after');
        for (const c of [...seen, nextCursor]) next.append('after', c);
      });
    },
    prev: () =>
      update((next) => {
        const all = next.getAll('after').filter(Boolean);
        next.delete('after');
        for (const c of all.slice(0, -1)) next.append('after', c);
      }),
    reset: () => update((next) => next.delete('after')),
  };

  return {
    field,
    search,
    from,
    to,
    used,
    set,
    pager,
    query: { cursor: pager.cursor, limit: pageSize, filters: filters.length ? filters : undefined },
    filters,
  };
}
