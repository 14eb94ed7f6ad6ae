import { Alert, Anchor, Button, Center, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ZVerifyRequest } from '@marquee/core';
import { IconAlertCircle, IconMailForward } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthPage } from './auth-page';
import { errorMessage } from '../../../ui/api-client';
import { zodValidate } from '../../../ui/zod-form';
import { useVerifyEmail } from '../mutations';

/**
 * /verify?newUserName&code&groupId (and /event-staff-verify with the event and roles): checks the
 * code from the sign-up mail, then goes to /login?newUserName&code (spec: accounts §2). Without a
 * code in the link, the person types the code from the mail.
 */
export function VerifyPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const verify = useVerifyEmail();
  const username = params.get('newUserName') ?? '';
  const linkCode = params.get('code') ?? '';
  const justSent = params.get('sent') === '1';
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  const form = useForm({ initialValues: { username, code: '' }, validate: zodValidate(ZVerifyRequest) });

  const run = (values: { username: string; code: string }) => {
    setFailure(null);
    verify.mutate(values, {
      onSuccess: () => {
        void navigate(`/login?${new URLSearchParams({ newUserName: values.username.trim().toLowerCase(), code: values.code.trim() })}`, { replace: true });
      },
      onError: (e) => setFailure(errorMessage(e)),
    });
  };

  useEffect(() => {
    if (started.current || !username || !linkCode) return;
    started.current = true;
    run({ username, code: linkCode });
  }, [username, linkCode]);

  if (linkCode && username && !failure) {
    return (
      <AuthPage title="Verifying your e-mail" description={`Checking the code for ${username}…`}>
        <Center py="lg" aria-busy="true">
          <Loader type="dots" />
        </Center>
      </AuthPage>
    );
  }

  return (
    <AuthPage
      title="Verify your e-mail"
      description="Enter the 6-digit code from the e-mail we sent you. The code is valid for 30 minutes."
    >
      {justSent && !failure && (
        <Alert variant="light" color="brand" icon={<IconMailForward size={18} />} data-testid="code-sent">
          We sent a verification code to {username}. Open the link in that e-mail, or type the code here.
        </Alert>
      )}
      {failure && (
        <Alert variant="light" color="red" icon={<IconAlertCircle size={18} />} role="alert" title="We could not verify your e-mail">
          {failure}
        </Alert>
      )}
      <form onSubmit={form.onSubmit(run)} noValidate>
        <Stack gap="md">
          <TextInput label="Email" type="email" autoComplete="username" required {...form.getInputProps('username')} />
          <TextInput
            label="Verification code"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            required
            styles={{ input: { letterSpacing: 6, fontSize: 18, fontVariantNumeric: 'tabular-nums' } }}
            {...form.getInputProps('code')}
          />
          <Button type="submit" size="md" fullWidth loading={verify.isPending}>
            Verify
          </Button>
        </Stack>
      </form>
      <Text fz="sm" c="dimmed" ta="center">
        No code, or it expired?{' '}
        <Anchor component={Link} to={username ? `/login?${new URLSearchParams({ username })}` : '/login'} fw={600}>
          Log in
        </Anchor>{' '}
        with your password and we will send a new one.
      </Text>
    </AuthPage>
  );
}
