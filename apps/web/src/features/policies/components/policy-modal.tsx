import { Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { M, ZCreatePolicyRequest, ZUpdatePolicyRequest, type TPolicy } from '@marquee/core';
import { errorMessage, isApiError } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { applyServerFields, useResetForm, zodValidate } from '../../../ui/zod-form';
import { useCreatePolicy, useUpdatePolicy } from '../queries';
import { RichTextField } from './rich-text-field';
import { FormModal } from '../../../ui/form-modal';

type Values = { id: string; details: { name: string; group: string; type: string; detail: string } };
const EMPTY: Values = { id: '', details: { name: '', group: '', type: '', detail: '' } };

const toValues = (p: TPolicy): Values => ({
  id: p.id,
  details: { name: p.details.name, group: p.details.group, type: p.details.type, detail: p.details.detail },
});

// Our own wording for failures the spec does not word (docs/decisions.md).
export const POLICY_SAVE_FAILED = 'Failed to save Policy';

export type PolicyModalProps = { mode: 'create' | 'edit' | null; policy: TPolicy | null; onClose: () => void };

/** Add Policy and the edit modal (spec: accounts §2 screen 11, §5 Policy). */
export function PolicyModal({ mode, policy, onClose }: PolicyModalProps) {
  const create = useCreatePolicy();
  const update = useUpdatePolicy();
  const pending = create.isPending || update.isPending;
  const form = useForm<Values>({
    initialValues: EMPTY,
    validate: (values) =>
      mode === 'create' ? zodValidate(ZCreatePolicyRequest)(values) : zodValidate(ZUpdatePolicyRequest, (v: Values) => ({ details: v.details }))(values),
    validateInputOnBlur: true,
  });

  useResetForm(form, mode && `${mode}:${policy?.id ?? ''}`, () => (mode === 'edit' && policy ? toValues(policy) : EMPTY));

  const failed = (e: unknown) => {
    if (isApiError(e)) {
      applyServerFields(form, e);
      if (e.domainCode === 'POLICY_DUPLICATE') {
        form.setFieldError('id', M.policyDuplicate);
        notify.error(M.policyDuplicate);
        return;
      }
    }
    notify.error(POLICY_SAVE_FAILED, errorMessage(e));
  };

  const submit = form.onSubmit((values) => {
    if (mode === 'create') {
      create.mutate(values, {
        onSuccess: (p) => {
          notify.success('Policy created', `${p.details.name} was added.`);
          onClose();
        },
        onError: failed,
      });
    } else if (policy) {
      update.mutate(
        { id: policy.id, details: values.details },
        {
          onSuccess: (p) => {
            notify.success('Policy updated', `${p.details.name} was saved.`);
            onClose();
          },
          onError: failed,
        },
      );
    }
  });

  const detail = form.getInputProps('details.detail');
  // spec: accounts §5: Save is enabled only when the form is changed.
  const changed = form.isDirty();

  return (
    <FormModal dirty={changed} busy={pending} opened={mode !== null} onClose={onClose} title={mode === 'create' ? 'Add Policy' : 'Edit Policy'} size="xl" centered>
      <form onSubmit={submit} noValidate aria-label={mode === 'create' ? 'Add Policy' : 'Edit Policy'}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="Policy ID"
              placeholder="refund-policy"
              required
              disabled={mode === 'edit'}
              description={mode === 'create' ? 'Lowercase letters and numbers, with optional hyphens.' : 'The ID cannot be changed.'}
              data-autofocus
              {...form.getInputProps('id')}
            />
            <TextInput label="Name" placeholder="Refund Policy" description="Shown as the policy's title." {...form.getInputProps('details.name')} />
            <TextInput label="Group" placeholder="checkout" {...form.getInputProps('details.group')} />
            <TextInput label="Type" placeholder="refund" {...form.getInputProps('details.type')} />
          </SimpleGrid>
          <RichTextField
            label="Policy details"
            required
            value={form.values.details.detail}
            onChange={(html) => form.setFieldValue('details.detail', html)}
            error={detail.error as string | undefined}
          />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" loading={pending} disabled={!changed}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}
