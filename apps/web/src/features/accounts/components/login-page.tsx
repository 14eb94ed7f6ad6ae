import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ZLoginRequest } from '@marquee/core';
import { IconAlertCircle, IconCircleCheck, IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useSiteContext } from '../../../shared/site-context';
import { AuthPage } from './auth-page';
import { type ApiError, isApiError } from '../../../ui/api-client';
import { useSession } from '../../../ui/session';
import { zodValidate } from '../../../ui/zod-form';
import { useLogin } from '../mutations';
import { safeNext } from './safe-next';

export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { session } = useSession();
  const context = useSiteContext();
  const login = useLogin();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const newUserName = params.get('newUserName') ?? params.get('username') ?? '';
  const verified = !!params.get('newUserName') && !!params.get('code');
  const passwordReset = params.get('reset') === '1';
  const next = safeNext(params.get('next'));

  const form = useForm({
    initialValues: { username: newUserName, password: '' },
    validate: zodValidate(ZLoginRequest),
  });

  const submit = form.onSubmit((values) => {
    setFailure(null);
    login.mutate(values, {
      onSuccess: () => navigate(next ?? '/', { replace: true }),
      onError: (e) => setFailure(isApiError(e) ? e : null),
    });
  });

  const unverified = failure?.domainCode === 'EMAIL_NOT_VERIFIED';

  return (
    <AuthPage
      title="Log in"
      description={`Welcome back. Log in${context.tenant ? ` to ${context.tenant.name}` : ''} with the e-mail address you registered with.`}
    >
      {verified && (
        <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} title="Your e-mail address is verified" data-testid="verified-note">
          Log in with your password to continue.
        </Alert>
      )}
      {passwordReset && (
        <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} title="Your password has been changed">
          Log in with your new password.
        </Alert>
      )}
      {session && !failure && (
        <Alert color="brand" variant="light">
          <Group justify="space-between" gap="xs">
            <Text fz="sm">You are already signed in as {session.user.email}.</Text>
            <Anchor component={Link} to="/" fz="sm" fw={600}>
              Continue
            </Anchor>
          </Group>
        </Alert>
      )}
      {failure && (
        <Alert
          color={unverified ? 'yellow' : 'red'}
          variant="light"
          icon={unverified ? <IconMailForward size={18} /> : <IconAlertCircle size={18} />}
          role="alert"
          data-testid="login-error"
        >
          <Stack gap={6}>
            <Text fz="sm">{failure.message}</Text>
            {unverified && (
              <Anchor component={Link} to={`/verify?${new URLSearchParams({ newUserName: form.values.username })}`} fz="sm" fw={600}>
                Enter the code from the e-mail
              </Anchor>
            )}
          </Stack>
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput label="Email" type="email" autoComplete="username" placeholder="you@example.com" required {...form.getInputProps('username')} />
          <PasswordInput label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to={form.values.username ? `/forgot-password?${new URLSearchParams({ username: form.values.username })}` : '/forgot-password'} fz="sm">
              Forgot password?
            </Anchor>
          </Group>
          <Button type="submit" size="md" fullWidth loading={login.isPending}>
            Log in
          </Button>
        </Stack>
      </form>
      <Text fz="sm" ta="center" c="dimmed">
        New to Marquee?{' '}
        <Anchor component={Link} to="/signup" fw={600}>
          Create an Account
        </Anchor>
      </Text>
    </AuthPage>
  );
}
