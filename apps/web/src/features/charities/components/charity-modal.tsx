import { Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CHARITY_ZIP_MAX, ZCharityFields, type TCharity, type TCharityFields } from '@marquee/core';
import { applyServerFields, useResetForm, zodValidate } from '../../../ui/zod-form';
import { useCreateCharity, useUpdateCharity } from '../mutations';
import { charityToast } from '../toasts';
import { CHARITY_STATUS_OPTIONS } from './charity-status-badge';
import { FormModal } from '../../../ui/form-modal';

type Values = { name: string; status: string; street: string; city: string; state: string; zip_code: string };
const EMPTY: Values = { name: '', status: 'active', street: '', city: '', state: '', zip_code: '' };

const toValues = (c: TCharity): Values => ({
  name: c.details.name,
  status: c.details.status,
  street: c.details.street,
  city: c.details.city,
  state: c.details.state,
  zip_code: c.details.zip_code,
});

// The form's values are the request's fields; an empty status is sent as missing so the spec's
// 'status required' message shows.
const toFields = (v: Values) => ({ ...v, status: v.status || undefined }) as TCharityFields;

export type CharityModalProps = { mode: 'create' | 'edit' | null; charity: TCharity | null; onClose: () => void };

/** spec: accounts §2 screen 19: the create/edit modal; §5 Charity validation. */
export function CharityModal({ mode, charity, onClose }: CharityModalProps) {
  const create = useCreateCharity();
  const update = useUpdateCharity();
  const pending = create.isPending || update.isPending;
  const form = useForm<Values>({ initialValues: EMPTY, validate: zodValidate(ZCharityFields, toFields), validateInputOnBlur: true });

  useResetForm(form, mode && `${mode}:${charity?.id ?? ''}`, () => (mode === 'edit' && charity ? toValues(charity) : EMPTY));

  const failed = (e: unknown, toast: (e: unknown) => void) => {
    applyServerFields(form, e, (k) => k.replace(/^charityRequest\./, ''));
    toast(e);
  };

  const submit = form.onSubmit(
    (values) => {
      const fields = toFields(values);
      if (mode === 'create') {
        create.mutate(fields, {
          onSuccess: () => {
            charityToast.added();
            onClose();
          },
          onError: (e) => failed(e, charityToast.addFailed),
        });
      } else if (charity) {
        update.mutate(
          { id: charity.id, fields },
          {
            onSuccess: () => {
              charityToast.updated();
              onClose();
            },
            onError: (e) => failed(e, charityToast.updateFailed),
          },
        );
      }
    },
    () => charityToast.invalid(),
  );

  const title = mode === 'create' ? 'Add Charity' : 'Edit Charity';
  const deactivating = mode === 'edit' && charity?.details.status === 'active' && form.values.status === 'inactive';

  return (
    <FormModal dirty={form.isDirty()} busy={pending} opened={mode !== null} onClose={onClose} title={title} size="lg" centered>
      <form onSubmit={submit} noValidate aria-label={title}>
        <Stack gap="md">
          <TextInput label="Charity name" required data-autofocus {...form.getInputProps('name')} />
          <Select
            label="Status"
            required
            description="Only active charities are offered to tenants."
            data={CHARITY_STATUS_OPTIONS}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('status')}
          />
          {deactivating && (
            <Text fz="sm" c="orange.8" role="status">
              Tenants will no longer see this charity, and events that use it will stop collecting donations for it.
            </Text>
          )}
          <TextInput label="Street" required autoComplete="off" {...form.getInputProps('street')} />
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
            <TextInput label="City" required autoComplete="off" {...form.getInputProps('city')} />
            <TextInput label="State" required autoComplete="off" {...form.getInputProps('state')} />
            <TextInput label="Zip code" required autoComplete="off" maxLength={CHARITY_ZIP_MAX} inputMode="numeric" {...form.getInputProps('zip_code')} />
          </SimpleGrid>
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" loading={pending} disabled={mode === 'edit' && !form.isDirty()}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}
