import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Menu,
  Modal,
  Pagination,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  ActionIcon,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import {
  M_WEBHOOKS,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  ZWebhookEndpointRequest,
  type TWebhookDelivery,
  type TWebhookEndpoint,
  type WebhookEventType,
} from '@marquee/core';
import { IconCheck, IconCopy, IconDots, IconKey, IconList, IconPlus, IconRefresh, IconTrash, IconWebhook } from '@tabler/icons-react';
import { useState } from 'react';
import { useSiteContext } from '../../../shared/site-context';
import { errorMessage } from '../../../ui/api-client';
import { askConfirmDelete } from '../../../ui/confirm-delete';
import { EmptyState } from '../../../ui/empty-state';
import { FormModal } from '../../../ui/form-modal';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { applyServerFields, zodValidate } from '../../../ui/zod-form';
import { endpointsBase } from '../api';
import { useCreateEndpoint, useDeleteEndpoint, useDeliveries, useEndpoints, useRedeliver, useRotateSecret, useUpdateEndpoint } from '../queries';

// Outgoing webhooks (issue 25): a tenant's endpoints on its console, the platform's on the
// platform console (they get every tenant's events). docs/webhooks.md tells receivers the rest.

const label = (t: string) => WEBHOOK_EVENT_LABELS[t as WebhookEventType] ?? t;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }) : '—');

export function WebhooksPage() {
  const context = useSiteContext();
  const base = endpointsBase(context.tenant?.id ?? null);
  const endpoints = useEndpoints(base);
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [log, setLog] = useState<TWebhookEndpoint | null>(null);

  return (
    <>
      <PageHeader
        title="Webhooks"
        description={
          context.tenant
            ? 'Send orders, refunds, check-ins and more to your own systems as they happen. Each request is signed (Standard Webhooks), so your receiver can check it came from us.'
            : "The platform's endpoints receive the chosen events of every tenant. Each request is signed (Standard Webhooks)."
        }
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            Add endpoint
          </Button>
        }
      />
      {endpoints.isPending ? (
        <Stack>
          <Skeleton h={120} />
          <Skeleton h={120} />
        </Stack>
      ) : endpoints.isError ? (
        <Alert color="red" title="Could not load the endpoints">
          {errorMessage(endpoints.error)}
        </Alert>
      ) : endpoints.data.result.length === 0 ? (
        <EmptyState
          icon={<IconWebhook size={28} stroke={1.6} />}
          title="No endpoints yet"
          description="Add the address of a receiver and choose the events it should get."
          action={
            <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
              Add endpoint
            </Button>
          }
        />
      ) : (
        <Stack gap="md">
          {endpoints.data.result.map((e) => (
            <EndpointCard key={e.id} base={base} endpoint={e} onSecret={(s) => setSecret({ url: e.details.url, secret: s })} onLog={() => setLog(e)} />
          ))}
        </Stack>
      )}
      <AddEndpointModal base={base} opened={adding} onClose={() => setAdding(false)} onCreated={(url, s) => setSecret({ url, secret: s })} />
      <SecretModal shown={secret} onClose={() => setSecret(null)} />
      <DeliveryLog base={base} endpoint={log} onClose={() => setLog(null)} />
    </>
  );
}

