import { Avatar, Badge, Group, Stack, Text } from '@mantine/core';
import { M, type TSiteTemplate } from '@marquee/core';
import { IconLayoutGrid } from '@tabler/icons-react';
import { usePlatformAccess } from '../../../shared/access';
import { confirmDelete } from '../../../ui/confirm-delete';
import { ConsoleListPage, useConsoleList } from '../../../ui/console-list-page';
import type { Column } from '../../../ui/paged-table';
import { useDeleteTemplate } from '../mutations';
import { useTemplates } from '../queries';
import { templateToast } from '../toasts';
import { TemplateModal } from './template-modal';

const formatDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

/** spec: accounts §2 screen 18: Sitebuilder Templates: list, create/edit modal, delete confirmation. */
export function TemplatesPage() {
  const { canWrite } = usePlatformAccess();
  const page = useConsoleList<TSiteTemplate>();
  const list = useTemplates({ cursor: page.pager.cursor, limit: page.pager.limit, search: page.search || undefined });
  const remove = useDeleteTemplate();

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
  ];

  return (
    <ConsoleListPage
      state={page}
      list={list}
      title="Sitebuilder Templates"
      description="The site templates organisers start their event pages from. A new ZIP makes a new version; older versions stay downloadable."
      canWrite={canWrite}
      addLabel="Add Template"
      searchPlaceholder="Search Template"
      tableLabel="Templates"
      columns={columns}
      rowMenu={{ label: (t) => t.details.name, onDelete: askDelete }}
      empty={{
        icon: <IconLayoutGrid size={28} stroke={1.6} />,
        title: page.search ? 'No templates match' : 'No templates yet',
        description: page.search ? 'Try another name.' : 'Add the first template so organisers can build their event pages from it.',
      }}
    >
      <TemplateModal mode={page.modal?.mode ?? null} template={page.modal?.row ?? null} onClose={page.closeModal} />
    </ConsoleListPage>
  );
}
