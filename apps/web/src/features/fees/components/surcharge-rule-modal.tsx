import { Alert, Button, Checkbox, Divider, Group, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ZSurchargeRuleInput, type TSurchargeRule } from '@marquee/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { applyServerFields, useResetForm, zodValidate } from '../../../ui/zod-form';
import type { FeeScope } from '../api';
import { feeToast } from '../fee-toasts';
import { EMPTY_RULE, ruleToValues, ruleValuesToInput, type RuleValues } from '../form-values';
import { useCreateRule, useUpdateRule } from '../mutations';
import { MoneyInput, PercentInput } from './money-inputs';
import viewOnlyCss from './view-only.module.css';
import { FormModal } from '../../../ui/form-modal';

// spec: accounts-admin-fees §4 Modal modes: create, edit, view.
export type RuleModalMode = 'create' | 'edit' | 'view';

export type SurchargeRuleModalProps = {
  scope: FeeScope;
  mode: RuleModalMode | null;
  rule: TSurchargeRule | null;
  canWrite: boolean;
  onClose: () => void;
  onEdit: () => void;
};

const TITLES: Record<RuleModalMode, string> = { create: 'New Surcharge Rule', edit: 'Edit Surcharge Rule', view: 'Surcharge Rule' };

export function SurchargeRuleModal({ scope, mode, rule, canWrite, onClose, onEdit }: SurchargeRuleModalProps) {
  const create = useCreateRule(scope);
  const update = useUpdateRule(scope);
  const pending = create.isPending || update.isPending;
  const form = useForm<RuleValues>({
    initialValues: EMPTY_RULE,
    validate: zodValidate(ZSurchargeRuleInput, ruleValuesToInput),
    validateInputOnBlur: true,
  });

  useResetForm(form, mode && `${mode}:${rule?.id ?? ''}`, () => (mode === 'create' || !rule ? EMPTY_RULE : ruleToValues(rule)));

  const view = mode === 'view';
  // spec: accounts §4: the default checkbox is locked when the rule is already default, and the
  // default rule cannot be switched off.
  const isDefault = !!rule?.default && mode !== 'create';
  const defaultLocked = view || isDefault;
  const activeLocked = view || isDefault || form.values.default;

  const submit = form.onSubmit(
    (values) => {
      const input = ruleValuesToInput(values);
      const failed = (e: unknown) => {
        applyServerFields(form, e);
      };
      if (mode === 'create') {
        create.mutate(input, {
          onSuccess: () => {
            feeToast.ruleCreated();
            onClose();
          },
          onError: (e) => {
            failed(e);
            feeToast.ruleCreateFailed(e);
          },
        });
      } else if (rule) {
        update.mutate(
          { id: rule.id, input },
          {
            onSuccess: () => {
              feeToast.ruleUpdated();
              onClose();
            },
            onError: (e) => {
              failed(e);
              feeToast.ruleUpdateFailed(e);
            },
          },
        );
      }
    },
    () => feeToast.invalid(),
  );

  return (
    <FormModal dirty={form.isDirty()} busy={pending} opened={mode !== null} onClose={onClose} title={mode ? TITLES[mode] : ''} size="lg" centered>
      <form onSubmit={submit} noValidate aria-label={mode ? TITLES[mode] : undefined} className={view ? viewOnlyCss.viewOnly : undefined}>
        <Stack gap="md">
          <TextInput label="Surcharge Rule Name" placeholder="Standard Service Fee" required disabled={view} data-autofocus {...form.getInputProps('name')} />
          <Divider label="Online and app sales" labelPosition="left" />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <PercentInput label="Service Fee (%)" required disabled={view} {...form.getInputProps('serviceFeePercent')} />
            <MoneyInput label="Service Fee (flat rate)" required disabled={view} {...form.getInputProps('serviceFeeFlatRate')} />
          </SimpleGrid>
          <Divider label="Box office (POS) sales" labelPosition="left" />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <PercentInput label="POS Service Fee (%)" required disabled={view} {...form.getInputProps('serviceFeePOSPercent')} />
            <MoneyInput label="POS Service Fee (flat rate)" required disabled={view} {...form.getInputProps('serviceFeePOSFlatRate')} />
          </SimpleGrid>
          <Divider />
          <Group gap="xl">
            <Switch
              label="Active"
              disabled={activeLocked}
              {...form.getInputProps('active', { type: 'checkbox' })}
            />
            <Checkbox
              label="Default surcharge rule"
              disabled={defaultLocked}
              {...form.getInputProps('default', { type: 'checkbox' })}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                form.setFieldValue('default', on);
                // Only an active rule can be the default.
                if (on) form.setFieldValue('active', true);
              }}
            />
          </Group>
          {isDefault && !view && (
            <Alert variant="light" color="brand" icon={<IconInfoCircle size={18} />} p="sm">
              <Text fz="sm">This is the default surcharge rule: it stays active and default until another rule is made the default.</Text>
            </Alert>
          )}
          {!isDefault && form.values.default && !view && (
            <Text fz="xs" c="dimmed">
              Saving makes this the default surcharge rule in place of the current one.
            </Text>
          )}
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={pending}>
              {view ? 'Close' : 'Cancel'}
            </Button>
            {view && canWrite && <Button onClick={onEdit}>Edit</Button>}
            {!view && (
              <Button type="submit" loading={pending} disabled={mode === 'edit' && !form.isDirty()}>
                {mode === 'create' ? 'Create Rule' : 'Save'}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}

