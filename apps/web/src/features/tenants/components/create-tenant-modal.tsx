import { Button, Group, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { M, tenantUrlFromName, ZCreateTenantRequest, type TTenant } from '@marquee/core';
import { useState } from 'react';
import { errorMessage, isApiError } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { PhoneInput } from '../../../ui/phone-input';
import { applyServerFields, zodValidate } from '../../../ui/zod-form';
import { useCreateTenant } from '../mutations';
import { FormModal } from '../../../ui/form-modal';

// spec: accounts-admin-fees §9 toast durations: 7000 ms for tenant created.
export const TENANT_CREATED_TOAST_MS = 7000;

type Values = {
  details: { name: string; email: string; phone: string; url: string; inviteTemplateSubject: string; inviteTemplateBody: string };
};

const EMPTY: Values = { details: { name: '', email: '', phone: '', url: '', inviteTemplateSubject: '', inviteTemplateBody: '' } };

/** The host a tenant's site gets: {url}.{this host}. */
export const siteHostFor = (url: string) => `${url || 'your-tenant'}.${window.location.host}`;

/** Moves the focus to the form's first field marked invalid, once the errors are on screen. */
function focusFirstInvalid() {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('form[aria-label="Create New Tenant"] [aria-invalid="true"]')?.focus());
}

export type CreateTenantModalProps = { opened: boolean; onClose: () => void; onCreated: (tenant: TTenant) => void };

export function CreateTenantModal({ opened, onClose, onCreated }: CreateTenantModalProps) {
  const create = useCreateTenant();
  const [urlEdited, setUrlEdited] = useState(false);
  const form = useForm<Values>({
    initialValues: EMPTY,
    validate: zodValidate(ZCreateTenantRequest),
    validateInputOnBlur: true,
  });

  const close = () => {
    if (create.isPending) return;
    form.reset();
    setUrlEdited(false);
    onClose();
  };

  const submit = form.onSubmit(
    (values) => {
      create.mutate(values, {
        onSuccess: (tenant) => {
          notify.success(`${tenant.details.name} created`, `Tenant ID: ${tenant.id} · URL: ${tenant.details.siteUrl}`, {
            duration: TENANT_CREATED_TOAST_MS,
          });
          form.reset();
          setUrlEdited(false);
          onCreated(tenant);
        },
        onError: (e) => {
          const message = errorMessage(e);
          // A refusal the form can show beside its field is shown there only (issue 21.19: no
          // 'Add Tenant Failed / Input Validation Error' on top of clear inline errors).
          applyServerFields(form, e);
          const inline = isApiError(e) && (Object.keys(e.fields).some((f) => f.startsWith('details.')) || e.domainCode === 'TENANT_URL_TAKEN');
          if (isApiError(e) && e.domainCode === 'TENANT_URL_TAKEN') form.setFieldError('details.url', message);
          if (inline) return focusFirstInvalid();
          if (isApiError(e) && e.domainCode === 'TENANT_SETTINGS_FAILED') notify.error(M.tenantSettingsFailed, 'The tenant was not created. Please try again.');
          else notify.error(M.addTenantFailed, message);
        },
      });
    },
    // Invalid fields say why beside themselves; the first one gets the focus.
    () => focusFirstInvalid(),
  );

  const nameProps = form.getInputProps('details.name');
  const urlProps = form.getInputProps('details.url');

  return (
    <FormModal dirty={form.isDirty()} busy={create.isPending} opened={opened} onClose={close} title="Create New Tenant" size="lg" centered>
      <form onSubmit={submit} noValidate aria-label="Create New Tenant">
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="Tenant Name"
              placeholder="Acme Events"
              required
              data-autofocus
              {...nameProps}
              onChange={(e) => {
                const name = e.currentTarget.value;
                form.setFieldValue('details.name', name);
                // spec: accounts §5: the URL is derived from the name while nobody has edited it.
                if (!urlEdited) form.setFieldValue('details.url', tenantUrlFromName(name));
              }}
            />
            <TextInput label="Email" placeholder="hello@acme.com" type="email" required {...form.getInputProps('details.email')} />
            <PhoneInput label="Phone" required {...form.getInputProps('details.phone')} />
            <TextInput
              label="URL"
              placeholder="acme-events"
              required
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              description={
                <Text component="span" fz="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                  Site: {siteHostFor(form.values.details.url)}
                </Text>
              }
              {...urlProps}
              onChange={(e) => {
                setUrlEdited(true);
                form.setFieldValue('details.url', e.currentTarget.value);
              }}
            />
          </SimpleGrid>
          <TextInput
            label="Invite Subject"
            required
            description="The subject of the e-mail that invites the tenant's staff."
            {...form.getInputProps('details.inviteTemplateSubject')}
          />
          <Textarea
            label="Invite Message"
            description="The message of that e-mail, above the link to accept the invitation."
            required
            autosize
            minRows={3}
            maxRows={8}
            {...form.getInputProps('details.inviteTemplateBody')}
          />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create Tenant
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}
