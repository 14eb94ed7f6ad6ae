import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconLockOpen } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AuthPage } from './auth-page';
import { errorMessage } from '../../../ui/api-client';
import { useUnlockAccount } from '../mutations';

/**
 * /unlock?username&token: the link mailed when too many wrong codes locked an account. Opening it
 * changes nothing (mail scanners and link previews open links); the button unlocks (issue 21).
 */
export function UnlockPage() {
  const [params] = useSearchParams();
  const username = params.get('username') ?? '';
  const token = params.get('token') ?? '';
  const unlock = useUnlockAccount();
  const [failure, setFailure] = useState<string | null>(null);
  const login = `/login?${new URLSearchParams({ username })}`;

  if (!username || !token) {
    return (
      <AuthPage title="Unlock your account">
        <Alert variant="light" color="red" icon={<IconAlertCircle size={18} />} role="alert" title="This link is incomplete">
          Open the link from the e-mail again, all of it. You can also{' '}
          <Anchor component={Link} to="/login" fw={600}>
            log in
          </Anchor>{' '}
          with your password.
        </Alert>
      </AuthPage>
    );
  }

  if (unlock.isSuccess) {
    return (
      <AuthPage title="Your account is unlocked">
        <Alert variant="light" color="teal" icon={<IconLockOpen size={18} />} data-testid="unlocked">
          Codes for {username} are checked again. Log in and we will send you a new code.
        </Alert>
        <Button component={Link} to={login} size="md" fullWidth>
          Log in
        </Button>
      </AuthPage>
    );
  }

  return (
    <AuthPage
      title="Unlock your account"
      description={`Too many wrong codes were entered for ${username}, so codes for it are not checked for now. If that was you, unlock it, then ask for a new code.`}
    >
      {failure && (
        <Alert variant="light" color="red" icon={<IconAlertCircle size={18} />} role="alert" title="We could not unlock your account">
          {failure}
        </Alert>
      )}
      <Stack gap="sm">
        <Button
          size="md"
          fullWidth
          leftSection={<IconLockOpen size={18} />}
          loading={unlock.isPending}
          onClick={() => {
            setFailure(null);
            unlock.mutate({ username, token }, { onError: (e) => setFailure(errorMessage(e)) });
          }}
        >
          Unlock my account
        </Button>
        <Text fz="sm" c="dimmed" ta="center">
          Not you? Leave it locked: your password stays as it is.{' '}
          <Anchor component={Link} to={login} fw={600}>
            Back to log in
          </Anchor>
        </Text>
      </Stack>
    </AuthPage>
  );
}
