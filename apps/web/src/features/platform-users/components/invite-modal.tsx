import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { M, PLATFORM_ADMIN_LABEL, zEmail } from '@marquee/core';
import { z } from 'zod';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { zodValidate } from '../../../ui/zod-form';
import { useInvitePlatformUser } from '../queries';
import { FormModal } from '../../../ui/form-modal';

// spec: accounts §5 Platform invite: email required and well-formed.
const ZInviteForm = z.object({ id: zEmail(M.emailRequired, M.emailFormat) });

/** Add Platform User / Send Platform Invite (spec: accounts §2 screen 10, §6). */
export function InviteModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const invite = useInvitePlatformUser();
  const form = useForm({ initialValues: { id: '' }, validate: zodValidate(ZInviteForm), validateInputOnBlur: true });

  const close = () => {
    form.reset();
    onClose();
  };

  const submit = form.onSubmit((values) => {
    // The address as the server stores and lists it: trimmed and lower-case.
    const { id } = ZInviteForm.parse(values);
    invite.mutate(id, {
      onSuccess: () => {
        notify.success('Invite sent', `We sent a platform invitation to ${id}.`);
        close();
      },
      onError: (e) => notify.error(M.sendInviteFailed, errorMessage(e)),
    });
  });

  return (
    <FormModal dirty={form.isDirty()} busy={invite.isPending} opened={opened} onClose={close} title="Send Platform Invite" centered>
      <form onSubmit={submit} noValidate aria-label="Send Platform Invite">
        <Stack gap="md">
          <Text fz="sm" c="dimmed">
            The person receives an e-mail with a link to create their account or link an existing one.
          </Text>
          <TextInput label="Email" placeholder="name@example.com" type="email" required data-autofocus {...form.getInputProps('id')} />
          <TextInput label="Role" value={PLATFORM_ADMIN_LABEL} disabled readOnly description="Platform invites grant every platform role." />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={close} disabled={invite.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={invite.isPending}>
              Send Invite
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}
