import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { M, ZForgotPasswordRequest, ZResetPasswordRequest } from '@marquee/core';
import { IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthPage } from './auth-page';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { zodValidate } from '../../../ui/zod-form';
import { useForgotPassword, useResetPassword } from '../mutations';
import { PasswordGuidance } from './password-guidance';

/**
 * Two steps: ask for a code by e-mail, then enter it with a new password. The mail's link
 * (/forgot-password?username&code) opens the second step filled in.
 */
export function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const forgot = useForgotPassword();
  const reset = useResetPassword();
  const linkUser = params.get('username') ?? '';
  const linkCode = params.get('code') ?? '';
  const [step, setStep] = useState<'request' | 'reset'>(linkCode ? 'reset' : 'request');
  const [sentMessage, setSentMessage] = useState<string | null>(null);

  const requestForm = useForm({ initialValues: { username: linkUser }, validate: zodValidate(ZForgotPasswordRequest) });
  const resetForm = useForm({
    initialValues: { username: linkUser, code: linkCode, password: '', password2: '' },
    validate: zodValidate(ZResetPasswordRequest),
  });

  const request = requestForm.onSubmit((values) => {
    forgot.mutate(values, {
      onSuccess: (res) => {
        setSentMessage(res.message ?? M.codeSent);
        resetForm.setValues({ username: values.username });
        setStep('reset');
      },
      onError: (e) => notify.error(M.error, errorMessage(e)),
    });
  });

  const change = resetForm.onSubmit((values) => {
    reset.mutate(values, {
      onSuccess: () => {
        void navigate(`/login?${new URLSearchParams({ username: values.username.trim().toLowerCase(), reset: '1' })}`, { replace: true });
      },
      onError: (e) => notify.error(M.invalid, errorMessage(e)),
    });
  });

  if (step === 'request') {
    return (
      <AuthPage title="Forgot your password?" description="Enter your e-mail address and we will send you a code to choose a new password.">
        <form onSubmit={request} noValidate>
          <Stack gap="md">
            <TextInput label="Email" type="email" autoComplete="username" required {...requestForm.getInputProps('username')} />
            <Button type="submit" size="md" fullWidth loading={forgot.isPending}>
              Send code
            </Button>
          </Stack>
        </form>
        <Text fz="sm" ta="center" c="dimmed">
          Remembered it?{' '}
          <Anchor component={Link} to="/login" fw={600}>
            Log in
          </Anchor>
        </Text>
      </AuthPage>
    );
  }

  return (
    <AuthPage title="Choose a new password" description="Enter the code from the e-mail and your new password.">
      {sentMessage && (
        <Alert variant="light" color="brand" icon={<IconMailForward size={18} />}>
          {sentMessage}
        </Alert>
      )}
      <form onSubmit={change} noValidate>
        <Stack gap="md">
          <TextInput label="Email" type="email" autoComplete="username" required {...resetForm.getInputProps('username')} />
          <TextInput label="Code" autoComplete="one-time-code" inputMode="numeric" maxLength={6} required {...resetForm.getInputProps('code')} />
          <PasswordInput label="New Password" autoComplete="new-password" required {...resetForm.getInputProps('password')} />
          <PasswordInput label="Confirm Password" autoComplete="new-password" required {...resetForm.getInputProps('password2')} />
          <PasswordGuidance value={resetForm.values.password} />
          <Button type="submit" size="md" fullWidth loading={reset.isPending}>
            Change password
          </Button>
        </Stack>
      </form>
      <Text fz="sm" ta="center" c="dimmed">
        Need another code?{' '}
        <Anchor component="button" type="button" fw={600} onClick={() => setStep('request')}>
          Send it again
        </Anchor>
      </Text>
    </AuthPage>
  );
}
