import { Alert, Anchor, Button, CopyButton, Divider, Grid, Group, Paper, SimpleGrid, Stack, Text, TextInput, Textarea, Title, Tooltip, ActionIcon } from '@mantine/core';
import { useForm } from '@mantine/form';
import { formatPhone, isTenantEditable, M, phoneDigits, ZUpdateTenantRequest, type TTenant, type TUpdateTenantRequest } from '@marquee/core';
import { IconCheck, IconCopy, IconExternalLink, IconLock } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import { errorMessage, isApiError } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { PhoneInput } from '../../../ui/phone-input';
import { applyServerFields, zodValidate } from '../../../ui/zod-form';
import { useUpdateTenant } from '../../tenants/mutations';
import { TenantStatusBadge } from '../../tenants/components/tenant-status-badge';
import { TenantLogoField } from './tenant-logo-field';
import { TenantBrandColorField } from './tenant-brand-color-field';

type Values = { details: { phone: string; inviteTemplateSubject: string; inviteTemplateBody: string; url: string } };

const toValues = (t: TTenant): Values => ({
  details: {
    phone: formatPhone(t.details.phone),
    inviteTemplateSubject: t.details.inviteTemplateSubject,
    inviteTemplateBody: t.details.inviteTemplateBody,
    url: t.details.url,
  },
});

/** spec: accounts §7 update tenant basic info: only what changed is sent. */
export function changedTenantFields(before: Values, after: Values, withUrl: boolean): TUpdateTenantRequest['details'] {
  const a = before.details;
  const b = after.details;
  const out: TUpdateTenantRequest['details'] = {};
  if (phoneDigits(a.phone) !== phoneDigits(b.phone) || !!a.phone !== !!b.phone) out.phone = b.phone;
  if (a.inviteTemplateSubject !== b.inviteTemplateSubject) out.inviteTemplateSubject = b.inviteTemplateSubject;
  if (a.inviteTemplateBody !== b.inviteTemplateBody) out.inviteTemplateBody = b.inviteTemplateBody;
  if (withUrl && a.url !== b.url) out.url = b.url;
  return out;
}

function ReadOnly({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <Stack gap={2} style={{ minWidth: 0, gridColumn: wide ? '1 / -1' : undefined }}>
      <Text fz="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: 0.4 }}>
        {label}
      </Text>
      <Text component="div" fz="sm" style={{ wordBreak: 'break-word' }}>
        {children}
      </Text>
    </Stack>
  );
}

export type TenantInfoFormProps = {
  tenant: TTenant;
  /** The person may write (platform writer, or the tenant's admin). */
  canWrite: boolean;
  /** The platform may move a tenant's site to another URL; a tenant may not. */
  allowUrlEdit?: boolean;
  /** Who reads the form: the URL hint speaks to the organiser or to a Marquee operator. */
  audience?: 'tenant' | 'platform';
  /** Extra actions beside Save (the platform's Delete). */
  actions?: ReactNode;
};

