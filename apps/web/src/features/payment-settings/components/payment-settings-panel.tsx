import { Button, Group, Paper, Radio, SimpleGrid, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  DEFAULT_PASS_ALONG_OPTION,
  M,
  parsePassAlongOption,
  payoutAutomaticFor,
  PASS_ALONG_DESCRIPTIONS,
  type PassAlongChannel,
  type PaymentAccountType,
  type TPaymentSettings,
} from '@marquee/core';
import { IconCreditCardOff } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import { errorMessage, isNotFound } from '../../../ui/api-client';
import { EmptyState } from '../../../ui/empty-state';
import { formatMoney } from '../../../ui/money';
import { notify } from '../../../ui/notify';
import { usePaymentSettings, useUpdatePaymentSettings } from '../queries';
import { PayoutAccountPanel } from './payout-account-panel';

/** What a channel's pass-along option means (spec: accounts §9); option 1 where none is set. */
const passAlongText = (channel: PassAlongChannel, value: string) =>
  PASS_ALONG_DESCRIPTIONS[parsePassAlongOption(channel, value) ?? DEFAULT_PASS_ALONG_OPTION];

// spec: accounts-admin-fees §9: 3000 ms for payment toasts.
export const PAYMENT_TOAST_MS = 3000;

const PAYOUT_LABELS: Record<TPaymentSettings['payout']['type'], string> = {
  end_of_event: 'At the end of each event',
  weekly: 'Weekly',
  daily: 'Daily',
  monthly: 'Monthly',
};

type Values = { type: PaymentAccountType; chargeSurchargeFeesToPlatform: boolean };
const toValues = (s: TPaymentSettings): Values => ({ type: s.payment.type, chargeSurchargeFeesToPlatform: s.payout.chargeSurchargeFeesToPlatform });

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: 0.4 }}>
        {label}
      </Text>
      <Text component="div" fz="sm">
        {children}
      </Text>
    </Stack>
  );
}

/** spec: accounts §2 screen 16 Payment/Payouts settings for a tenant (platform console). */
export function PaymentSettingsPanel({ tenantId, canWrite }: { tenantId: string; canWrite: boolean }) {
  const settings = usePaymentSettings(tenantId);
  const update = useUpdatePaymentSettings(tenantId);
  const form = useForm<Values>({ initialValues: { type: 'platform', chargeSurchargeFeesToPlatform: false } });
  // What is saved, as state: a save re-renders with the new starting point even when the form's
  // values stay the same.
  const [saved, setSaved] = useState<Values | null>(null);

  useEffect(() => {
    if (!settings.data) return;
    const v = toValues(settings.data);
    setSaved(v);
    form.setInitialValues(v);
    form.setValues(v);
  }, [settings.data]);

  useEffect(() => {
    if (isNotFound(settings.error))
      notify.error(M.paymentSettingsMissing, undefined, { duration: PAYMENT_TOAST_MS, id: 'payment-settings-missing' });
  }, [settings.error]);

  if (settings.error) {
    const missing = isNotFound(settings.error);
    return (
      <EmptyState
        icon={<IconCreditCardOff size={28} stroke={1.6} />}
        title={missing ? M.paymentSettingsMissing : 'Payment/Payout settings could not be loaded'}
        description={missing ? 'This tenant has no payment or payout settings yet.' : errorMessage(settings.error)}
        action={
          <Button variant="light" onClick={() => void settings.refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  if (!settings.data) return <Skeleton height={360} radius="lg" />;

  const s = settings.data;
  const disabled = !canWrite;
  // spec: accounts §4: the tenant's account forces automatic payout on, the platform's off.
  const automatic = payoutAutomaticFor(form.values.type);
  const dirty = !!saved && (saved.type !== form.values.type || saved.chargeSurchargeFeesToPlatform !== form.values.chargeSurchargeFeesToPlatform);

  const save = form.onSubmit((values) =>
    update.mutate(
      { tenantId, payment: { type: values.type }, payout: { automatic: payoutAutomaticFor(values.type), chargeSurchargeFeesToPlatform: values.chargeSurchargeFeesToPlatform } },
      {
        onSuccess: () => notify.success(M.paymentUpdated, undefined, { duration: PAYMENT_TOAST_MS }),
        onError: (e) => notify.error(M.paymentUpdateFailed, errorMessage(e), { duration: PAYMENT_TOAST_MS }),
      },
    ),
  );

  return (
    <Stack gap="lg">
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        <form onSubmit={save} noValidate aria-label="Payment/Payouts settings">
          <Stack gap="lg">
            <div>
              <Title order={3} fz="md">
                Payment account
              </Title>
              <Text fz="sm" c="dimmed">
                Which account ticket payments go to. Payments to the tenant's own account are paid out to it automatically; payments to the platform account are paid out by Marquee.
              </Text>
            </div>
            <Radio.Group {...form.getInputProps('type')} aria-label="Payment account">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                <Radio.Card value="platform" radius="md" p="md" disabled={disabled} data-testid="account-platform">
                  <Group wrap="nowrap" align="flex-start" gap="sm">
                    <Radio.Indicator disabled={disabled} />
                    <div>
                      <Text fw={600} fz="sm">
                        Platform account
                      </Text>
                      <Text fz="xs" c="dimmed">
                        Marquee collects payments and pays the tenant out.
                      </Text>
                    </div>
                  </Group>
                </Radio.Card>
                <Radio.Card value="tenant" radius="md" p="md" disabled={disabled} data-testid="account-tenant">
                  <Group wrap="nowrap" align="flex-start" gap="sm">
                    <Radio.Indicator disabled={disabled} />
                    <div>
                      <Text fw={600} fz="sm">
                        Tenant account
                      </Text>
                      <Text fz="xs" c="dimmed">
                        Payments go to the tenant's own account with the card provider.
                      </Text>
                    </div>
                  </Group>
                </Radio.Card>
              </SimpleGrid>
            </Radio.Group>
            <Stack gap="md">
              <Switch
                label="Automatic payout"
                description="Set by the payment account: on for the tenant's account, off for the platform's."
                checked={automatic}
                readOnly
                disabled
                data-testid="automatic-payout"
              />
              <Switch
                label="Deduct platform fees from payouts"
                description="Platform and surcharge fees are taken from the tenant's payouts."
                disabled={disabled}
                {...form.getInputProps('chargeSurchargeFeesToPlatform', { type: 'checkbox' })}
              />
            </Stack>
            {canWrite && (
              <Group justify="flex-end" gap="sm">
                <Button variant="default" disabled={!dirty || update.isPending} onClick={() => saved && form.setValues(saved)}>
                  Discard changes
                </Button>
                <Button type="submit" loading={update.isPending} disabled={!dirty}>
                  Save
                </Button>
              </Group>
            )}
          </Stack>
        </form>
      </Paper>

      <PayoutAccountPanel tenantId={tenantId} canWrite={canWrite} />

      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="md">
          <Title order={3} fz="md">
            Set-up
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            <Fact label="Payout schedule">{PAYOUT_LABELS[s.payout.type]}</Fact>
            <Fact label="Service fee round-up">{formatMoney(s.fees.serviceFeeRoundUp)}</Fact>
            <Fact label="Online sales">{passAlongText('ONLINE', s.fees.serviceFeeOnlineSales)}</Fact>
            <Fact label="Backend sales">{passAlongText('BACKEND', s.fees.serviceFeeBackendSales)}</Fact>
            <Fact label="App sales">{passAlongText('APP', s.fees.serviceFeeAppSales)}</Fact>
          </SimpleGrid>
        </Stack>
      </Paper>
    </Stack>
  );
}
