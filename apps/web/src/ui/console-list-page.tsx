import { ActionIcon, Button, Group, Menu } from '@mantine/core';
import { IconDots, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { EmptyState, type EmptyStateProps } from './empty-state';
import { PageHeader } from './page-header';
import { fromListQuery, PagedTable, PHONE_TABLE_MIN_WIDTH, useCursorPager, type Column, type CursorPager } from './paged-table';
import { SearchInput } from './search-input';

export type ModalState<T> = { mode: 'create' | 'edit'; row: T | null } | null;

export type ConsoleListState<T> = {
  search: string;
  setSearch: (search: string) => void;
  pager: CursorPager;
  /** The create/edit modal's state: null while it is closed. */
  modal: ModalState<T>;
  openCreate: () => void;
  openEdit: (row: T) => void;
  closeModal: () => void;
};

/**
 * The state of a console list page: its search, its pager (back to the first page when the search
 * or `filterKey`, the page's other filters, change) and its create/edit modal.
 */
export function useConsoleList<T>({ filterKey = '' }: { filterKey?: string } = {}): ConsoleListState<T> {
  const [search, setSearch] = useState('');
  const pager = useCursorPager({ resetKey: `${search}|${filterKey}` });
  const [modal, setModal] = useState<ModalState<T>>(null);
  return {
    search,
    setSearch,
    pager,
    modal,
    openCreate: () => setModal({ mode: 'create', row: null }),
    openEdit: (row) => setModal({ mode: 'edit', row }),
    closeModal: () => setModal(null),
  };
}

type ListQuery<T> = Parameters<typeof fromListQuery<T>>[0];

export type ConsoleListPageProps<T extends { id: string }> = {
  state: ConsoleListState<T>;
  list: ListQuery<T>;
  title: string;
  description: ReactNode;
  /** Whether the user may add, edit and delete (the add button, the row menu and the row click). */
  canWrite: boolean;
  /** The label of the add button in the header; none without it. */
  addLabel?: string;
  /** Between the header and the search (a notice). */
  notice?: ReactNode;
  searchPlaceholder: string;
  /** Controls beside the search (status filters). */
  filters?: ReactNode;
  tableLabel: string;
  columns: Column<T>[];
  /** An Edit / Delete menu at the end of each row for writers; `label` names the row for screen readers. */
  rowMenu?: { label: (row: T) => string; onDelete: (row: T) => void };
  /**
   * Below this width the table scrolls sideways. The default fits a 390 px phone: a page hides the
   * columns that would not fit there (`visibleFrom`) and shows their facts in its first column.
   */
  minWidth?: number;
  empty: Omit<EmptyStateProps, 'bare'>;
  /** The create/edit modal, driven by `state.modal`. */
  children?: ReactNode;
};

/** The scaffold of a console list page: header with the add button, search and filters, paged table, empty state. */
export function ConsoleListPage<T extends { id: string }>({
  state,
  list,
  title,
  description,
  canWrite,
  addLabel,
  notice,
  searchPlaceholder,
  filters,
  tableLabel,
  columns,
  rowMenu,
  minWidth = PHONE_TABLE_MIN_WIDTH,
  empty,
  children,
}: ConsoleListPageProps<T>) {
  const menuColumn: Column<T>[] = rowMenu
    ? [
        {
          key: 'actions',
          header: <span style={{ position: 'absolute', left: -10000 }}>Actions</span>,
          width: 56,
          align: 'right',
          render: (row) =>
            canWrite && (
              <Menu position="bottom-end" withinPortal shadow="md">
                <Menu.Target>
                  <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${rowMenu.label(row)}`} onClick={(e) => e.stopPropagation()}>
                    <IconDots size={18} />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
                  <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => state.openEdit(row)}>
                    Edit
                  </Menu.Item>
                  <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => rowMenu.onDelete(row)}>
                    Delete
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            ),
        },
      ]
    : [];

  return (
    <>
      <PageHeader
        title={title}
        description={description}
        actions={
          canWrite &&
          addLabel && (
            <Button leftSection={<IconPlus size={16} />} onClick={state.openCreate}>
              {addLabel}
            </Button>
          )
        }
      />
      {notice}
      <Group mb="md" gap="sm" align="center">
        <SearchInput placeholder={searchPlaceholder} onSearch={state.setSearch} w={{ base: '100%', sm: 360 }} />
        {filters}
      </Group>
      <PagedTable
        aria-label={tableLabel}
        columns={[...columns, ...menuColumn]}
        {...fromListQuery(list)}
        rowKey={(row) => row.id}
        pager={state.pager}
        onRowClick={canWrite && rowMenu ? state.openEdit : undefined}
        minWidth={minWidth}
        empty={<EmptyState bare {...empty} />}
      />
      {children}
    </>
  );
}