function EndpointCard({ base, endpoint, onSecret, onLog }: { base: string; endpoint: TWebhookEndpoint; onSecret: (s: string) => void; onLog: () => void }) {
  const d = endpoint.details;
  const update = useUpdateEndpoint(base);
  const remove = useDeleteEndpoint(base);
  const rotate = useRotateSecret(base);

  const toggle = (enabled: boolean) =>
    update.mutateAsync({ id: endpoint.id, body: { enabled } }).then(
      () => notify.success(enabled ? 'Endpoint turned on' : 'Endpoint turned off'),
      (e) => notify.error('Failed to update the endpoint', errorMessage(e)),
    );
  const onRotate = async () => {
    const ok = await askConfirmDelete({
      title: 'Rotate signing secret',
      message: 'A new secret signs from now on. For 24 hours every request also carries a signature with the current secret, so you can update your receiver without missing any.',
      confirmLabel: 'Rotate',
    });
    if (!ok) return;
    rotate.mutateAsync(endpoint.id).then(
      (a) => onSecret(a.secret),
      (e) => notify.error('Failed to rotate the secret', errorMessage(e)),
    );
  };
  const onDelete = async () => {
    const ok = await askConfirmDelete({ title: 'Delete endpoint', message: `Delete ${d.url}? No more events are sent to it, and its delivery log is deleted.` });
    if (!ok) return;
    remove.mutateAsync(endpoint.id).then(
      (a) => notify.success(a.message),
      (e) => notify.error('Failed to delete the endpoint', errorMessage(e)),
    );
  };

  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} fz="sm" style={{ overflowWrap: 'anywhere' }}>
              {d.url}
            </Text>
            {d.description && (
              <Text fz="sm" c="dimmed">
                {d.description}
              </Text>
            )}
          </Stack>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${d.url}`}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconKey size={16} />} onClick={onRotate}>
                Rotate secret
              </Menu.Item>
              <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={onDelete}>
                Delete
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
        <Group gap={6}>
          {d.eventTypes.map((t) => (
            <Badge key={t} variant="light" color="gray" radius="sm" tt="none">
              {label(t)}
            </Badge>
          ))}
        </Group>
        {!d.enabled && d.disabledReason === 'failing' && (
          <Alert color="orange" p="xs" fz="sm">
            Turned off after failing for more than a day. Turn it back on once your receiver works again.
          </Alert>
        )}
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Switch checked={d.enabled} onChange={(e) => void toggle(e.currentTarget.checked)} label={d.enabled ? 'On' : 'Off'} disabled={update.isPending} />
          <Group gap="xs">
            <Text fz="xs" c="dimmed">
              Secret {d.secretHint}
              {d.previousSecretUntil ? ` · old secret signs until ${when(d.previousSecretUntil)}` : ''}
            </Text>
            <Button variant="light" size="xs" leftSection={<IconList size={14} />} onClick={onLog}>
              Delivery log
            </Button>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}

type FormValues = { url: string; description: string; eventTypes: WebhookEventType[] };

function AddEndpointModal({ base, opened, onClose, onCreated }: { base: string; opened: boolean; onClose: () => void; onCreated: (url: string, secret: string) => void }) {
  const narrow = useMediaQuery('(max-width: 30em)');
  const create = useCreateEndpoint(base);
  const form = useForm<FormValues>({ initialValues: { url: '', description: '', eventTypes: ['order.paid'] }, validate: zodValidate(ZWebhookEndpointRequest) });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit((values) =>
    create.mutateAsync(values).then(
      (a) => {
        notify.success(M_WEBHOOKS.created);
        form.reset();
        onClose();
        onCreated(a.endpoint.details.url, a.secret);
      },
      (e) => {
        applyServerFields(form, e);
        notify.error('Failed to add the endpoint', errorMessage(e));
      },
    ),
  );
  return (
    <FormModal opened={opened} onClose={close} dirty={form.isDirty()} busy={create.isPending} title="Add endpoint" fullScreen={narrow} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Endpoint URL" placeholder="https://example.com/webhooks" required {...form.getInputProps('url')} />
          <TextInput label="Description" placeholder="CRM, mailing list, badge printer…" {...form.getInputProps('description')} />
          <Checkbox.Group label="Events" description="The events this endpoint receives." required {...form.getInputProps('eventTypes')}>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
              {WEBHOOK_EVENT_TYPES.map((t) => (
                <Checkbox key={t} value={t} label={WEBHOOK_EVENT_LABELS[t]} description={t} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Add endpoint
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}

function SecretModal({ shown, onClose }: { shown: { url: string; secret: string } | null; onClose: () => void }) {
  return (
    <Modal opened={!!shown} onClose={onClose} title="Signing secret" size="lg">
      {shown && (
        <Stack>
          <Text fz="sm">
            The secret of <b style={{ overflowWrap: 'anywhere' }}>{shown.url}</b>. Copy it into your receiver now: it is not shown again.
          </Text>
          <Group gap="xs" wrap="nowrap" align="center">
            <Code block style={{ flex: 1, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} data-testid="webhook-secret">
              {shown.secret}
            </Code>
            <CopyButton value={shown.secret}>
              {({ copied, copy }) => (
                <ActionIcon variant="light" size="lg" onClick={copy} aria-label={copied ? 'Copied' : 'Copy secret'} color={copied ? 'teal' : 'brand'}>
                  {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                </ActionIcon>
              )}
            </CopyButton>
          </Group>
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

const STATUS_COLOR: Record<TWebhookDelivery['details']['status'], string> = { succeeded: 'teal', pending: 'yellow', failed: 'red' };
const STATUS_LABEL: Record<TWebhookDelivery['details']['status'], string> = { succeeded: 'Delivered', pending: 'Retrying', failed: 'Failed' };
const PAGE = 10;

function DeliveryLog({ base, endpoint, onClose }: { base: string; endpoint: TWebhookEndpoint | null; onClose: () => void }) {
  const narrow = useMediaQuery('(max-width: 48em)');
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const [page, setPage] = useState(1);
  const list = useDeliveries(base, endpoint?.id ?? null, { cursor: cursors[page - 1], limit: PAGE });
  const redeliver = useRedeliver(base);
  const [open, setOpen] = useState<string | null>(null);
  const total = list.data ? Math.max(1, Math.ceil(list.data.count / PAGE)) : 1;
  const close = () => {
    setCursors([undefined]);
    setPage(1);
    setOpen(null);
    onClose();
  };
  const go = (p: number) => {
    if (p > page && list.data?.cursor) setCursors((c) => [...c.slice(0, p - 1), list.data!.cursor ?? undefined]);
    setPage(p);
  };

  return (
    <Modal opened={!!endpoint} onClose={close} title="Delivery log" size="xl" fullScreen={narrow}>
      {endpoint && (
        <Stack gap="sm">
          <Text fz="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {endpoint.details.url}
          </Text>
          {list.isPending ? (
            <Skeleton h={160} />
          ) : list.isError ? (
            <Alert color="red">{errorMessage(list.error)}</Alert>
          ) : list.data.result.length === 0 ? (
            <EmptyState bare title="Nothing sent yet" description="Deliveries show here once an event this endpoint listens for happens." />
          ) : (
            list.data.result.map((row) => {
              const d = row.details;
              return (
                <Card key={row.id} withBorder radius="md" padding="sm">
                  <Stack gap={6}>
                    <Group justify="space-between" gap="xs" wrap="wrap">
                      <Group gap="xs">
                        <Badge color={STATUS_COLOR[d.status]} variant="light">
                          {STATUS_LABEL[d.status]}
                        </Badge>
                        <Text fz="sm" fw={600}>
                          {label(d.eventType)}
                        </Text>
                      </Group>
                      <Button
                        size="xs"
                        variant="default"
                        leftSection={<IconRefresh size={14} />}
                        loading={redeliver.isPending && redeliver.variables?.deliveryId === row.id}
                        onClick={() =>
                          redeliver.mutateAsync({ id: endpoint.id, deliveryId: row.id }).then(
                            (a) => notify.success(a.message),
                            (e) => notify.error('Failed to send it again', errorMessage(e)),
                          )
                        }
                      >
                        Redeliver
                      </Button>
                    </Group>
                    <Text fz="xs" c="dimmed">
                      {when(d.lastAttemptAt ?? d.dateCreated)} · {d.responseStatus !== null ? `HTTP ${d.responseStatus}` : 'no answer'}
                      {d.durationMs !== null ? ` · ${d.durationMs} ms` : ''} · {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}
                      {d.status === 'pending' && d.nextAttemptAt ? ` · next ${when(d.nextAttemptAt)}` : ''}
                    </Text>
                    {d.error && (
                      <Text fz="xs" c="red.8">
                        {d.error}
                      </Text>
                    )}
                    <Button variant="subtle" size="compact-xs" w="fit-content" onClick={() => setOpen(open === row.id ? null : row.id)}>
                      {open === row.id ? 'Hide details' : 'Show details'}
                    </Button>
                    {open === row.id && (
                      <Stack gap={4}>
                        <Text fz="xs" fw={600}>
                          Sent
                        </Text>
                        <Code block fz="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 220, overflow: 'auto' }}>
                          {prettyJson(d.payloadPreview)}
                        </Code>
                        <Text fz="xs" fw={600}>
                          Response
                        </Text>
                        <Code block fz="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 160, overflow: 'auto' }}>
                          {d.responseBody || '(empty)'}
                        </Code>
                      </Stack>
                    )}
                  </Stack>
                </Card>
              );
            })
          )}
          {total > 1 && <Pagination total={total} value={page} onChange={go} size="sm" />}
        </Stack>
      )}
    </Modal>
  );
}

function prettyJson(text: string) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
