import { Button, Paper, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { IconSettingsOff } from '@tabler/icons-react';
import { useMemo } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { EmptyState } from '../../../ui/empty-state';
import type { FeeScope } from '../api';
import { feeToast } from '../fee-toasts';
import { settingsValuesToInput, settingsToValues } from '../form-values';
import { useUpdateSettings } from '../mutations';
import { useTicketSettings } from '../queries';
import { SurchargeRulesTable } from './surcharge-rules-table';
import { ReadOnlyFeesNotice, TicketSettingsForm } from './ticket-settings-form';

export const ALLOW_TENANT_EDIT_LABEL = 'Allow Tenant to Edit Fees Settings';

export type TenantFeesPanelProps = {
  tenantId: string;
  /** Which console shows it: the platform (with the control switch) or the tenant's own. */
  console: 'platform' | 'tenant';
  /** The person's own right to write (platform writer, or the tenant's admin). */
  canWrite: boolean;
};

/** spec: accounts §2 screen 15 Tenant Fees: a tenant's surcharge rules and fee settings. */
export function TenantFeesPanel({ tenantId, console, canWrite }: TenantFeesPanelProps) {
  const scope = useMemo<FeeScope>(() => ({ kind: 'tenant', tenantId, console }), [tenantId, console]);
  const settings = useTicketSettings(scope);
  const update = useUpdateSettings(scope);

  if (settings.error) {
    return (
      <EmptyState
        icon={<IconSettingsOff size={28} stroke={1.6} />}
        title="Fee settings could not be loaded"
        description={errorMessage(settings.error)}
        action={
          <Button variant="light" onClick={() => void settings.refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  if (!settings.data) {
    return (
      <Stack>
        <Skeleton height={220} radius="lg" />
        <Skeleton height={320} radius="lg" />
      </Stack>
    );
  }
  const s = settings.data;
  // spec: accounts §6: a tenant admin edits fees only while the platform allows it (the server
  // refuses otherwise); the platform always may.
  const writable = canWrite && (console === 'platform' || s.isTenantSettingsControlEnabled);

  const setControl = (on: boolean) =>
    update.mutate(
      { ...settingsValuesToInput({ ...settingsToValues(s), isTenantSettingsControlEnabled: on }) },
      { onSuccess: feeToast.settingsUpdated, onError: (e) => feeToast.settingsFailed(scope, e) },
    );

  return (
    <Stack gap="xl">
      {console === 'platform' ? (
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
          <Switch
            size="md"
            labelPosition="left"
            label={<Text fw={600}>{ALLOW_TENANT_EDIT_LABEL}</Text>}
            description="When on, the tenant's admins can change these rules and settings from their own console."
            checked={s.isTenantSettingsControlEnabled}
            disabled={!canWrite || update.isPending}
            onChange={(e) => setControl(e.currentTarget.checked)}
            data-testid="allow-tenant-edit"
            styles={{ body: { justifyContent: 'space-between', gap: 'var(--mantine-spacing-md)' }, labelWrapper: { flex: 1 } }}
          />
        </Paper>
      ) : (
        !writable && (
          <ReadOnlyFeesNotice>
            {s.isTenantSettingsControlEnabled
              ? 'Only your organisation’s admins can change fees.'
              : 'Your fees are managed by Marquee. You can review them here; to change them, ask Marquee to allow your organisation to edit its fees settings.'}
          </ReadOnlyFeesNotice>
        )
      )}
      <SurchargeRulesTable scope={scope} settings={s} canWrite={writable} description="Service fees charged per ticket. The default rule applies to every ticket type that does not choose another." />
      <TicketSettingsForm scope={scope} settings={s} canWrite={writable} />
    </Stack>
  );
}