/** Tenant Basic Information (spec: accounts §2 screen 12), for the platform and the tenant console. */
export function TenantInfoForm({ tenant, canWrite, allowUrlEdit = false, audience = 'tenant', actions }: TenantInfoFormProps) {
  const update = useUpdateTenant(tenant.id);
  const editable = isTenantEditable(tenant.details.status);
  const disabled = !editable || !canWrite;
  const form = useForm<Values>({
    initialValues: toValues(tenant),
    validate: zodValidate(ZUpdateTenantRequest, (v: Values) => ({ details: allowUrlEdit ? v.details : { ...v.details, url: undefined } })),
    validateInputOnBlur: true,
  });

  // What is saved, as state: a save re-renders with the new starting point.
  const [saved, setSaved] = useState<Values>(() => toValues(tenant));

  useEffect(() => {
    const next = toValues(tenant);
    const untouched = Object.keys(changedTenantFields(saved, form.values, allowUrlEdit)).length === 0;
    setSaved(next);
    form.setInitialValues(next);
    if (untouched) form.setValues(next);
  }, [tenant]);

  const changes = changedTenantFields(saved, form.values, allowUrlEdit);
  const dirty = Object.keys(changes).length > 0;

  const save = form.onSubmit(
    () =>
      update.mutate(changes, {
        onSuccess: (tenantSaved) => {
          const next = toValues(tenantSaved);
          setSaved(next);
          form.setInitialValues(next);
          form.setValues(next);
          notify.success(M.success, M.successfullyUpdated);
        },
        onError: (e) => {
          if (isApiError(e)) {
            applyServerFields(form, e);
            if (e.domainCode === 'TENANT_URL_TAKEN') form.setFieldError('details.url', e.message);
          }
          notify.error(M.tenantUpdateFailed, errorMessage(e));
        },
      }),
    () => notify.error(M.tenantUpdateFailed, M.inputValidationError, { id: 'tenant-info-invalid' }),
  );

  return (
    <Stack gap="lg">
      {!editable && (
        <Alert color="red" variant="light" icon={<IconLock size={18} />} data-testid="tenant-disabled">
          {M.tenantDisabled}
        </Alert>
      )}
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <Grid gutter="xl">
          <Grid.Col span={{ base: 12, sm: 'content' }}>
            <TenantLogoField tenant={tenant} disabled={disabled} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 'auto' }}>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" verticalSpacing="md">
              <ReadOnly label="Name">{tenant.details.name}</ReadOnly>
              <ReadOnly label="Email">{tenant.details.email}</ReadOnly>
              <ReadOnly label="Status">
                <TenantStatusBadge status={tenant.details.status} />
              </ReadOnly>
              <ReadOnly label="Site">
                <Anchor href={tenant.details.siteUrl} target="_blank" rel="noreferrer" fz="sm">
                  <Group gap={4} wrap="nowrap" component="span">
                    {tenant.details.siteUrl.replace(/^https?:\/\//, '')}
                    <IconExternalLink size={13} />
                  </Group>
                </Anchor>
              </ReadOnly>
              <ReadOnly label="Tenant ID" wide>
                <Group gap={4} wrap="nowrap">
                  <Text fz="sm" ff="monospace" truncate>
                    {tenant.id}
                  </Text>
                  <CopyButton value={tenant.id}>
                    {({ copied, copy }) => (
                      <Tooltip label={copied ? 'Copied' : 'Copy'}>
                        <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} size="sm" onClick={copy} aria-label="Copy tenant ID">
                          {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </CopyButton>
                </Group>
              </ReadOnly>
            </SimpleGrid>
          </Grid.Col>
        </Grid>
      </Paper>

      <TenantBrandColorField tenant={tenant} disabled={disabled} />

      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <form onSubmit={save} noValidate aria-label="Tenant Basic Information">
          <Stack gap="md">
            <div>
              <Title order={3} fz="md">
                Contact and invitation
              </Title>
              <Text fz="sm" c="dimmed">
                The phone number attendees and Marquee reach the organiser on, and the e-mail that invites staff.
              </Text>
            </div>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <PhoneInput label="Phone" required disabled={disabled} {...form.getInputProps('details.phone')} />
              {allowUrlEdit ? (
                <TextInput
                  label="URL"
                  required
                  disabled={disabled}
                  inputWrapperOrder={['label', 'input', 'description', 'error']}
                  description="Changing it moves the tenant's site to a new address."
                  {...form.getInputProps('details.url')}
                />
              ) : (
                <TextInput
                  label="URL"
                  value={tenant.details.url}
                  disabled
                  readOnly
                  inputWrapperOrder={['label', 'input', 'description', 'error']}
                  description={audience === 'platform' ? M.tenantUrlReadOnlyHint : M.tenantUrlTenantHint}
                />
              )}
            </SimpleGrid>
            <Divider />
            <TextInput label="Invite Subject" required disabled={disabled} {...form.getInputProps('details.inviteTemplateSubject')} />
            <Textarea label="Invite Message" required autosize minRows={4} maxRows={12} disabled={disabled} {...form.getInputProps('details.inviteTemplateBody')} />
            <Group justify="space-between" gap="sm" mt="xs">
              <Group gap="sm">{actions}</Group>
              {!disabled && (
                <Group gap="sm">
                  <Button variant="default" disabled={!dirty || update.isPending} onClick={() => { form.setValues(saved); form.clearErrors(); }}>
                    Discard changes
                  </Button>
                  <Button type="submit" loading={update.isPending} disabled={!dirty}>
                    Save
                  </Button>
                </Group>
              )}
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
