import { ActionIcon, Alert, Badge, Button, Checkbox, Code, CopyButton, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { API_KEY_SCOPE_LABELS, API_KEY_SCOPES, M, type ApiKeyScope, type TApiKey } from '@marquee/core';
import { IconCheck, IconCopy, IconKey, IconKeyOff, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage, isBadInput, isApiError } from '../../../ui/api-client';
import { confirmDelete } from '../../../ui/confirm-delete';
import { EmptyState } from '../../../ui/empty-state';
import { FormModal } from '../../../ui/form-modal';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { fromListQuery, PagedTable, useCursorPager, type Column } from '../../../ui/paged-table';
import type { KeyOwner } from '../api';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../queries';

const when = (iso: string | null, never = 'Never') =>
  iso ? new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' }) : never;

const STATUS_COLOR: Record<TApiKey['details']['status'], string> = { ACTIVE: 'green', REVOKED: 'gray', EXPIRED: 'orange' };
const STATUS_LABEL: Record<TApiKey['details']['status'], string> = { ACTIVE: 'Active', REVOKED: 'Revoked', EXPIRED: 'Expired' };

/** Issue 25: a tenant's API keys (owner = its id) or the platform's (owner = null). */
export function ApiKeysPage({ owner }: { owner: KeyOwner }) {
  const pager = useCursorPager();
  const list = useApiKeys(owner, { cursor: pager.cursor, limit: pager.limit });
  const revoke = useRevokeApiKey(owner);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const askRevoke = (k: TApiKey) =>
    confirmDelete({
      title: 'Revoke API key',
      confirmLabel: 'Revoke',
      message: `Revoke “${k.details.name}”? Apps using it stop working at once. This cannot be undone.`,
      onConfirm: async () => {
        try {
          await revoke.mutateAsync(k.id);
          notify.success(M.apiKeyRevoked);
        } catch (e) {
          notify.error('Could not revoke the key', errorMessage(e));
        }
      },
    });

  const columns: Column<TApiKey>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (k) => (
        <Stack gap={2}>
          <Text fz="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {k.details.name}
          </Text>
          <Code fz="xs" w="fit-content">
            {k.details.prefix}…
          </Code>
          <Group gap={6} hiddenFrom="sm">
            <Badge size="xs" color={STATUS_COLOR[k.details.status]} variant="light">
              {STATUS_LABEL[k.details.status]}
            </Badge>
            <Text fz="xs" c="dimmed">
              Last used: {when(k.details.lastUsedAt)}
            </Text>
          </Group>
        </Stack>
      ),
    },
    {
      key: 'scopes',
      header: 'Scopes',
      visibleFrom: 'sm',
      render: (k) => (
        <Group gap={4}>
          {k.details.scopes.map((s) => (
            <Badge key={s} variant="light" radius="sm" size="sm" tt="none">
              {API_KEY_SCOPE_LABELS[s]}
            </Badge>
          ))}
        </Group>
      ),
    },
    { key: 'status', header: 'Status', width: 120, visibleFrom: 'sm', render: (k) => <Badge color={STATUS_COLOR[k.details.status]} variant="light">{STATUS_LABEL[k.details.status]}</Badge> },
    { key: 'used', header: 'Last used', width: 170, visibleFrom: 'sm', render: (k) => <Text fz="sm" c="dimmed">{when(k.details.lastUsedAt)}</Text> },
    { key: 'expires', header: 'Expires', width: 170, visibleFrom: 'md', render: (k) => <Text fz="sm" c="dimmed">{when(k.details.expiresAt, 'No expiry')}</Text> },
    {
      key: 'actions',
      header: <span style={{ position: 'absolute', left: -10000 }}>Actions</span>,
      width: 56,
      align: 'right',
      render: (k) =>
        k.details.status === 'ACTIVE' ? (
          <Tooltip label="Revoke key">
            <ActionIcon variant="subtle" color="red" aria-label={`Revoke ${k.details.name}`} onClick={() => askRevoke(k)}>
              <IconKeyOff size={18} />
            </ActionIcon>
          </Tooltip>
        ) : null,
    },
  ];

  return (
    <>
      <PageHeader
        title="API Keys"
        description={
          owner
            ? 'Keys let your own apps and tools work with Marquee: read events and reports, sell tickets, check people in. Each key acts as you, within its scopes.'
            : 'Platform keys act as you across every tenant, within their scopes.'
        }
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            Create API Key
          </Button>
        }
      />
      {secret && (
        <Alert variant="light" color="green" icon={<IconKey size={18} />} mb="md" title={`${secret.name}: copy your key now`} withCloseButton onClose={() => setSecret(null)}>
          <Text fz="sm" mb="xs">
            {M.apiKeyCreated}
          </Text>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <Code block fz="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', flex: 1 }} data-testid="api-key-secret">
              {secret.secret}
            </Code>
            <CopyButton value={secret.secret}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'Copied' : 'Copy'}>
                  <ActionIcon variant="default" size="lg" aria-label="Copy key" onClick={copy}>
                    {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
        </Alert>
      )}
      <PagedTable
        aria-label="API keys"
        columns={columns}
        {...fromListQuery(list)}
        rowKey={(k) => k.id}
        pager={pager}
        empty={<EmptyState bare icon={<IconKey size={28} stroke={1.6} />} title="No API keys yet" description="Create a key to connect an app, a CRM or a badge printer." />}
      />
      <CreateKeyModal
        owner={owner}
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(name, value) => {
          setCreating(false);
          setSecret({ name, secret: value });
        }}
      />
    </>
  );
}

function CreateKeyModal({ owner, opened, onClose, onCreated }: { owner: KeyOwner; opened: boolean; onClose: () => void; onCreated: (name: string, secret: string) => void }) {
  const create = useCreateApiKey(owner);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['read']);
  const [expiresAt, setExpiresAt] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const reset = () => {
    setName('');
    setScopes(['read']);
    setExpiresAt(null);
    setFields({});
  };
  const close = () => {
    reset();
    onClose();
  };
  const submit = async () => {
    setFields({});
    try {
      const created = await create.mutateAsync({ details: { name, scopes, expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null } });
      reset();
      onCreated(created.details.name, created.secret);
    } catch (e) {
      if (isBadInput(e) && isApiError(e)) setFields(e.fields ?? {});
      else notify.error('Could not create the key', errorMessage(e));
    }
  };
  const scopeError = Object.entries(fields).find(([k]) => k.startsWith('details.scopes'))?.[1];
  return (
    <FormModal opened={opened} onClose={close} dirty={name !== '' || expiresAt !== null} busy={create.isPending} title="Create API Key" size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <TextInput label="Name" description="Who or what uses it, e.g. “Mobile app”." required value={name} onChange={(e) => setName(e.currentTarget.value)} error={fields['details.name']} maxLength={100} data-autofocus />
          <Checkbox.Group label="Scopes" description="What the key may do." required value={scopes} onChange={(v) => setScopes(v as ApiKeyScope[])} error={scopeError}>
            <Stack gap="xs" mt="xs">
              {API_KEY_SCOPES.map((s) => (
                <Checkbox key={s} value={s} label={API_KEY_SCOPE_LABELS[s]} />
              ))}
            </Stack>
          </Checkbox.Group>
          <DateTimePicker
            label="Expires"
            description="Optional. Leave empty for a key that lasts until it is revoked."
            clearable
            minDate={new Date()}
            value={expiresAt}
            onChange={(v) => setExpiresAt(v ? String(v) : null)}
            error={fields['details.expiresAt']}
            valueFormat="MMM D, YYYY h:mm A"
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create key
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}
