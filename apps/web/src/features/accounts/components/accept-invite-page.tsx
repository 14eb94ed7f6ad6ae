import { Anchor, Button, PasswordInput, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { M } from '@marquee/core';
import { IconConfetti, IconMoodSad } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AuthPage } from './auth-page';
import { domainCodeOf } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { useLinkAccount } from '../mutations';

type Outcome = { state: 'initial' } | { state: 'success'; targetUrl: string } | { state: 'failed' };

/**
 * spec: accounts-admin-fees §2 screen 5 and §4 accept-invite flow: initial, then success or failed;
 * a wrong password (CREDENTIALS_INVALID, the spec's 401) stays on the form with a toast, any other
 * error goes to failed.
 */
export function AcceptInvitePage() {
  const [params] = useSearchParams();
  const link = useLinkAccount();
  const email = params.get('email') ?? '';
  const code = params.get('code') ?? '';
  const targetGroupId = params.get('targetGroupId') ?? '';
  const targetName = params.get('targetName') || 'Marquee';
  const eventId = params.get('targetEventId') || undefined;
  const roles = params.get('roles') || undefined;
  const complete = !!(email && code && targetGroupId);
  const [outcome, setOutcome] = useState<Outcome>(complete ? { state: 'initial' } : { state: 'failed' });

  const form = useForm({
    initialValues: { password: '' },
    validate: { password: (v) => (v ? null : M.passwordRequired) },
  });

  const submit = form.onSubmit(({ password }) => {
    link.mutate(
      { username: email, targetGroupId, inviteCode: code, password, eventId, roles },
      {
        onSuccess: (res) => setOutcome({ state: 'success', targetUrl: res.targetUrl }),
        onError: (e) => {
          if (domainCodeOf(e) === 'CREDENTIALS_INVALID') notify.error(M.linkAuthFailedTitle, M.linkAuthFailedBody);
          else setOutcome({ state: 'failed' });
        },
      },
    );
  });

  const forgotLink = email ? `/forgot-password?${new URLSearchParams({ username: email })}` : '/forgot-password';

  if (outcome.state === 'success') {
    const loginUrl = `${outcome.targetUrl}/login?${new URLSearchParams({ newUserName: email })}`;
    return (
      <Stack align="center" ta="center" gap="md" py="md" data-testid="accept-invite-success">
        <ThemeIcon size={64} radius="xl" variant="light" color="teal">
          <IconConfetti size={32} />
        </ThemeIcon>
        <Title order={1} fz={28}>
          Congratulations
        </Title>
        <Text c="dimmed">Your account is now linked to {targetName}. Log in to get started.</Text>
        <Button component="a" href={loginUrl} size="md">
          Log in to {targetName}
        </Button>
      </Stack>
    );
  }

  if (outcome.state === 'failed') {
    return (
      <Stack align="center" ta="center" gap="md" py="md" data-testid="accept-invite-failed">
        <ThemeIcon size={64} radius="xl" variant="light" color="red">
          <IconMoodSad size={32} />
        </ThemeIcon>
        <Title order={1} fz={26}>
          Oops! Something went wrong
        </Title>
        <Text c="dimmed">{M.linkFailedBody}</Text>
        <Button component={Link} to="/login" variant="light">
          Go to log in
        </Button>
        <Anchor component={Link} to={forgotLink} fz="sm">
          Forgot your password?
        </Anchor>
      </Stack>
    );
  }

  return (
    <AuthPage title="Accept and Link Account" description={`${targetName} invited you. Enter your Marquee password to link your account and accept the invitation.`}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput label="Email" value={email} disabled readOnly />
          <PasswordInput label="Password" autoComplete="current-password" required autoFocus {...form.getInputProps('password')} />
          <Button type="submit" size="md" fullWidth loading={link.isPending}>
            CONFIRM
          </Button>
        </Stack>
      </form>
      <Text fz="sm" ta="center" c="dimmed">
        Forgot your password?{' '}
        <Anchor component={Link} to={forgotLink} fw={600}>
          Reset it
        </Anchor>
      </Text>
      {params.get('userExist') === 'false' && (
        <Text fz="sm" ta="center" c="dimmed">
          No account yet?{' '}
          <Anchor component={Link} to={`/signup?${new URLSearchParams({ inviteCode: code, groupId: targetGroupId, email })}`} fw={600}>
            Create an Account
          </Anchor>
        </Text>
      )}
    </AuthPage>
  );
}
