import { Button, Checkbox, Group, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { M, ROLE_LABELS, zEmail } from '@marquee/core';
import { IconMailForward } from '@tabler/icons-react';
import { z } from 'zod';
import { errorMessage, isApiError } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { zodValidate } from '../../../ui/zod-form';
import type { InviteResult } from '../api';

export type RoleOption<R extends string> = { value: R; description: string };

export type InviteStaffFormProps<R extends string> = {
  roles: RoleOption<R>[];
  defaultRoles: R[];
  onInvite: (body: { email: string; roles: R[] }) => Promise<InviteResult>;
  submitLabel?: string;
  disabled?: boolean;
};

type Values<R extends string> = { email: string; roles: R[] };

/** E-mail and roles; the invitee gets a mail with a link to join (or to link an existing account). */
export function InviteStaffForm<R extends string>({ roles, defaultRoles, onInvite, submitLabel = 'Send invite', disabled }: InviteStaffFormProps<R>) {
  const schema = z.object({
    email: zEmail(M.emailRequired, M.emailFormat),
    roles: z.array(z.string()).min(1, M.rolesRequired),
  });
  const form = useForm<Values<R>>({
    initialValues: { email: '', roles: defaultRoles },
    validate: zodValidate(schema),
  });

  const send = form.onSubmit(async (values) => {
    const email = values.email.trim();
    try {
      await onInvite({ email, roles: values.roles });
      notify.success('Invite sent', `We e-mailed an invitation to ${email}.`);
      form.reset();
    } catch (e) {
      if (isApiError(e)) for (const [key, message] of Object.entries(e.fields)) form.setFieldError(key.startsWith('roles') ? 'roles' : key, message);
      notify.error(M.sendInviteFailed, errorMessage(e));
    }
  });

  return (
    <form onSubmit={send} noValidate aria-label="Invite staff">
      <Stack gap="md">
        <TextInput label="Email" type="email" placeholder="name@example.com" required autoComplete="off" disabled={disabled} {...form.getInputProps('email')} />
        <Checkbox.Group label="Roles" required {...form.getInputProps('roles')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt={6}>
            {roles.map((r) => {
              const checked = form.values.roles.includes(r.value);
              return (
                <Paper
                  key={r.value}
                  withBorder
                  radius="md"
                  p="sm"
                  style={{ borderColor: checked ? 'var(--mantine-color-brand-5)' : undefined, background: checked ? 'var(--mantine-color-brand-0)' : undefined }}
                >
                  <Checkbox
                    value={r.value}
                    disabled={disabled}
                    label={<Text fz="sm" fw={600}>{ROLE_LABELS[r.value as keyof typeof ROLE_LABELS] ?? r.value}</Text>}
                    description={r.description}
                  />
                </Paper>
              );
            })}
          </SimpleGrid>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button type="submit" leftSection={<IconMailForward size={16} />} loading={form.submitting} disabled={disabled}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
