import '@mantine/dates/styles.css';
import { Avatar, Button, Divider, FileButton, Grid, Group, Paper, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { birthDateBounds, formatPhone, M, phoneDigits, ZProfileUpdate, type TProfile, type TProfileUpdate } from '@marquee/core';
import { IconCamera } from '@tabler/icons-react';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { useEffect, useMemo, useState } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { PhoneInput } from '../../../ui/phone-input';
import { initials, useSession } from '../../../ui/session';
import { applyServerFields, zodValidate } from '../../../ui/zod-form';
import { useUpdateProfile, useUploadPicture } from '../mutations';
import { useProfile } from '../queries';

dayjs.extend(customParseFormat);

// spec: accounts-admin-fees §5 Profile / §9: picture jpeg, jpg or png, at most 5 MB.
export const PICTURE_MAX_BYTES = 5 * 1024 * 1024;
const PICTURE_TYPES = ['image/jpeg', 'image/png'];
const PICTURE_EXT = /\.(jpe?g|png)$/i;

export function pictureProblem(file: File): string | null {
  if (!PICTURE_EXT.test(file.name) || (file.type && !PICTURE_TYPES.includes(file.type))) return M.pictureType;
  if (file.size > PICTURE_MAX_BYTES) return M.pictureSize;
  return null;
}

type ProfileValues = {
  firstName: string;
  lastName: string;
  contactNumber: string;
  birthDate: string | null;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
};

const NULLABLE = ['address1', 'address2', 'city', 'state', 'zip', 'country'] as const;

function toValues(p: TProfile): ProfileValues {
  return {
    firstName: p.firstName,
    lastName: p.lastName,
    contactNumber: formatPhone(p.contactNumber),
    birthDate: p.birthDate,
    address1: p.address1 ?? '',
    address2: p.address2 ?? '',
    city: p.city ?? '',
    state: p.state ?? '',
    zip: p.zip ?? '',
    country: p.country ?? '',
  };
}

/** The form as the update contract reads it: empty text is "no value" (null). */
function toUpdate(v: ProfileValues): TProfileUpdate {
  const out: TProfileUpdate = {
    firstName: v.firstName,
    lastName: v.lastName,
    contactNumber: v.contactNumber || null,
    birthDate: v.birthDate || null,
  };
  for (const k of NULLABLE) out[k] = v[k].trim() === '' ? null : v[k];
  return out;
}

/** spec: accounts-admin-fees §7 update user details sends only the changed fields. */
export function changedFields(before: ProfileValues, after: ProfileValues): TProfileUpdate {
  const a = toUpdate(before);
  const b = toUpdate(after);
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(b) as (keyof TProfileUpdate)[]) {
    const same =
      key === 'contactNumber'
        ? phoneDigits(String(a[key] ?? '')) === phoneDigits(String(b[key] ?? '')) && !!a[key] === !!b[key]
        : (typeof a[key] === 'string' ? (a[key] as string).trim() : a[key]) === (typeof b[key] === 'string' ? (b[key] as string).trim() : b[key]);
    if (!same) changes[key] = b[key];
  }
  return changes as TProfileUpdate;
}

function PictureField({ profile }: { profile: TProfile }) {
  const upload = useUploadPicture(profile.id);
  const [problem, setProblem] = useState<string | null>(null);

  const choose = (file: File | null) => {
    if (!file) return;
    const bad = pictureProblem(file);
    setProblem(bad);
    if (bad) {
      notify.error(M.error, bad);
      return;
    }
    upload.mutate(file, {
      onSuccess: () => notify.success(M.success, M.successfullyUpdated),
      onError: (e) => {
        const message = errorMessage(e, M.failedUpdatingData);
        setProblem(message);
        notify.error(M.error, message);
      },
    });
  };

  return (
    <Stack align="center" gap="sm">
      <Avatar src={profile.profile} size={120} radius={120} color="brand" alt="Profile picture" data-testid="profile-picture">
        <Text fz={36} fw={700}>
          {initials(profile)}
        </Text>
      </Avatar>
      <FileButton onChange={choose} accept="image/png,image/jpeg">
        {(props) => (
          <Button {...props} variant="default" size="xs" leftSection={<IconCamera size={14} />} loading={upload.isPending}>
            {profile.profile ? 'Change picture' : 'Upload picture'}
          </Button>
        )}
      </FileButton>
      <Text fz="xs" c={problem ? 'red' : 'dimmed'} ta="center" maw={200} role={problem ? 'alert' : undefined} data-testid="picture-hint">
        {problem ?? 'JPG or PNG, less than 5MB'}
      </Text>
    </Stack>
  );
}

