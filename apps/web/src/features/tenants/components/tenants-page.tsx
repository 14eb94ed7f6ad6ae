import { ActionIcon, Anchor, Avatar, Button, Group, Menu, Stack, Text } from '@mantine/core';
import { formatPhone, type TTenant } from '@marquee/core';
import { IconBuildingStore, IconDots, IconExternalLink, IconEye, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../../../ui/api-client';
import { confirmDelete } from '../../../ui/confirm-delete';
import { EmptyState } from '../../../ui/empty-state';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { fromListQuery, PagedTable, PHONE_TABLE_MIN_WIDTH, type Column } from '../../../ui/paged-table';
import { SearchInput } from '../../../ui/search-input';
import { useUrlListState } from '../../../ui/use-url-list-state';
import { usePlatformAccess } from '../../../shared/access';
import { rememberTenantsListSearch } from '../list-location';
import { useDeleteTenant } from '../mutations';
import { useTenants } from '../queries';
import { useBucketTimer } from '../use-bucket-timer';
import { BucketSetupProgress } from './bucket-setup-progress';
import { CreateTenantModal } from './create-tenant-modal';
import { canDeleteTenant, deleteTenantMessage } from './tenant-delete';
import { TenantStatusBadge } from './tenant-status-badge';

// spec: accounts-admin-fees §9: tenant and user tables page size 50 (options 10, 25, 100).
export const TENANT_PAGE_SIZE = 50;

export const formatDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

/** The tenant's attendee site, opened in a new tab (the row itself opens the tenant). */
function siteLink(t: TTenant) {
  return (
    <Anchor href={t.details.siteUrl} target="_blank" rel="noreferrer" fz="sm" onClick={(e) => e.stopPropagation()} style={{ wordBreak: 'break-word' }}>
      {t.details.url}
      <IconExternalLink size={13} style={{ marginLeft: 4, verticalAlign: -1 }} />
    </Anchor>
  );
}

export function TenantsPage() {
  const navigate = useNavigate();
  const { canWrite } = usePlatformAccess();
  const { search } = useLocation();
  // Search, page size and page live in the address, so Back and the breadcrumb restore them.
  const { search: name, setSearch: setName, pager } = useUrlListState({ defaultPageSize: TENANT_PAGE_SIZE });
  const list = useTenants({ cursor: pager.cursor, limit: pager.limit, name: name || undefined });
  useEffect(() => rememberTenantsListSearch(search), [search]);
  const [creating, setCreating] = useState(false);
  const bucket = useBucketTimer();
  const remove = useDeleteTenant();

  const askDelete = (t: TTenant) =>
    confirmDelete({
      title: 'Delete tenant',
      message: deleteTenantMessage(t),
      confirmLabel: 'Delete tenant',
      onConfirm: () =>
        remove.mutateAsync(t.id).then(
          () => notify.success('Tenant deleted', `${t.details.name} was deleted.`),
          (e) => notify.error('Delete Tenant Failed', errorMessage(e)),
        ),
    });

  const columns: Column<TTenant>[] = [
    {
      key: 'name',
      header: 'Tenant',
      render: (t) => (
        <Group gap="sm" wrap="nowrap">
          <Avatar src={t.details.logo} radius="md" size={36} color="brand" alt="">
            {t.details.name.slice(0, 2).toUpperCase()}
          </Avatar>
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fz="sm" fw={600} truncate>
              {t.details.name}
            </Text>
            <Text fz="xs" c="dimmed" truncate>
              {t.details.email}
            </Text>
            {/* On a phone the site and status go under the name instead of in columns of their own. */}
            <Group gap="xs" mt={6} hiddenFrom="sm">
              <TenantStatusBadge status={t.details.status} />
              {siteLink(t)}
            </Group>
          </Stack>
        </Group>
      ),
    },
    { key: 'url', header: 'URL', visibleFrom: 'sm', render: siteLink },
    { key: 'phone', header: 'Phone', visibleFrom: 'lg', render: (t) => <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>{formatPhone(t.details.phone)}</Text> },
    { key: 'status', header: 'Status', width: 130, visibleFrom: 'sm', render: (t) => <TenantStatusBadge status={t.details.status} /> },
    { key: 'created', header: 'Created', width: 130, visibleFrom: 'md', render: (t) => <Text fz="sm" c="dimmed">{formatDate(t.details.dateCreated)}</Text> },
    {
      key: 'actions',
      header: <span style={{ position: 'absolute', left: -10000 }}>Actions</span>,
      width: 56,
      align: 'right',
      render: (t) => (
        <Menu position="bottom-end" withinPortal shadow="md">
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${t.details.name}`} onClick={(e) => e.stopPropagation()}>
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
            <Menu.Item leftSection={<IconEye size={16} />} onClick={() => navigate(`/tenant/${t.id}/info`)}>
              View details
            </Menu.Item>
            {canWrite && canDeleteTenant(t) && (
              <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => askDelete(t)}>
                Delete
              </Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Tenants"
        description="The organisers selling tickets on Marquee. Open one to edit its details, fees and payouts."
        actions={
          canWrite && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              Create New Tenant
            </Button>
          )
        }
      />
      {bucket.state && <BucketSetupProgress timer={bucket.state} onRetry={bucket.retry} onDismiss={bucket.dismiss} />}
      <Group mb="md">
        <SearchInput placeholder="Search Tenant" term={name} onSearch={setName} w={{ base: '100%', sm: 360 }} />
      </Group>
      <PagedTable
        aria-label="Tenants"
        columns={columns}
        minWidth={PHONE_TABLE_MIN_WIDTH}
        {...fromListQuery(list)}
        rowKey={(t) => t.id}
        pager={pager}
        onRowClick={(t) => navigate(`/tenant/${t.id}/info`)}
        empty={
          <EmptyState
            bare
            icon={<IconBuildingStore size={28} stroke={1.6} />}
            title={name ? 'No tenants match your search' : 'No tenants yet'}
            description={name ? `No tenant name contains “${name}”.` : 'Create the first tenant to start selling tickets.'}
          />
        }
      />
      <CreateTenantModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(t) => {
          setCreating(false);
          bucket.start(t.id, t.details.name);
        }}
      />
    </>
  );
}
