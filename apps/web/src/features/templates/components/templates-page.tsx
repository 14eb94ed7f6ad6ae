import { ActionIcon, Avatar, Badge, Button, Group, Menu, Stack, Text } from '@mantine/core';
import { M, type TSiteTemplate } from '@marquee/core';
import { IconDots, IconLayoutGrid, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { usePlatformAccess } from '../../../shared/access';
import { confirmDelete } from '../../../ui/confirm-delete';
import { EmptyState } from '../../../ui/empty-state';
import { PageHeader } from '../../../ui/page-header';
import { fromListQuery, PagedTable, useCursorPager, type Column } from '../../../ui/paged-table';
import { SearchInput } from '../../../ui/search-input';
import { useDeleteTemplate } from '../mutations';
import { useTemplates } from '../queries';
import { templateToast } from '../toasts';
import { TemplateModal } from './template-modal';

const formatDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

/** spec: accounts §2 screen 18: Sitebuilder Templates: list, create/edit modal, delete confirmation. */
export function TemplatesPage() {
  const { canWrite } = usePlatformAccess();
  const [search, setSearch] = useState('');
  const pager = useCursorPager({ resetKey: search });
  const list = useTemplates({ cursor: pager.cursor, limit: pager.limit, search: search || undefined });
  const remove = useDeleteTemplate();
  const [modal, setModal] = useState<{ mode: 'create' | 'edit'; template: TSiteTemplate | null } | null>(null);

  const askDelete = (t: TSiteTemplate) =>
    confirmDelete({
      title: 'Delete Template',
      message: (
        <Stack gap="xs">
          <Text fz="sm">{M.templateDeleteConfirm}</Text>
          <Text fz="sm" c="dimmed">
            {t.details.name} and all its versions will be removed. Event pages already built from it keep their content.
          </Text>
        </Stack>
      ),
      onConfirm: () => remove.mutateAsync(t.id).then(templateToast.removed, templateToast.removeFailed),
    });

  const columns: Column<TSiteTemplate>[] = [
    {
      key: 'name',
      header: 'Template',
      render: (t) => (
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Avatar src={t.details.thumbnail} radius="sm" size={48} alt="" color="brand">
            <IconLayoutGrid size={20} />
          </Avatar>
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fz="sm" fw={600}>
              {t.details.name}
            </Text>
            <Text fz="xs" c="dimmed" lineClamp={2}>
              {t.details.description}
            </Text>
          </Stack>
        </Group>
      ),
    },
    {
      key: 'version',
      header: 'Version',
      width: 110,
      render: (t) =>
        t.details.version ? (
          <Badge variant="light" tt="none">
            {t.details.version}
          </Badge>
        ) : (
          <Badge variant="light" color="gray">
            no ZIP yet
          </Badge>
        ),
    },
    { key: 'created', header: 'Created', width: 130, visibleFrom: 'md', render: (t) => <Text fz="sm" c="dimmed">{formatDate(t.details.dateCreated)}</Text> },
    { key: 'modified', header: 'Last updated', width: 130, visibleFrom: 'sm', render: (t) => <Text fz="sm" c="dimmed">{formatDate(t.details.dateModified)}</Text> },
    {
      key: 'actions',
      header: <span style={{ position: 'absolute', left: -10000 }}>Actions</span>,
      width: 56,
      align: 'right',
      render: (t) =>
        canWrite && (
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${t.details.name}`} onClick={(e) => e.stopPropagation()}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
              <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setModal({ mode: 'edit', template: t })}>
                Edit
              </Menu.Item>
              <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => askDelete(t)}>
                Delete
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Sitebuilder Templates"
        description="The site templates organisers start their event pages from. A new ZIP makes a new version; older versions stay downloadable."
        actions={
          canWrite && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setModal({ mode: 'create', template: null })}>
              Add Template
            </Button>
          )
        }
      />
      <Group mb="md">
        <SearchInput placeholder="Search Template" onSearch={setSearch} w={{ base: '100%', sm: 360 }} />
      </Group>
      <PagedTable
        aria-label="Templates"
        columns={columns}
        {...fromListQuery(list)}
        rowKey={(t) => t.id}
        pager={pager}
        onRowClick={canWrite ? (t) => setModal({ mode: 'edit', template: t }) : undefined}
        minWidth={340}
        empty={
          <EmptyState
            bare
            icon={<IconLayoutGrid size={28} stroke={1.6} />}
            title={search ? 'No templates match' : 'No templates yet'}
            description={search ? 'Try another name.' : 'Add the first template so organisers can build their event pages from it.'}
          />
        }
      />
      <TemplateModal mode={modal?.mode ?? null} template={modal?.template ?? null} onClose={() => setModal(null)} />
    </>
  );
}
