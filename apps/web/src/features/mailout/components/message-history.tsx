import { Badge, Group, Modal, Progress, Stack, Text, Typography } from '@mantine/core';
import type { TAttendeeMessage, TEvent } from '@marquee/core';
import { IconMailOff } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyState } from '../../../ui/empty-state';
import { fromListQuery, PagedTable, useCursorPager, type Column } from '../../../ui/paged-table';
import { formatInZone } from '../../../ui/time';
import { useAttendeeMessages } from '../queries';

const recipientsOf = (m: TAttendeeMessage) => (m.details.recipients === 'all' ? 'All attendees' : m.details.ticketTypeNames.join(', '));

/** Queued / sending n of m / sent / failed, as the job reports it. */
export function MessageStatus({ message }: { message: TAttendeeMessage }) {
  const { status, sent, total, optedOut } = message.details;
  const of = total === null ? '' : ` of ${total.toLocaleString('en-US')}`;
  if (status === 'queued')
    return (
      <Badge color="gray" variant="light" radius="sm">
        Queued
      </Badge>
    );
  if (status === 'sending')
    return (
      <Stack gap={4} miw={110} maw={160}>
        <Badge color="blue" variant="light" radius="sm" style={{ alignSelf: 'flex-start' }}>
          Sending
        </Badge>
        <Text fz="xs">
          {sent.toLocaleString('en-US')}
          {of} sent
        </Text>
        <Progress value={total ? (sent / total) * 100 : 0} size="sm" aria-label={`Sent ${sent}${of}`} />
      </Stack>
    );
  if (status === 'failed')
    return (
      <Stack gap={2}>
        <Badge color="red" variant="light" radius="sm">
          Failed
        </Badge>
        <Text fz="xs">
          {sent.toLocaleString('en-US')}
          {of} sent
        </Text>
      </Stack>
    );
  return (
    <Stack gap={2}>
      <Badge color="teal" variant="light" radius="sm">
        Sent
      </Badge>
      <Text fz="xs">
        to {sent.toLocaleString('en-US')} {sent === 1 ? 'address' : 'addresses'}
        {optedOut > 0 && `, ${optedOut.toLocaleString('en-US')} unsubscribed`}
      </Text>
    </Stack>
  );
}

export type MessageHistoryProps = { event: TEvent };

/** The event's sent messages: subject, recipients, status, sent at, by whom (issue 15). */
export function MessageHistory({ event }: MessageHistoryProps) {
  const pager = useCursorPager({ defaultPageSize: 10 });
  const list = useAttendeeMessages(event.id, { cursor: pager.cursor, limit: pager.limit });
  const [openId, setOpenId] = useState<string | null>(null);
  // The open message follows the list, so its progress moves while it is being sent.
  const open = list.data?.result.find((m) => m.id === openId) ?? null;
  const zone = event.details.timeZone;

  const columns: Column<TAttendeeMessage>[] = [
    {
      key: 'subject',
      header: 'Subject',
      render: (m) => (
        <Stack gap={0}>
          <Text fz="sm" fw={500} lineClamp={2}>
            {m.details.subject}
          </Text>
          <Text fz="xs" c="dimmed" hiddenFrom="md">
            {recipientsOf(m)}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'recipients',
      header: 'Recipients',
      visibleFrom: 'md',
      render: (m) => (
        <Group gap={6}>
          <Text fz="sm">{recipientsOf(m)}</Text>
          {m.details.marketing && (
            <Badge size="sm" variant="outline" color="grape" radius="sm">
              Marketing
            </Badge>
          )}
        </Group>
      ),
    },
    { key: 'status', header: 'Status', width: 170, render: (m) => <MessageStatus message={m} /> },
    {
      key: 'sent',
      header: 'Sent at',
      visibleFrom: 'sm',
      render: (m) => <Text fz="sm">{formatInZone(m.details.dateSent ?? m.details.dateCreated, zone, { withWeekday: false })}</Text>,
    },
    { key: 'by', header: 'By', visibleFrom: 'lg', render: (m) => <Text fz="sm">{m.details.createdBy}</Text> },
  ];

  return (
    <>
      <Text component="h3" fw={600} fz="md" mb="sm" id="history-heading">
        Sent messages
      </Text>
      <PagedTable
        aria-label="Sent messages"
        columns={columns}
        {...fromListQuery(list)}
        loading={list.isPending}
        rowKey={(m) => m.id}
        pager={pager}
        onRowClick={(m) => setOpenId(m.id)}
        minWidth={0}
        empty={<EmptyState bare icon={<IconMailOff size={28} stroke={1.6} />} title="No messages sent yet" description="Messages you send to this event’s attendees are listed here." />}
      />
      <Modal opened={open !== null} onClose={() => setOpenId(null)} title={open?.details.subject} size="lg" centered>
        {open && (
          <Stack gap="md">
            <Group gap="lg" align="flex-start">
              <MessageStatus message={open} />
              <Text fz="sm" c="dimmed">
                {recipientsOf(open)} · by {open.details.createdBy} · {formatInZone(open.details.dateCreated, zone, { withWeekday: false })}
              </Text>
            </Group>
            <Typography>
              {/* The server keeps only the safe subset of the HTML (the policies' allow-list). */}
              <div dangerouslySetInnerHTML={{ __html: open.details.body }} />
            </Typography>
          </Stack>
        )}
      </Modal>
    </>
  );
}
