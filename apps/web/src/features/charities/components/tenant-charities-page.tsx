import { Alert, Group, SegmentedControl, Stack, Switch, Text } from '@mantine/core';
import { M, type TTenantCharity } from '@marquee/core';
import { IconHeartHandshake, IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useSiteContext } from '../../../shared/site-context';
import { confirmDelete } from '../../../ui/confirm-delete';
import { ConsoleListPage, useConsoleList } from '../../../ui/console-list-page';
import type { Column } from '../../../ui/paged-table';
import { useIsTenantAdmin } from '../../../shared/access';
import { useToggleCharity } from '../mutations';
import { useTenantCharities } from '../queries';
import { charityToast } from '../toasts';

type Show = 'all' | 'enabled';

/** spec: accounts §2 screen 20: Tenant Charity: toggle list of active charities with disable confirmation. */
export function TenantCharitiesPage() {
  const tenantId = useSiteContext().tenant?.id ?? '';
  const isAdmin = useIsTenantAdmin(tenantId);
  const [show, setShow] = useState<Show>('all');
  const page = useConsoleList<TTenantCharity>({ filterKey: show });
  const list = useTenantCharities(tenantId, { cursor: page.pager.cursor, limit: page.pager.limit, search: page.search || undefined, enabledOnly: show === 'enabled' });
  const toggle = useToggleCharity(tenantId);
  const [busy, setBusy] = useState<string | null>(null);

  const setEnabled = (c: TTenantCharity, enabled: boolean) => {
    setBusy(c.id);
    return toggle
      .mutateAsync({ id: c.id, enabled })
      .then(enabled ? charityToast.enabled : charityToast.disabled, enabled ? charityToast.enableFailed : charityToast.disableFailed)
      .finally(() => setBusy(null));
  };

  const onToggle = (c: TTenantCharity, enabled: boolean) => {
    if (enabled) return void setEnabled(c, true);
    // spec §8: the disable confirmation warns the charity leaves the event's charity dropdown.
    confirmDelete({
      title: 'Disable charity',
      message: (
        <Stack gap="xs">
          <Text fz="sm">
            Disable <b>{c.details.name}</b>?
          </Text>
          <Text fz="sm">{M.charityDisableWarning}</Text>
        </Stack>
      ),
      confirmLabel: 'Disable',
      onConfirm: () => setEnabled(c, false),
    });
  };

  const columns: Column<TTenantCharity>[] = [
    {
      key: 'name',
      header: 'Charity',
      render: (c) => (
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fz="sm" fw={600}>
            {c.details.name}
          </Text>
          <Text fz="xs" c="dimmed">
            {`${c.details.street}, ${c.details.city}, ${c.details.state} ${c.details.zip_code}`}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'enabled',
      header: 'Enabled',
      width: 130,
      align: 'right',
      render: (c) => (
        <Group justify="flex-end" gap="xs" wrap="nowrap">
          <Text fz="sm" c={c.details.enabled ? 'teal.9' : 'dimmed'} visibleFrom="xs">
            {c.details.enabled ? 'On' : 'Off'}
          </Text>
          <Switch
            aria-label={`Enable ${c.details.name}`}
            checked={c.details.enabled}
            disabled={!isAdmin || busy === c.id}
            onChange={(e) => onToggle(c, e.currentTarget.checked)}
            data-testid={`charity-toggle-${c.id}`}
          />
        </Group>
      ),
    },
  ];

  const filtered = !!page.search || show === 'enabled';
  return (
    <ConsoleListPage
      state={page}
      list={list}
      title="Charities"
      description="Enable the charities your attendees can donate to. Each event then chooses one of them on its details page."
      canWrite={isAdmin}
      notice={
        !isAdmin && (
          <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} mb="md">
            Only a tenant admin can enable or disable charities.
          </Alert>
        )
      }
      searchPlaceholder="Search Charity"
      filters={
        <SegmentedControl
          aria-label="Show"
          value={show}
          onChange={(v) => setShow(v as Show)}
          data={[
            { value: 'all', label: 'All' },
            { value: 'enabled', label: 'Enabled' },
          ]}
        />
      }
      tableLabel="Charities"
      columns={columns}
      empty={{
        icon: <IconHeartHandshake size={28} stroke={1.6} />,
        title: filtered ? 'No charities match' : 'No charities yet',
        description: filtered ? 'Try another name, or show all charities.' : 'Marquee has not added any active charities yet. They appear here when it does.',
      }}
    />
  );
}
