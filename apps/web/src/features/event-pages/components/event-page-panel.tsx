import { Alert, Anchor, Badge, Button, Card, Group, Image, Loader, Menu, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { isEventWritable, type TEvent, type TEventPage, type TEventPageDraft } from '@marquee/core';
import { IconDeviceDesktop, IconDeviceMobile, IconExternalLink, IconHistory, IconLayout, IconLayoutGrid, IconRocket } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { EmptyState } from '../../../ui/empty-state';
import { notify } from '../../../ui/notify';
import { publicEventUrl } from '../../../shared/tenant';
import { useEventAccess } from '../../../shared/access';
import { eventPagesApi } from '../api';
import type { Device } from './page-editor';

const PageEditor = lazy(() => import('./page-editor').then((m) => ({ default: m.PageEditor })));

const AUTOSAVE_MS = 1500;
const pageKey = (eventId: string) => ['event-page', eventId] as const;
const time = (iso: string) => new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });

function TemplatePicker({ tenantId, onPick, busy }: { tenantId: string; onPick: (id: string) => void; busy: boolean }) {
  const list = useQuery({ queryKey: ['event-page', 'templates', tenantId], queryFn: ({ signal }) => eventPagesApi.templates(tenantId, signal) });
  if (list.isPending) return <Loader />;
  if (!list.data?.result.length) {
    return <EmptyState icon={<IconLayoutGrid size={28} />} title="No templates yet" description="The platform has not published any site templates yet." />;
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
      {list.data.result.map((t) => (
        <Card key={t.id} withBorder padding="md" radius="md">
          <Card.Section>
            {t.details.thumbnail ? <Image src={t.details.thumbnail} alt="" h={140} fit="cover" /> : <div style={{ height: 140, background: 'var(--mantine-color-gray-1)' }} />}
          </Card.Section>
          <Stack gap={4} mt="sm">
            <Group justify="space-between">
              <Text fw={600}>{t.details.name}</Text>
              <Badge variant="light" tt="none">
                {t.details.version}
              </Badge>
            </Group>
            <Text fz="sm" c="dimmed" lineClamp={2}>
              {t.details.description}
            </Text>
            <Button mt="xs" variant="light" onClick={() => onPick(t.id)} loading={busy} aria-label={`Use ${t.details.name}`}>
              Use this template
            </Button>
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/**
 * The Page tab for someone who may not change the page (tenant staff, check-in staff, a cancelled
 * event): whether the event has a page of its own, and a link to it, instead of the editor (issue 21.14).
 */
function ReadOnlyPage({ event, page }: { event: TEvent; page: TEventPage }) {
  return (
    <EmptyState
      icon={<IconLayout size={28} stroke={1.6} />}
      title={page.liveVersion ? `The event page is live (version ${page.liveVersion})` : 'No page of its own'}
      description={
        page.liveVersion
          ? 'Attendees see the page the organiser designed for this event.'
          : 'Attendees see the standard event page, with the event details and the ticket menu.'
      }
      action={
        event.details.status !== 'draft' ? (
          <Anchor href={publicEventUrl(event.details.urlName)} target="_blank" fz="sm">
            <Group gap={4} component="span">
              View the page <IconExternalLink size={14} />
            </Group>
          </Anchor>
        ) : null
      }
    />
  );
}

/** The event's Page tab (issue 10): pick a template, edit it in GrapesJS, preview, publish, roll back. */
export function EventPagePanel({ event }: { event: TEvent }) {
  const { canEditEvent } = useEventAccess(event.tenantId, event.id);
  const page = useQuery({ queryKey: pageKey(event.id), queryFn: ({ signal }) => eventPagesApi.get(event.tenantId, event.id, signal) });
  if (page.isPending) return <Loader />;
  if (page.isError) return <Alert color="red">{errorMessage(page.error)}</Alert>;
  if (!canEditEvent || !isEventWritable(event.details.status)) return <ReadOnlyPage event={event} page={page.data} />;
  return <PageStudio event={event} />;
}

/** The organiser's side of the Page tab: template, editor, publish and versions. */
function PageStudio({ event }: { event: TEvent }) {
  const tenantId = event.tenantId;
  const client = useQueryClient();
  const page = useQuery({ queryKey: pageKey(event.id), queryFn: ({ signal }) => eventPagesApi.get(tenantId, event.id, signal) });
  const [device, setDevice] = useState<Device>('Desktop');
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [editorKey, setEditorKey] = useState(0);
  const [saveState, setSaveState] = useState<{ kind: 'saved'; at: string } | { kind: 'saving' } | { kind: 'failed'; message: string } | null>(null);
  const pending = useRef<TEventPageDraft | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const draft = pending.current;
    if (!draft) return;
    pending.current = null;
    setSaveState({ kind: 'saving' });
    try {
      const { draftSavedAt } = await eventPagesApi.saveDraft(tenantId, event.id, draft);
      setSaveState({ kind: 'saved', at: draftSavedAt });
    } catch (e) {
      pending.current ??= draft;
      setSaveState({ kind: 'failed', message: errorMessage(e) });
    }
  }, [tenantId, event.id]);

  useEffect(() => () => void flush(), [flush]);

  const onChange = (draft: TEventPageDraft) => {
    pending.current = draft;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), AUTOSAVE_MS);
  };

  const apply = (next: TEventPage) => client.setQueryData(pageKey(event.id), next);

  const run = async (action: () => Promise<TEventPage>, success: string | ((next: TEventPage) => [string, string])) => {
    setBusy(true);
    try {
      const next = await action();
      apply(next);
      if (typeof success === 'string') notify.success(success);
      else notify.success(...success(next));
    } catch (e) {
      notify.error('Something went wrong', errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  if (page.isPending) return <Loader />;
  if (page.isError) return <Alert color="red">{errorMessage(page.error)}</Alert>;
  const p = page.data;

  if (!p.draft || picking) {
    return (
      <Stack gap="md">
        <div>
          <Title order={3} fz="h4">
            Choose a template
          </Title>
          <Text c="dimmed" fz="sm">
            Your event page starts from a template. You can change every text, image and colour afterwards. {p.liveVersion ? 'Your published page stays live until you publish again.' : ''}
          </Text>
        </div>
        <TemplatePicker
          tenantId={tenantId}
          busy={busy}
          onPick={(id) =>
            void run(async () => {
              const next = await eventPagesApi.start(tenantId, event.id, id);
              setPicking(false);
              setEditorKey((k) => k + 1);
              return next;
            }, 'Template applied')
          }
        />
        {picking && (
          <Group>
            <Button variant="default" onClick={() => setPicking(false)}>
              Back to the editor
            </Button>
          </Group>
        )}
      </Stack>
    );
  }

  const url = publicEventUrl(event.details.urlName);
  /** Publishing replaces what attendees see at once: asked first, then said (issue 21.15). */
  const askPublish = () =>
    modals.openConfirmModal({
      title: 'Publish this page?',
      centered: true,
      children: (
        <Text fz="sm">
          {event.details.status === 'draft'
            ? 'The draft becomes the event’s page, shown to attendees once the event itself is published.'
            : `The draft replaces what attendees see at ${url} now${p.liveVersion ? ` (version ${p.liveVersion})` : ''}.`}{' '}
          Scripts, frames and event handlers are removed. You can put an earlier version back from Versions.
        </Text>
      ),
      labels: { confirm: 'Publish page', cancel: 'Cancel' },
      confirmProps: { 'data-testid': 'confirm-publish' } as Record<string, unknown>,
      onConfirm: () =>
        void run(
          async () => {
            await flush();
            return eventPagesApi.publish(tenantId, event.id);
          },
          (next) => [
            'Page published',
            event.details.status === 'draft'
              ? `Version ${next.liveVersion} is ready; attendees see it once the event is published.`
              : `Version ${next.liveVersion} is live at ${url}.`,
          ],
        ),
    });

  const savedLabel =
    saveState?.kind === 'saving' ? 'Saving…' : saveState?.kind === 'failed' ? `Not saved: ${saveState.message}` : `Draft saved ${time(saveState?.at ?? p.draftSavedAt ?? new Date().toISOString())}`;

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm">
          <SegmentedControl
            aria-label="Preview width"
            value={device}
            onChange={(v) => setDevice(v as Device)}
            data={[
              { value: 'Desktop', label: (<Group gap={6} wrap="nowrap"><IconDeviceDesktop size={16} />Desktop</Group>) },
              { value: 'Phone', label: (<Group gap={6} wrap="nowrap"><IconDeviceMobile size={16} />Phone</Group>) },
            ]}
          />
          <Text fz="sm" c={saveState?.kind === 'failed' ? 'red' : 'dimmed'} data-testid="draft-status" role="status">
            {savedLabel}
          </Text>
        </Group>
        <Group gap="sm">
          {p.liveVersion && (
            <Badge variant="light" color="teal" tt="none" size="lg">
              Live: version {p.liveVersion}
            </Badge>
          )}
          {p.versions.length > 0 && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button variant="default" leftSection={<IconHistory size={16} />}>
                  Versions
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item color="red" disabled={!p.liveVersion} onClick={() => void run(() => eventPagesApi.unpublish(tenantId, event.id), 'Page taken offline')}>
                  Take the page offline
                </Menu.Item>
                <Menu.Divider />
                <Menu.Label>Put a version back live</Menu.Label>
                {p.versions.map((v) => (
                  <Menu.Item
                    key={v.version}
                    disabled={v.version === p.liveVersion}
                    onClick={() => void run(() => eventPagesApi.rollback(tenantId, event.id, v.version), `Version ${v.version} is live again`)}
                  >
                    Version {v.version} · {new Date(v.publishedAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
          <Button variant="default" onClick={() => setPicking(true)} leftSection={<IconLayoutGrid size={16} />}>
            Change template
          </Button>
          {p.liveVersion && event.details.status !== 'draft' && (
            <Button component="a" href={url} target="_blank" variant="default" leftSection={<IconExternalLink size={16} />}>
              View page
            </Button>
          )}
          <Button leftSection={<IconRocket size={16} />} loading={busy} onClick={askPublish}>
            Publish page
          </Button>
        </Group>
      </Group>
      <Text fz="xs" c="dimmed">
        Double-click a text to edit it. The ticket menu appears on the live page where the template marks it. Scripts, frames and event handlers are removed when you publish.
      </Text>
      <Suspense fallback={<Loader />}>
        <PageEditor key={editorKey} draft={p.draft} device={device} onChange={onChange} />
      </Suspense>
    </Stack>
  );
}
