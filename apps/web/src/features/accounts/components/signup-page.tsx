import { Alert, Anchor, Badge, Button, Center, Group, Loader, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { M, ROLE_LABELS, ZRegisterRequest, type AppType, type TInviteInfo, type TRegisterRequest } from '@marquee/core';
import { IconMailOpened } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useSiteContext } from '../../../shared/site-context';
import { AuthPage } from './auth-page';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { PhoneInput } from '../../../ui/phone-input';
import { applyServerFields, zodValidate } from '../../../ui/zod-form';
import { useRegister } from '../mutations';
import { useInvite } from '../queries';
import { PasswordGuidance } from './password-guidance';

type SignupValues = {
  username: string;
  firstName: string;
  lastName: string;
  contactNumber: string;
  state: string;
  zip: string;
  password: string;
  password2: string;
};

const roleLabel = (role: string) => ROLE_LABELS[role as keyof typeof ROLE_LABELS] ?? role;

/** The accept-invite link for someone who already has an account (the invite mail gives the same). */
function acceptInviteLink(invite: TInviteInfo, code: string) {
  const params = new URLSearchParams({
    targetGroupId: invite.groupId,
    code,
    email: invite.email,
    userExist: 'true',
    targetName: invite.groupName,
    targetUrl: invite.targetUrl,
  });
  if (invite.eventId) {
    params.set('targetEventId', invite.eventId);
    params.set('roles', invite.roles.join(','));
  }
  return `/accept-invite?${params}`;
}

/**
 * spec: accounts-admin-fees §2 screen 6 "Create an Account". Attendees sign up openly; platform and
 * tenant accounts come from an invite, which is checked first (§4: a failed check goes to /login
 * with a toast). The app type is the invite's, else ATTENDEE.
 */
export function SignupPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const context = useSiteContext();
  const inviteCode = params.get('inviteCode');
  const groupId = params.get('groupId') ?? undefined;
  const invite = useInvite(inviteCode, groupId);
  const register = useRegister();

  useEffect(() => {
    if (!inviteCode) return;
    if (invite.isError) {
      notify.error(M.inviteFailedTitle, M.inviteFailedBody, { id: 'invite-failed' });
      void navigate('/login', { replace: true });
    } else if (invite.data?.userExists) {
      void navigate(acceptInviteLink(invite.data, inviteCode), { replace: true });
    }
  }, [inviteCode, invite.isError, invite.data]);

  const appType: AppType = invite.data?.appType ?? 'ATTENDEE';
  const form = useForm<SignupValues>({
    initialValues: {
      username: params.get('email') ?? '',
      firstName: '',
      lastName: '',
      contactNumber: '',
      state: '',
      zip: '',
      password: '',
      password2: '',
    },
    validate: zodValidate(ZRegisterRequest, (v: SignupValues) => toRequest(v, appType)),
  });

  useEffect(() => {
    if (invite.data) form.setFieldValue('username', invite.data.email);
  }, [invite.data?.email]);

  function toRequest(v: SignupValues, type: AppType): TRegisterRequest {
    return {
      username: v.username,
      password: v.password,
      password2: v.password2,
      firstName: v.firstName,
      lastName: v.lastName,
      contactNumber: v.contactNumber || undefined,
      state: v.state || undefined,
      zip: v.zip || undefined,
      appType: type,
      groupId: inviteCode ? groupId : undefined,
      inviteCode: inviteCode ?? undefined,
      eventId: (inviteCode && (invite.data?.eventId ?? params.get('targetEventId'))) || undefined,
    };
  }

  const submit = form.onSubmit((values) => {
    const body = toRequest(values, appType);
    register.mutate(body, {
      onSuccess: (res) => {
        notify.success(res.message ?? M.registerSuccess, `We sent a verification code to ${values.username.trim().toLowerCase()}.`);
        const next = new URLSearchParams({ newUserName: values.username.trim().toLowerCase() });
        if (body.groupId) next.set('groupId', body.groupId);
        void navigate(`/verify?${next}&sent=1`);
      },
      onError: (e) => {
        applyServerFields(form, e);
        notify.error(M.registerFailedTitle, errorMessage(e, M.registerFailedBody));
      },
    });
  });

  if (inviteCode && (invite.isPending || invite.isError || invite.data?.userExists)) {
    return (
      <Center py="xl" aria-busy="true">
        <Loader type="dots" />
      </Center>
    );
  }

  const description = invite.data
    ? `You were invited to join ${invite.data.groupName}. Create your account to accept.`
    : context.tenant
      ? `Create your account to buy tickets from ${context.tenant.name} and keep them in one place.`
      : 'Create your Marquee account to buy tickets and keep them in one place.';

  return (
    <AuthPage title="Create an Account" description={description}>
      {invite.data && (
        <Alert variant="light" color="brand" icon={<IconMailOpened size={18} />}>
          <Group gap={6}>
            <Text fz="sm">Invitation to {invite.data.groupName}:</Text>
            {invite.data.appType === 'PLATFORM' ? (
              <Badge variant="white">Platform Admin</Badge>
            ) : (
              invite.data.roles.map((r) => (
                <Badge key={r} variant="white">
                  {roleLabel(r)}
                </Badge>
              ))
            )}
          </Group>
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            disabled={!!invite.data}
            description={invite.data ? 'The invitation was sent to this address.' : undefined}
            {...form.getInputProps('username')}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput label="First Name" autoComplete="given-name" required {...form.getInputProps('firstName')} />
            <TextInput label="Last Name" autoComplete="family-name" required {...form.getInputProps('lastName')} />
          </SimpleGrid>
          <PhoneInput label="Mobile Number" description="Optional" autoComplete="tel" {...form.getInputProps('contactNumber')} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput label="State" description="Optional" autoComplete="address-level1" {...form.getInputProps('state')} />
            <TextInput label="Zip" description="Optional" autoComplete="postal-code" inputMode="numeric" maxLength={5} {...form.getInputProps('zip')} />
          </SimpleGrid>
          <PasswordInput label="Password" autoComplete="new-password" required {...form.getInputProps('password')} />
          <PasswordInput label="Confirm Password" autoComplete="new-password" required {...form.getInputProps('password2')} />
          <PasswordGuidance value={form.values.password} />
          <Text fz="xs" c="dimmed">
            By creating an account you agree to the{' '}
            <Anchor component={Link} to="/terms" fz="xs">
              Terms of Service
            </Anchor>{' '}
            and the{' '}
            <Anchor component={Link} to="/privacy" fz="xs">
              Privacy Policy
            </Anchor>
            .
          </Text>
          <Button type="submit" size="md" fullWidth loading={register.isPending}>
            Create Account
          </Button>
        </Stack>
      </form>
      <Text fz="sm" ta="center" c="dimmed">
        Already have an account?{' '}
        <Anchor component={Link} to="/login" fw={600}>
          Log in
        </Anchor>
      </Text>
    </AuthPage>
  );
}
