import {
  ActionIcon,
  Alert,
  Button,
  Group,
  LoadingOverlay,
  Paper,
  Select,
  Skeleton,
  Table,
  Text,
  type MantineBreakpoint,
} from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { IconAlertCircle, IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from './api-client';

// spec: accounts-admin-fees §9 page-size options 10, 25, 100, default 10 (tenant and user tables 50).
export const PAGE_SIZE_OPTIONS = [10, 25, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;

/**
 * The narrowest a list's table gets before it scrolls: a 390 px phone's content width fits it. A list
 * that passes it hides the columns that would not fit there (`visibleFrom`) and shows their facts in
 * its first column.
 */
export const PHONE_TABLE_MIN_WIDTH = 340;

export type CursorPager = {
  /** The cursor to send for the page shown (undefined on the first page). */
  cursor: string | undefined;
  limit: number;
  page: number;
  pageSize: number;
  setPageSize: (size: number) => void;
  /** Moves on, remembering where this page started. */
  next: (nextCursor: string | null | undefined) => void;
  prev: () => void;
  reset: () => void;
};

/**
 * Keyset pagination state for the spec's {result, count, cursor} lists. The server gives only the
 * next cursor, so the pager remembers the cursors of the pages already seen to go back.
 * `resetKey` (for example the applied filters) returns to the first page when it changes.
 */
export function useCursorPager({ defaultPageSize = DEFAULT_PAGE_SIZE, resetKey = '' }: { defaultPageSize?: number; resetKey?: string } = {}): CursorPager {
  const [pageSize, setSize] = useState(defaultPageSize);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [page, setPage] = useState(0);
  const lastKey = useRef(resetKey);

  const reset = useCallback(() => {
    setCursors([undefined]);
    setPage(0);
  }, []);

  useEffect(() => {
    if (lastKey.current !== resetKey) {
      lastKey.current = resetKey;
      reset();
    }
  }, [resetKey, reset]);

  return {
    cursor: cursors[page],
    limit: pageSize,
    page,
    pageSize,
    setPageSize: (size) => {
      setSize(size);
      reset();
    },
    next: (nextCursor) => {
      if (!nextCursor) return;
      setCursors((c) => [...c.slice(0, page + 1), nextCursor]);
      setPage((p) => p + 1);
    },
    prev: () => setPage((p) => Math.max(0, p - 1)),
    reset,
  };
}

export type Column<T> = {
  key: string;
  header: ReactNode;
  render: (row: T) => ReactNode;
  width?: number | string;
  align?: 'left' | 'right' | 'center';
  /** Hide the column below this breakpoint (narrow screens). */
  visibleFrom?: MantineBreakpoint;
};

export type PagedTableProps<T> = {
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  /** `count` from the list answer. */
  total: number | undefined;
  /** `cursor` from the list answer: the next page starts there; null on the last page. */
  nextCursor: string | null | undefined;
  pager: CursorPager;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  /** Shown when the list is empty (use EmptyState with bare). */
  empty?: ReactNode;
  onRowClick?: (row: T) => void;
  /** A row's own background (payouts tint held rows red). */
  rowBg?: (row: T) => string | undefined;
  pageSizes?: readonly number[];
  minWidth?: number;
  'aria-label'?: string;
};

/** What a list query (`{result, count, cursor}`) gives the table: its rows, totals, loading and error state. */
export function fromListQuery<T>(query: {
  data?: { result: T[]; count: number; cursor: string | null } | undefined;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}): Pick<PagedTableProps<T>, 'rows' | 'total' | 'nextCursor' | 'loading' | 'error' | 'onRetry'> {
  return {
    rows: query.data?.result,
    total: query.data?.count,
    nextCursor: query.data?.cursor,
    loading: query.isFetching,
    error: query.error,
    onRetry: () => void query.refetch(),
  };
}

export function PagedTable<T>({
  columns,
  rows,
  rowKey,
  total,
  nextCursor,
  pager,
  loading,
  error,
  onRetry,
  empty,
  onRowClick,
  rowBg,
  pageSizes = PAGE_SIZE_OPTIONS,
  minWidth = 640,
  'aria-label': ariaLabel,
}: PagedTableProps<T>) {
  const sizes = useMemo(() => [...new Set([...pageSizes, pager.pageSize])].sort((a, b) => a - b), [pageSizes, pager.pageSize]);
  const count = total ?? 0;
  const shown = rows?.length ?? 0;
  const from = shown === 0 ? 0 : pager.page * pager.pageSize + 1;
  const to = pager.page * pager.pageSize + shown;
  // The width on screen: a table wider than that scrolls sideways, and its empty state is kept in
  // view (pinned to the left edge at this width) instead of being centred off-screen on a phone.
  const { ref: frame, width: visibleWidth } = useElementSize();

  return (
    <Paper withBorder radius="lg" shadow="xs" pos="relative" style={{ overflow: 'hidden' }}>
      <LoadingOverlay visible={!!loading && !!rows} zIndex={5} overlayProps={{ blur: 1, backgroundOpacity: 0.5 }} loaderProps={{ size: 'sm' }} />
      {error ? (
        <Alert m="md" color="red" variant="light" icon={<IconAlertCircle size={18} />} title="This list could not be loaded">
          <Group justify="space-between" gap="sm">
            <Text fz="sm">{errorMessage(error)}</Text>
            {onRetry && (
              <Button size="xs" variant="white" color="red" onClick={onRetry}>
                Try again
              </Button>
            )}
          </Group>
        </Alert>
      ) : (
        <div ref={frame}>
          <Table.ScrollContainer minWidth={minWidth} type="native" tabIndex={0} aria-label={ariaLabel ? `${ariaLabel} (scrollable)` : undefined}>
            <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover={!!onRowClick || undefined} aria-label={ariaLabel} aria-busy={loading || undefined}>
              <Table.Thead bg="var(--mantine-color-gray-0)">
                <Table.Tr>
                  {columns.map((c) => (
                    <Table.Th key={c.key} w={c.width} ta={c.align} visibleFrom={c.visibleFrom} fz="xs" tt="uppercase" c="dimmed" fw={600} style={{ letterSpacing: 0.4 }}>
                      {c.header}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {!rows && loading &&
                  Array.from({ length: Math.min(pager.pageSize, 5) }, (_, i) => (
                    <Table.Tr key={`loading-${i}`}>
                      {columns.map((c) => (
                        <Table.Td key={c.key} visibleFrom={c.visibleFrom}>
                          <Skeleton height={12} radius="sm" width="70%" />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                {rows?.map((row) => (
                  <Table.Tr
                    key={rowKey(row)}
                    onClick={onRowClick ? () => onRowClick(row) : undefined}
                    bg={rowBg?.(row)}
                    style={onRowClick ? { cursor: 'pointer' } : undefined}
                  >
                    {columns.map((c) => (
                      <Table.Td key={c.key} ta={c.align} visibleFrom={c.visibleFrom}>
                        {c.render(row)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
                {rows && rows.length === 0 && (
                  <Table.Tr style={{ backgroundColor: 'transparent' }}>
                    <Table.Td colSpan={columns.length} p={0}>
                      <div style={{ position: 'sticky', left: 0, width: visibleWidth || undefined, maxWidth: '100%' }} data-testid="paged-table-empty">
                        {empty ?? <Text c="dimmed" ta="center" py="lg">Nothing to show.</Text>}
                      </div>
                    </Table.Td>
                  </Table.Tr>
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </div>
      )}
      <Group justify="space-between" px="md" py="sm" gap="sm" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
        <Group gap="xs">
          <Text fz="sm" c="dimmed">
            Rows per page
          </Text>
          <Select
            aria-label="Rows per page"
            size="xs"
            w={76}
            allowDeselect={false}
            data={sizes.map(String)}
            value={String(pager.pageSize)}
            onChange={(v) => v && pager.setPageSize(Number(v))}
            comboboxProps={{ withinPortal: true }}
          />
        </Group>
        <Group gap="xs">
          <Text fz="sm" c="dimmed" data-testid="page-range">
            {from}–{to} of {count}
          </Text>
          <ActionIcon variant="default" aria-label="Previous page" disabled={pager.page === 0 || loading} onClick={pager.prev}>
            <IconChevronLeft size={16} />
          </ActionIcon>
          <ActionIcon variant="default" aria-label="Next page" disabled={!nextCursor || loading} onClick={() => pager.next(nextCursor)}>
            <IconChevronRight size={16} />
          </ActionIcon>
        </Group>
      </Group>
    </Paper>
  );
}
