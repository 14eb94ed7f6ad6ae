import { Button, Checkbox, Group, Paper, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ROLE_LABELS, ZUpdateStaffRequest, type TenantRole, type TStaffMember } from '@marquee/core';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { applyServerFields, useResetForm, zodValidate } from '../../../ui/zod-form';
import { useUpdateStaffRoles } from '../mutations';
import { staffName } from './staff-badges';
import { TENANT_ROLE_OPTIONS } from './tenant-role-options';
import { FormModal } from '../../../ui/form-modal';

// Our own wording: the spec gives no message for this failure (docs/decisions.md).
export const UPDATE_STAFF_FAILED = 'Update Staff Roles Failed';

type Values = { details: { roles: TenantRole[] } };

/** Edit roles: the two tenant roles, at least one. */
export function EditStaffRolesModal({ member, onClose }: { member: TStaffMember | null; onClose: () => void }) {
  const update = useUpdateStaffRoles();
  const form = useForm<Values>({
    initialValues: { details: { roles: [] } },
    validate: zodValidate(ZUpdateStaffRequest),
    validateInputOnChange: ['details.roles'],
  });

  useResetForm(form, member?.id, () => ({ details: { roles: member!.details.roles.filter((r): r is TenantRole => r === 'tenant_admin' || r === 'tenant_staff' || r === 'tenant_box_office') } }));

  const submit = form.onSubmit((values) => {
    if (!member) return;
    update.mutate(
      { staffId: member.id, roles: values.details.roles },
      {
        onSuccess: () => {
          notify.success('Roles updated', `${staffName(member)} is now ${values.details.roles.map((r) => ROLE_LABELS[r]).join(' and ')}.`);
          onClose();
        },
        onError: (e) => {
          applyServerFields(form, e);
          notify.error(UPDATE_STAFF_FAILED, errorMessage(e));
        },
      },
    );
  });

  return (
    <FormModal dirty={form.isDirty()} busy={update.isPending} opened={!!member} onClose={onClose} title="Edit roles" centered>
      <form onSubmit={submit} noValidate aria-label="Edit roles">
        <Stack gap="md">
          <Stack gap={0}>
            <Text fz="sm" fw={600}>
              {member ? staffName(member) : ''}
            </Text>
            <Text fz="xs" c="dimmed">
              {member?.details.email}
            </Text>
          </Stack>
          {member && member.details.status !== 'ACTIVE' && (
            <Text fz="sm" c="dimmed">
              They have not joined yet: the roles apply when they accept their invite.
            </Text>
          )}
          <Checkbox.Group label="Roles" required {...form.getInputProps('details.roles')}>
            <Stack gap="xs" mt={6}>
              {TENANT_ROLE_OPTIONS.map((r) => {
                const checked = form.values.details.roles.includes(r.value);
                return (
                  <Paper
                    key={r.value}
                    withBorder
                    radius="md"
                    p="sm"
                    style={{ borderColor: checked ? 'var(--mantine-color-brand-5)' : undefined, background: checked ? 'var(--mantine-color-brand-0)' : undefined }}
                  >
                    <Checkbox value={r.value} label={<Text fz="sm" fw={600}>{ROLE_LABELS[r.value]}</Text>} description={r.description} />
                  </Paper>
                );
              })}
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
