import { Alert, Box, Button, Group, NumberInput, Paper, Radio, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  COMPLIMENTARY_UNLIMITED,
  PASS_ALONG_DESCRIPTIONS,
  PASS_ALONG_FIELDS,
  PASS_ALONG_OPTIONS,
  passAlongOption,
  ZTicketSettingsInput,
  type PassAlongChannel,
  type TTicketSettingsResource,
} from '@marquee/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import { applyServerFields, zodValidate } from '../../../ui/zod-form';
import type { FeeScope } from '../api';
import { feeToast } from '../fee-toasts';
import { settingsToValues, settingsValuesToInput, type SettingsValues } from '../form-values';
import { useUpdateSettings } from '../mutations';
import { MoneyInput, PercentInput } from './money-inputs';
import viewOnlyCss from './view-only.module.css';

// issue 15: every channel's option; the box office (BACKEND) sells since issue 23, apps (APP, with an
// API key) since issue 25.
const CHANNELS: { channel: PassAlongChannel; label: string; note?: string }[] = [
  { channel: 'ONLINE', label: 'Online sales' },
  { channel: 'BACKEND', label: 'Backend (box office) sales', note: 'Applies to sales at the box office (cash and the venue card terminal).' },
  // issue 25: orders placed by an app with an API key are sold on the APP channel.
  { channel: 'APP', label: 'App sales', note: 'Orders your own apps place with an API key.' },
];

const sameValues = (a: SettingsValues, b: SettingsValues) =>
  (Object.keys(a) as (keyof SettingsValues)[]).every((k) => a[k] === b[k]);

