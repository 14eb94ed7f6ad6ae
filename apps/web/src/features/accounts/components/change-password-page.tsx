import { Button, Grid, Group, Paper, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { M, ZChangePasswordForm } from '@marquee/core';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { useSession } from '../../../ui/session';
import { zodValidate } from '../../../ui/zod-form';
import { useChangePassword } from '../mutations';
import { PasswordGuidance } from './password-guidance';

export const PASSWORD_CHANGED = 'Your password has been changed.';

export function ChangePasswordPage() {
  const { user } = useSession();
  const change = useChangePassword();
  const form = useForm({
    initialValues: { oldPassword: '', password: '', confirmPassword: '' },
    validate: zodValidate(ZChangePasswordForm),
  });

  const submit = form.onSubmit((v) => {
    // spec: accounts-admin-fees §7 change password sends username (the user id), oldPassword, password.
    change.mutate(
      { username: user?.id, oldPassword: v.oldPassword, password: v.password },
      {
        onSuccess: () => {
          form.reset();
          notify.success(M.success, PASSWORD_CHANGED);
        },
        onError: (e) => notify.error(M.invalid, errorMessage(e)),
      },
    );
  });

  return (
    <>
      <PageHeader title="Change Password" description="Changing your password signs you out everywhere else; you stay signed in here." />
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }} maw={880}>
        <Grid gutter={{ base: 'lg', md: 48 }}>
          <Grid.Col span={{ base: 12, sm: 7 }}>
            <form onSubmit={submit} noValidate aria-label="Change Password">
              <Stack gap="md">
                <PasswordInput label="Current Password" autoComplete="current-password" required {...form.getInputProps('oldPassword')} />
                <PasswordInput label="New Password" autoComplete="new-password" required {...form.getInputProps('password')} />
                <PasswordInput label="Confirm Password" autoComplete="new-password" required {...form.getInputProps('confirmPassword')} />
                <Group justify="flex-end" mt="sm">
                  <Button type="submit" loading={change.isPending}>
                    Change Password
                  </Button>
                </Group>
              </Stack>
            </form>
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 5 }}>
            <Paper bg="gray.0" p="md" radius="md">
              <PasswordGuidance value={form.values.password} />
              <Text fz="xs" c="dimmed" mt="sm">
                Avoid a password you use on another site.
              </Text>
            </Paper>
          </Grid.Col>
        </Grid>
      </Paper>
    </>
  );
}
