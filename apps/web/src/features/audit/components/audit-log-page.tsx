import { Badge, Button, Code, Group, Modal, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, type AuditAction, type TAuditEntry } from '@marquee/core';
import { IconDownload, IconHistory } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyState } from '../../../ui/empty-state';
import { PageHeader } from '../../../ui/page-header';
import { fromListQuery, PagedTable, useCursorPager, type Column } from '../../../ui/paged-table';
import { SearchInput } from '../../../ui/search-input';
import { auditApi, type AuditFilters, type AuditOwner } from '../api';
import { useAuditLog } from '../queries';

const actionLabel = (a: string) => AUDIT_ACTION_LABELS[a as AuditAction] ?? a;
const when = (iso: string) => new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' });
const ACTOR_LABEL: Record<TAuditEntry['details']['actorType'], string> = { user: 'User', key: 'API key', system: 'System' };
const ACTOR_COLOR: Record<TAuditEntry['details']['actorType'], string> = { user: 'blue', key: 'violet', system: 'gray' };

/** A day picked in the range, as the instant that starts (or, `end`, ends) it in the browser's zone. */
function dayBound(value: string | null, end: boolean): string | undefined {
  if (!value) return undefined;
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  const date = end ? new Date(y!, m! - 1, d!, 23, 59, 59, 999) : new Date(y!, m! - 1, d!);
  return date.toISOString();
}

/** Issue 25: the audit log of a tenant (owner = its id) or of the whole platform (owner = null). */
export function AuditLogPage({ owner }: { owner: AuditOwner }) {
  const [action, setAction] = useState<string | null>(null);
  const [actor, setActor] = useState('');
  const [range, setRange] = useState<[string | null, string | null]>([null, null]);
  const filters: AuditFilters = { action: action ?? undefined, actor: actor || undefined, from: dayBound(range[0], false), to: dayBound(range[1], true) };
  const pager = useCursorPager({ resetKey: JSON.stringify(filters) });
  const list = useAuditLog(owner, { cursor: pager.cursor, limit: pager.limit, filters });
  const [open, setOpen] = useState<TAuditEntry | null>(null);

  const columns: Column<TAuditEntry>[] = [
    { key: 'date', header: 'Date', width: 200, visibleFrom: 'sm', render: (e) => <Text fz="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>{when(e.details.dateCreated)}</Text> },
    {
      key: 'action',
      header: 'Action',
      render: (e) => (
        <Stack gap={2}>
          <Text fz="sm" fw={600}>
            {actionLabel(e.details.action)}
          </Text>
          {/* On a phone the date and the actor go under the action. */}
          <Text fz="xs" c="dimmed" hiddenFrom="sm">
            {when(e.details.dateCreated)}
          </Text>
          <Text fz="xs" hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>
            {ACTOR_LABEL[e.details.actorType]}: {e.details.actor}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'actor',
      header: 'Actor',
      width: 260,
      visibleFrom: 'sm',
      render: (e) => (
        <Group gap={6} wrap="nowrap">
          <Badge size="sm" variant="light" color={ACTOR_COLOR[e.details.actorType]} style={{ flexShrink: 0 }}>
            {ACTOR_LABEL[e.details.actorType]}
          </Badge>
          <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
            {e.details.actor}
          </Text>
        </Group>
      ),
    },
    { key: 'target', header: 'Target', visibleFrom: 'md', render: (e) => <Text fz="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>{e.details.targetType}{e.details.targetId ? ` ${e.details.targetId}` : ''}</Text> },
    { key: 'address', header: 'Address', width: 130, visibleFrom: 'lg', render: (e) => <Text fz="sm" c="dimmed">{e.details.address ?? ''}</Text> },
  ];

  return (
    <>
      <PageHeader
        title="Audit Log"
        description={owner ? 'Who refunded, voided, held, changed fees or access in this account, and when. Entries cannot be changed or deleted.' : 'Every action that moves money or changes who may do what, across all tenants. Entries cannot be changed or deleted.'}
        actions={
          <Button component="a" href={auditApi.downloadUrl(owner, filters)} download variant="default" leftSection={<IconDownload size={16} />}>
            Export CSV
          </Button>
        }
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }} mb="md">
        <Select
          label="Action"
          placeholder="All actions"
          clearable
          value={action}
          onChange={setAction}
          data={AUDIT_ACTIONS.map((a) => ({ value: a, label: AUDIT_ACTION_LABELS[a] }))}
        />
        <SearchInput label="Actor" placeholder="E-mail or key name" onSearch={setActor} />
        <DatePickerInput type="range" label="Dates" placeholder="Any date" clearable value={range} onChange={(v) => setRange(v as [string | null, string | null])} valueFormat="MMM D, YYYY" />
      </SimpleGrid>
      <PagedTable
        aria-label="Audit log entries"
        columns={columns}
        {...fromListQuery(list)}
        rowKey={(e) => e.id}
        pager={pager}
        onRowClick={setOpen}
        empty={<EmptyState bare icon={<IconHistory size={28} stroke={1.6} />} title="No entries" description="Refunds, voids, payout holds, fee and access changes appear here as they happen." />}
      />
      <Modal opened={!!open} onClose={() => setOpen(null)} title={open ? actionLabel(open.details.action) : ''} size="lg">
        {open && <EntryDetail entry={open} />}
      </Modal>
    </>
  );
}

function EntryDetail({ entry }: { entry: TAuditEntry }) {
  const d = entry.details;
  const json = (v: unknown) => (v === null || v === undefined ? '—' : JSON.stringify(v, null, 2));
  return (
    <Stack gap="sm">
      <Text fz="sm">
        <b>{ACTOR_LABEL[d.actorType]}:</b> {d.actor}
        {d.address ? ` from ${d.address}` : ''}, {when(d.dateCreated)}
      </Text>
      <Text fz="sm">
        <b>Target:</b> {d.targetType} {d.targetId ?? ''}
      </Text>
      <Text fz="sm" fw={600}>
        Before
      </Text>
      <Code block fz="xs">
        {json(d.before)}
      </Code>
      <Text fz="sm" fw={600}>
        After
      </Text>
      <Code block fz="xs">
        {json(d.after)}
      </Code>
    </Stack>
  );
}