export function Section({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <div>
          <Title order={3} fz="md">
            {title}
          </Title>
          {description && (
            <Text fz="sm" c="dimmed" maw={720}>
              {description}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}

export type TicketSettingsFormProps = {
  scope: FeeScope;
  settings: TTicketSettingsResource;
  /** false: every input is disabled and there is no Save (view-only). */
  canWrite: boolean;
};

/**
 * Donation service fee settings, the Fees page (pass-along options and charges) and the default
 * ticket fee settings (spec: accounts §2 screens 14, 15, 17; §5 Settings).
 */
export function TicketSettingsForm({ scope, settings, canWrite }: TicketSettingsFormProps) {
  const update = useUpdateSettings(scope);
  const form = useForm<SettingsValues>({
    initialValues: settingsToValues(settings),
    validate: zodValidate(ZTicketSettingsInput, settingsValuesToInput),
    validateInputOnChange: true,
  });

  // What is saved, as state: a save (or the control switch) re-renders with the new starting point.
  const [saved, setSaved] = useState<SettingsValues>(() => settingsToValues(settings));

  useEffect(() => {
    const next = settingsToValues(settings);
    // Unsaved edits survive a refresh (the control switch saves on its own), but not the loss of
    // the right to write: a read-only page shows what is saved, with no errors.
    const keepEdits = canWrite && !sameValues(saved, form.values);
    setSaved(next);
    form.setInitialValues(next);
    if (!keepEdits) form.setValues(next);
    else form.setFieldValue('isTenantSettingsControlEnabled', next.isTenantSettingsControlEnabled);
  }, [settings, canWrite]);

  const v = form.values;
  const off = !canWrite;
  const taxOff = off || !v.chargeTax;
  const unlimited = v.maximumComplimentaryTickets === COMPLIMENTARY_UNLIMITED;
  const hasErrors = Object.keys(form.errors).length > 0;
  const dirty = !sameValues(saved, form.values);

  const submit = form.onSubmit(
    (values) => {
      const input = settingsValuesToInput(values);
      update.mutate(scope.kind === 'global' ? { ...input, isTenantSettingsControlEnabled: false } : input, {
        onSuccess: (result) => {
          const next = settingsToValues(result.settings);
          setSaved(next);
          form.setInitialValues(next);
          form.setValues(next);
          feeToast.settingsUpdated();
        },
        onError: (e) => {
          applyServerFields(form, e);
          feeToast.settingsFailed(scope, e);
        },
      });
    },
    // spec: accounts §5: saving is blocked while errors exist.
    () => feeToast.invalid(),
  );

  return (
    <form onSubmit={submit} noValidate aria-label="Fee settings" className={off ? viewOnlyCss.viewOnly : undefined}>
      <Stack gap="lg">
        <Section title="Donation Service Fee Settings" description="What Marquee keeps from donations made with a ticket order.">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" maw={640}>
            <PercentInput label="Donation Service Fee" required disabled={off} {...form.getInputProps('donationServiceFee')} />
            <MoneyInput label="Donation Charge" required disabled={off} {...form.getInputProps('donationCharge')} />
          </SimpleGrid>
        </Section>

        <Section
          title="Service Fee Pass-Along"
          description="Who pays the service fee and the card processing fee, for each way tickets are sold."
        >
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
            {CHANNELS.map(({ channel, label, note }) => (
              <Radio.Group
                key={channel}
                label={label}
                description={note}
                {...form.getInputProps(PASS_ALONG_FIELDS[channel])}
                data-testid={`pass-along-${channel.toLowerCase()}`}
              >
                <Stack gap="xs" mt="xs">
                  {PASS_ALONG_OPTIONS.map((n) => (
                    <Radio
                      key={n}
                      value={passAlongOption(channel, n)}
                      disabled={off}
                      label={`Option ${n}`}
                      description={PASS_ALONG_DESCRIPTIONS[n]}
                    />
                  ))}
                </Stack>
              </Radio.Group>
            ))}
          </SimpleGrid>
          <MoneyInput
            label="Round service fees up to"
            description="Service fees are rounded up to a multiple of this amount."
            required
            disabled={off}
            maw={300}
            {...form.getInputProps('roundUpServiceFeeValue')}
          />
        </Section>

        <Section
          title="Taxes and Charges"
          description="Local and state taxes are the event producer's responsibility. The charges below apply only when tax is charged."
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" maw={640}>
            <Switch
              label="Charge Tax"
              disabled={off}
              mt={{ sm: 30 }}
              {...form.getInputProps('chargeTax', { type: 'checkbox' })}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                form.setFieldValue('chargeTax', on);
                // spec: accounts §5: the three charge toggles are disabled unless chargeTax is on.
                if (!on) {
                  form.setFieldValue('chargeOnline', false);
                  form.setFieldValue('chargeCash', false);
                  form.setFieldValue('chargeBoxOffice', false);
                }
                form.validate();
              }}
            />
            <PercentInput label="Tax Rate" required={v.chargeTax} disabled={taxOff} {...form.getInputProps('taxRate')} />
          </SimpleGrid>
          <Stack gap="sm" maw={640}>
            {(
              [
                ['chargeOnline', 'chargeOnlineValue', 'Charge Online Order'],
                ['chargeCash', 'chargeCashValue', 'Charge Cash Order'],
                ['chargeBoxOffice', 'chargeBoxOfficeValue', 'Charge Box Office'],
              ] as const
            ).map(([toggle, value, label]) => (
              <SimpleGrid key={toggle} cols={{ base: 1, sm: 2 }} spacing="md">
                <Switch
                  label={label}
                  disabled={taxOff}
                  mt={{ sm: 8 }}
                  {...form.getInputProps(toggle, { type: 'checkbox' })}
                  onChange={(e) => {
                    form.setFieldValue(toggle, e.currentTarget.checked);
                    form.validate();
                  }}
                />
                <MoneyInput
                  aria-label={`${label} amount`}
                  required={value === 'chargeBoxOfficeValue' || (value === 'chargeCashValue' && v.chargeTax && v.chargeCash)}
                  disabled={taxOff || !v[toggle]}
                  {...form.getInputProps(value)}
                />
              </SimpleGrid>
            ))}
          </Stack>
        </Section>

        <Section title="Default Ticket Fee Settings" description="The platform and processing fees on each ticket, and how many complimentary tickets an order may hold.">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" maw={640}>
            <PercentInput label="Platform Fee" required disabled={off} {...form.getInputProps('platformFee')} />
            <PercentInput label="Processing Fee" required disabled={off} {...form.getInputProps('processingFee')} />
          </SimpleGrid>
          <Box maw={640}>
            <Text fz="sm" fw={500}>
              Maximum Complimentary Tickets
            </Text>
            <Text fz="xs" c="dimmed" mb={6} data-testid="complimentary-note">
              Per event: complimentary tickets from the box office and guest lists count against it.
            </Text>
            <Group gap="lg" align="flex-start" wrap="nowrap">
              <Switch
                label="Unlimited"
                disabled={off}
                mt={8}
                checked={unlimited}
                onChange={(e) => {
                  // spec: accounts §9: the unlimited toggle switches between 1 and 999999.
                  form.setFieldValue('maximumComplimentaryTickets', e.currentTarget.checked ? COMPLIMENTARY_UNLIMITED : 1);
                }}
              />
              <NumberInput
                aria-label="Maximum Complimentary Tickets"
                allowDecimal={false}
                thousandSeparator=","
                hideControls
                disabled={off || unlimited}
                style={{ flex: 1, maxWidth: 240 }}
                {...form.getInputProps('maximumComplimentaryTickets')}
                value={unlimited ? '' : form.values.maximumComplimentaryTickets}
                placeholder={unlimited ? 'Unlimited' : undefined}
              />
            </Group>
          </Box>
          <Switch
            label="Automatically show active tickets as sold out"
            description="On: a sold-out ticket type stays on the event's ticket menu, marked Sold out. Off: it is hidden (unless every type is sold out)."
            disabled={off}
            {...form.getInputProps('autoShowActiveTicketsAsSoldOut', { type: 'checkbox' })}
          />
        </Section>

        {canWrite && (
          <Paper
            withBorder
            radius="lg"
            p="md"
            pos={dirty ? 'sticky' : undefined}
            bottom={16}
            shadow={dirty ? 'md' : undefined}
            style={{ zIndex: 3 }}
            data-testid="settings-save-bar"
          >
            <Group justify="space-between" gap="sm">
              <Text fz="sm" c={hasErrors ? 'red.7' : 'dimmed'}>
                {hasErrors ? 'Fix the highlighted fields to save.' : dirty ? 'You have unsaved changes.' : 'All changes saved.'}
              </Text>
              <Group gap="sm">
                <Button variant="default" disabled={!dirty || update.isPending} onClick={() => { form.setValues(saved); form.clearErrors(); }}>
                  Discard changes
                </Button>
                <Button type="submit" loading={update.isPending} disabled={!dirty || hasErrors}>
                  Save settings
                </Button>
              </Group>
            </Group>
          </Paper>
        )}
      </Stack>
    </form>
  );
}

export function ReadOnlyFeesNotice({ children }: { children: ReactNode }) {
  return (
    <Alert variant="light" color="brand" icon={<IconInfoCircle size={18} />} data-testid="fees-read-only">
      {children}
    </Alert>
  );
}
