import { ActionIcon, Alert, Anchor, Badge, Box, Button, Card, Container, Group, Progress, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { TCheckinTicket } from '@marquee/core';
import { IconArrowLeft, IconCloudOff, IconPencil, IconRefresh, IconSearch } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTenantId } from '../../../shared/tenant';
import { errorMessage } from '../../../ui/api-client';
import { displayName, useSession } from '../../../ui/session';
import { useEvent } from '../../events/queries';
import { checkinApi } from '../api';
import { signal, unlockSound } from '../feedback';
import { registerCheckinWorker } from '../service-worker';
import { useCheckinDesk, useDevice, type DeskAnswer } from '../use-checkin-desk';
import { CameraScanner } from './camera-scanner';
import { ConflictList } from './conflict-list';
import { ScanResult } from './scan-result';
import { TicketRow } from './ticket-row';

/** /events/:eventId/check-in: the door, made for a phone held in one hand (issue 11). */
export function CheckinPage() {
  const { eventId = '' } = useParams();
  const tenantId = useTenantId();
  const event = useEvent(eventId);
  const { device, rename } = useDevice();
  const { user } = useSession();
  const userName = user ? displayName(user) : null;
  const scanner = useMemo(() => (user && userName ? { id: user.id, name: userName } : null), [user?.id, userName]);
  const desk = useCheckinDesk({ tenantId, eventId, device, scanner });
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<'scan' | 'search'>('scan');
  const [answer, setAnswer] = useState<DeskAnswer | null>(null);
  const [scanError, setScanError] = useState<string | null>(null);

  useEffect(() => registerCheckinWorker(), []);

  const counters = useQuery({
    queryKey: ['checkin', tenantId, eventId, 'counters'],
    queryFn: () => checkinApi.counters(tenantId, eventId),
    refetchInterval: 10_000,
    enabled: desk.online,
    retry: false,
  });
  // The server's counters count every door, but only once they were read after this device's last
  // offline admission and its sync: until then (and while scans wait to be sent) the device's own list
  // counts, so the figure never drops back when the network returns (issue 21.13).
  const serverCurrent = desk.online && desk.queued === 0 && !desk.syncing && !!counters.data && counters.dataUpdatedAt > desk.settledAt;
  const counts = serverCurrent ? counters.data! : desk.counts;
  useEffect(() => {
    if (desk.settledAt > 0) void queryClient.invalidateQueries({ queryKey: ['checkin', tenantId, eventId, 'counters'] });
  }, [desk.settledAt, queryClient, tenantId, eventId]);

  const submit = useCallback(
    async (input: { code: string } | { ticketId: string }) => {
      setScanError(null);
      try {
        const result = await desk.scan(input);
        setAnswer(result);
        signal(result.result === 'admitted' ? 'admitted' : 'refused');
        void queryClient.invalidateQueries({ queryKey: ['checkin', tenantId, eventId, 'counters'] });
      } catch (e) {
        setScanError(errorMessage(e));
        signal('refused');
      }
    },
    [desk, queryClient, tenantId, eventId],
  );

  const undo = useCallback(async () => {
    if (!answer) return;
    try {
      await desk.undo(answer);
      setAnswer(null);
      void queryClient.invalidateQueries({ queryKey: ['checkin', tenantId, eventId, 'counters'] });
    } catch (e) {
      setScanError(errorMessage(e));
      setAnswer(null);
    }
  }, [answer, desk, queryClient, tenantId, eventId]);

  // Offline after a reload the event cannot be fetched: the name kept with the ticket list stands in.
  const eventName = event.data?.details.name ?? desk.eventName ?? '';
  const liveName = event.data?.details.name;
  useEffect(() => {
    if (liveName) desk.rememberEventName(liveName);
  }, [liveName, desk.rememberEventName]);
  /** Scans this person made offline that wait to be sent (others' wait for them). */
  const mine = desk.queued - desk.queuedByOthers.reduce((n, o) => n + o.count, 0);
  const percent = counts && counts.sold > 0 ? Math.round((counts.checkedIn / counts.sold) * 100) : 0;

  return (
    <Box mih="100dvh" bg="gray.0" onPointerDown={unlockSound}>
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)', position: 'sticky', top: 0, zIndex: 10 }}>
        <Container size="sm" px="md" py="xs">
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
              <ActionIcon component={Link} to={`/events/${eventId}`} variant="subtle" size="xl" aria-label="Back to the event">
                <IconArrowLeft size={24} />
              </ActionIcon>
              <Box style={{ minWidth: 0 }}>
                <Title order={1} fz={20} lh={1.2}>
                  Check-in
                </Title>
                <Text fz="sm" c="gray.7" truncate>
                  {eventName || '\u00a0'}
                </Text>
              </Box>
            </Group>
            {desk.online ? (
              <Badge color="green" variant="light" size="lg">
                Online
              </Badge>
            ) : (
              <Badge color="orange" variant="filled" size="lg" leftSection={<IconCloudOff size={14} />}>
                Offline
              </Badge>
            )}
          </Group>
        </Container>
      </Box>

      <Container size="sm" px="md" py="md">
        <Stack gap="md">
          <Card withBorder radius="md" padding="md" aria-label="Check-in counters">
            <Group justify="space-between" align="baseline">
              <Text fz={32} fw={800} lh={1} data-testid="checked-in-count">
                {counts ? counts.checkedIn : '–'}
                <Text span fz={20} fw={600} c="gray.7">
                  {' '}/ {counts ? counts.sold : '–'}
                </Text>
              </Text>
              <Text fz="sm" c="gray.7">
                checked in
              </Text>
            </Group>
            <Progress value={percent} size="lg" mt="sm" color="green" aria-label={`${percent}% checked in`} />
            {counts && counts.byType.length > 1 && (
              <Stack gap={4} mt="sm">
                {counts.byType.map((t) => (
                  <Group key={t.ticketTypeId} justify="space-between" fz="sm">
                    <Text fz="sm">{t.name}</Text>
                    <Text fz="sm" fw={600}>
                      {t.checkedIn} / {t.sold}
                    </Text>
                  </Group>
                ))}
              </Stack>
            )}
          </Card>

          {desk.queuedByOthers.length > 0 && (
            <Alert color="gray" variant="light" icon={<IconCloudOff size={20} />} title="Scans by someone else" data-testid="queued-by-others">
              <Text fz="sm">
                {desk.queuedByOthers.map((o) => `${o.count === 1 ? '1 scan' : `${o.count} scans`} by ${o.name}`).join(', ')} made offline on this device wait
                until the person who scanned signs in here again: only they can send their scans.
              </Text>
            </Alert>
          )}
          {(mine > 0 || !desk.online) && (
            <Alert color="orange" variant="light" icon={<IconCloudOff size={20} />} title={desk.online ? 'Sending offline scans' : 'Offline'} role="status">
              <Group justify="space-between" gap="xs">
                <Text fz="sm">
                  {mine === 1 ? '1 scan waiting' : `${mine} scans waiting`} to be sent.
                  {!desk.online && ' Tickets are checked against this device’s list until the network is back.'}
                </Text>
                {desk.online && mine > 0 && (
                  <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} loading={desk.syncing} onClick={() => void desk.sync()}>
                    Send now
                  </Button>
                )}
              </Group>
            </Alert>
          )}
          {desk.conflicts.length > 0 && <ConflictList conflicts={desk.conflicts} onDismiss={() => void desk.dismissConflicts()} />}
          {desk.loadError && !desk.manifest && (
            <Alert color="red" title="The ticket list could not be loaded">
              {desk.loadError}
            </Alert>
          )}
          {scanError && (
            <Alert color="red" withCloseButton onClose={() => setScanError(null)} role="alert">
              {scanError}
            </Alert>
          )}

          <SegmentedControl
            fullWidth
            size="md"
            value={mode}
            onChange={(v) => setMode(v as 'scan' | 'search')}
            data={[
              { value: 'scan', label: 'Scan' },
              { value: 'search', label: 'Search' },
            ]}
            aria-label="Scan or search"
          />
          {mode === 'scan' ? (
            <Stack gap="xs">
              <CameraScanner paused={!!answer} onCode={(code) => void submit({ code })} />
              <Text fz="sm" c="gray.7" ta="center">
                Hold the ticket’s QR code inside the frame.
              </Text>
            </Stack>
          ) : (
            <TicketSearch tenantId={tenantId} eventId={eventId} online={desk.online} localTickets={desk.manifest?.tickets ?? []} onCheckIn={(ticketId) => void submit({ ticketId })} />
          )}

          <DeviceName name={device?.name ?? ''} onRename={(n) => void rename(n)} />
        </Stack>
      </Container>
      {answer && <ScanResult answer={answer} onNext={() => setAnswer(null)} onUndo={() => void undo()} />}
    </Box>
  );
}