function ProfileForm({ profile }: { profile: TProfile }) {
  const update = useUpdateProfile(profile.id);
  const bounds = useMemo(() => birthDateBounds(), []);
  const form = useForm<ProfileValues>({
    initialValues: toValues(profile),
    validate: zodValidate(ZProfileUpdate, toUpdate),
  });

  useEffect(() => {
    // A saved profile becomes the new starting point for "changed".
    form.setInitialValues(toValues(profile));
  }, [profile]);

  const changes = changedFields(form.getInitialValues(), form.values);
  const dirty = Object.keys(changes).length > 0;

  const save = form.onSubmit(
    () => {
      update.mutate(changes, {
        onSuccess: (saved) => {
          form.setInitialValues(toValues(saved));
          form.setValues(toValues(saved));
          notify.success(M.success, M.profileUpdated);
        },
        onError: (e) => {
          applyServerFields(form, e);
          notify.error(M.error, M.failedUpdatingData);
        },
      });
    },
    () => notify.error(M.inputValidationError, undefined, { id: 'profile-invalid' }),
  );

  return (
    <form onSubmit={save} noValidate aria-label="Basic Info">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput label="First Name" autoComplete="given-name" required {...form.getInputProps('firstName')} />
          <TextInput label="Last Name" autoComplete="family-name" required {...form.getInputProps('lastName')} />
          <TextInput label="Email" value={profile.email} disabled readOnly />
          <PhoneInput label="Contact Number" autoComplete="tel" {...form.getInputProps('contactNumber')} />
          <DateInput
            label="Birth Date"
            placeholder="MM/DD/YYYY"
            valueFormat="MM/DD/YYYY"
            minDate={bounds.min}
            maxDate={bounds.max}
            defaultLevel="decade"
            clearable
            popoverProps={{ withinPortal: true }}
            {...form.getInputProps('birthDate')}
          />
        </SimpleGrid>
        <Divider label="Address" labelPosition="left" mt="xs" />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput label="Address 1" autoComplete="address-line1" {...form.getInputProps('address1')} />
          <TextInput label="Address 2" autoComplete="address-line2" {...form.getInputProps('address2')} />
          <TextInput label="City" autoComplete="address-level2" {...form.getInputProps('city')} />
          <TextInput label="State" autoComplete="address-level1" {...form.getInputProps('state')} />
          <TextInput label="Zip" autoComplete="postal-code" maxLength={5} {...form.getInputProps('zip')} />
          <TextInput label="Country" autoComplete="country-name" {...form.getInputProps('country')} />
        </SimpleGrid>
        <Group justify="flex-end" gap="sm" mt="sm">
          <Button variant="default" disabled={!dirty || update.isPending} onClick={() => form.reset()}>
            Discard changes
          </Button>
          <Button type="submit" loading={update.isPending} disabled={!dirty}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function ProfilePage() {
  const { user } = useSession();
  const profile = useProfile(user?.id);

  return (
    <>
      <PageHeader title="Profile" description="Your personal details. Organisers see your name and contact number on your orders." />
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'xl' }}>
        <Title order={3} fz="lg" mb="lg">
          Basic Info
        </Title>
        {profile.isError ? (
          <Text c="red">{errorMessage(profile.error)}</Text>
        ) : !profile.data ? (
          <Stack>
            <Skeleton height={120} circle />
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Stack>
        ) : (
          <Grid gutter={{ base: 'lg', md: 40 }}>
            <Grid.Col span={{ base: 12, md: 3 }}>
              <PictureField profile={profile.data} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 9 }}>
              <ProfileForm profile={profile.data} />
            </Grid.Col>
          </Grid>
        )}
      </Paper>
    </>
  );
}
