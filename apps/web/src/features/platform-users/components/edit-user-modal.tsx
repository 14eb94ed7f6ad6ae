import { Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { M, PLATFORM_ROLES, ROLE_LABELS, ZUpdatePlatformUserRequest, type TPlatformUser } from '@marquee/core';
import { useRef } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { applyServerFields, useResetForm, zodValidate } from '../../../ui/zod-form';
import { usePlatformAccess } from '../../../shared/access';
import { useUpdatePlatformUser } from '../queries';
import { FormModal } from '../../../ui/form-modal';

type Values = { group: { name: string; roles: string[] } };

// Our own wording: the spec gives no message for this failure (docs/decisions.md).
export const EDIT_USER_FAILED = 'Update Platform User Failed';

const ROLE_HELP: Record<(typeof PLATFORM_ROLES)[number], string> = {
  super_user: 'Everything, including granting Super User.',
  platform_manager: 'Tenants, users, policies, fees and payouts.',
  platform_report: 'Platform reports.',
  platform_user: 'Read the console’s configuration.',
};

/** Edit Platform User: the name and the roles. */
export function EditUserModal({ user, onClose }: { user: TPlatformUser | null; onClose: () => void }) {
  const update = useUpdatePlatformUser();
  // Only a super user grants or removes super_user (the server refuses anyone else).
  const { isSuperUser } = usePlatformAccess();
  const hasName = useRef(false);
  hasName.current = !!user?.group.name;
  const form = useForm<Values>({
    initialValues: { group: { name: '', roles: [] } },
    // A person who has not signed up has no name to change yet.
    validate: zodValidate(ZUpdatePlatformUserRequest, (v: Values) => ({ group: hasName.current ? v.group : { roles: v.group.roles } })),
    validateInputOnChange: ['group.roles'],
  });

  useResetForm(form, user?.id, () => ({ group: { name: user!.group.name, roles: user!.group.roles } }));

  const submit = form.onSubmit((values) => {
    if (!user) return;
    const roles = values.group.roles as (typeof PLATFORM_ROLES)[number][];
    update.mutate(
      { email: user.id, group: hasName.current ? { name: values.group.name, roles } : { roles } },
      {
        onSuccess: () => {
          notify.success('Platform user updated', `${user.id} was updated.`);
          onClose();
        },
        onError: (e) => {
          applyServerFields(form, e);
          notify.error(EDIT_USER_FAILED, errorMessage(e));
        },
      },
    );
  });

  return (
    <FormModal dirty={form.isDirty()} busy={update.isPending} opened={!!user} onClose={onClose} title="Edit Platform User" centered>
      <form onSubmit={submit} noValidate aria-label="Edit Platform User">
        <Stack gap="md">
          <TextInput label="Email" value={user?.id ?? ''} disabled readOnly />
          {user?.group.name ? (
            <TextInput label="Name" required {...form.getInputProps('group.name')} />
          ) : (
            <Text fz="sm" c="dimmed">
              This person has not signed up yet; their name appears once they do.
            </Text>
          )}
          <Checkbox.Group label="Roles" required {...form.getInputProps('group.roles')}>
            <Stack gap="xs" mt="xs">
              {PLATFORM_ROLES.map((r) => (
                <Checkbox
                  key={r}
                  value={r}
                  label={ROLE_LABELS[r]}
                  description={r === 'super_user' && !isSuperUser ? M.superUserOnly : ROLE_HELP[r]}
                  disabled={r === 'super_user' && !isSuperUser}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}
