import { ActionIcon, Alert, Group, Text, Tooltip } from '@mantine/core';
import type { TOutboxMail } from '@marquee/core';
import { IconEye, IconInfoCircle, IconMailOff, IconPaperclip, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useSiteContext } from '../../../shared/site-context';
import { EmptyState } from '../../../ui/empty-state';
import { PageHeader } from '../../../ui/page-header';
import { fromListQuery, PagedTable, useCursorPager, type Column } from '../../../ui/paged-table';
import { SearchInput } from '../../../ui/search-input';
import { useOutbox } from '../queries';
import { formatDateTime, MailStatusBadge } from './mail-status';
import { MailViewModal } from './mail-view-modal';

/** Every message Marquee sent or, without SMTP, kept: the platform's view of its mail. */
export function OutboxPage() {
  const context = useSiteContext();
  const [to, setTo] = useState('');
  const pager = useCursorPager({ resetKey: to });
  const list = useOutbox({ cursor: pager.cursor, limit: pager.limit, to: to || undefined });
  const [open, setOpen] = useState<TOutboxMail | null>(null);

  const columns: Column<TOutboxMail>[] = [
    { key: 'date', header: 'Date', width: 190, render: (m) => <Text fz="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(m.details.dateCreated)}</Text> },
    { key: 'to', header: 'To', render: (m) => <Text fz="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>{m.details.to}</Text> },
    {
      key: 'subject',
      header: 'Subject',
      render: (m) => (
        <Group gap={6} wrap="nowrap">
          <Text fz="sm" lineClamp={2}>
            {m.details.subject}
          </Text>
          {m.details.attachments.length > 0 && <IconPaperclip size={14} aria-label="Has attachments" color="var(--mantine-color-gray-6)" />}
        </Group>
      ),
    },
    { key: 'status', header: 'Status', width: 100, visibleFrom: 'md', render: (m) => <MailStatusBadge status={m.details.status} /> },
    {
      key: 'view',
      header: <span style={{ position: 'absolute', left: -10000 }}>Actions</span>,
      width: 60,
      align: 'right',
      render: (m) => (
        <Tooltip label="View message">
          <ActionIcon variant="subtle" aria-label={`View message to ${m.details.to}`} onClick={(e) => { e.stopPropagation(); setOpen(m); }}>
            <IconEye size={18} />
          </ActionIcon>
        </Tooltip>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Outbox"
        description="Every e-mail Marquee sends: sign-up codes, invitations, password resets and tickets."
        actions={
          <Tooltip label="Refresh">
            <ActionIcon variant="default" size="lg" aria-label="Refresh" onClick={() => void list.refetch()} loading={list.isFetching}>
              <IconRefresh size={18} />
            </ActionIcon>
          </Tooltip>
        }
      />
      {context.mailOutbox && (
        <Alert variant="light" color="brand" icon={<IconInfoCircle size={18} />} mb="md">
          No mail server is configured (SMTP_URL), so messages are kept here instead of being delivered.
        </Alert>
      )}
      <Group mb="md">
        <SearchInput placeholder="Search by recipient" onSearch={setTo} w={{ base: '100%', sm: 360 }} />
      </Group>
      <PagedTable
        aria-label="Outbox messages"
        columns={columns}
        {...fromListQuery(list)}
        rowKey={(m) => m.id}
        pager={pager}
        onRowClick={setOpen}
        empty={
          <EmptyState
            bare
            icon={<IconMailOff size={28} stroke={1.6} />}
            title={to ? 'No messages to that recipient' : 'No messages yet'}
            description={to ? `Nothing was sent to an address containing “${to}”.` : 'Messages appear here as soon as Marquee sends them.'}
          />
        }
      />
      <MailViewModal mail={open} onClose={() => setOpen(null)} />
    </>
  );
}