function TicketSearch({
  tenantId,
  eventId,
  online,
  localTickets,
  onCheckIn,
}: {
  tenantId: string;
  eventId: string;
  online: boolean;
  localTickets: TCheckinTicket[];
  onCheckIn: (ticketId: string) => void;
}) {
  const [q, setQ] = useState('');
  const [term] = useDebouncedValue(q.trim(), 250);
  const remote = useQuery({
    queryKey: ['checkin', tenantId, eventId, 'search', term],
    queryFn: () => checkinApi.search(tenantId, eventId, term),
    enabled: online && term.length >= 2,
    retry: false,
  });
  const local = useMemo(() => {
    if (term.length < 2) return [];
    const needle = term.toLowerCase();
    return localTickets
      .filter((t) => [t.fullName, t.email, t.orderId, t.ticketUid, t.id].some((v) => v.toLowerCase().includes(needle)))
      .slice(0, 20);
  }, [term, localTickets]);
  const results = online && remote.data ? remote.data.result.map((r) => localTickets.find((t) => t.id === r.id) ?? r) : local;
  return (
    <Stack gap="sm">
      <TextInput
        size="md"
        label="Find a ticket"
        description="Name, e-mail, order ID or ticket ID"
        leftSection={<IconSearch size={18} />}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        autoComplete="off"
      />
      {term.length >= 2 && results.length === 0 && !remote.isFetching && (
        <Text c="gray.7" fz="sm">
          No ticket matches “{term}”.
        </Text>
      )}
      {results.map((t) => (
        <TicketRow key={t.id} ticket={t} onCheckIn={() => onCheckIn(t.id)} />
      ))}
    </Stack>
  );
}

function DeviceName({ name, onRename }: { name: string; onRename: (name: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);
  useEffect(() => setValue(name), [name]);
  if (!editing) {
    return (
      <Group gap="xs" justify="center">
        <Text fz="sm" c="gray.7">
          This device: <b>{name}</b>
        </Text>
        <Anchor component="button" type="button" fz="sm" onClick={() => setEditing(true)}>
          <Group gap={4} component="span">
            <IconPencil size={14} aria-hidden /> Rename
          </Group>
        </Anchor>
      </Group>
    );
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onRename(value);
        setEditing(false);
      }}
    >
      <Group gap="xs" align="end">
        <TextInput label="Device name" description="Shown to other doors when this device admits a ticket" value={value} onChange={(e) => setValue(e.currentTarget.value)} maxLength={40} style={{ flex: 1 }} />
        <Button type="submit">Save</Button>
      </Group>
    </form>
  );
}
