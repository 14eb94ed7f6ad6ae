import { Button, Skeleton, Stack } from '@mantine/core';
import { M } from '@marquee/core';
import { IconSettingsOff } from '@tabler/icons-react';
import { useEffect } from 'react';
import { EmptyState } from '../../../ui/empty-state';
import { PageHeader } from '../../../ui/page-header';
import { usePlatformAccess } from '../../../shared/access';
import type { FeeScope } from '../api';
import { showLoadFailure } from '../load-failure';
import { useTicketSettings } from '../queries';
import { SurchargeRulesTable } from './surcharge-rules-table';
import { TicketSettingsForm } from './ticket-settings-form';

const GLOBAL: FeeScope = { kind: 'global' };

/** spec: accounts §2 screen 17 Global Fees: the template every new tenant starts from. */
export function GlobalFeesPage() {
  const { canWrite } = usePlatformAccess();
  const settings = useTicketSettings(GLOBAL);

  useEffect(() => {
    if (settings.error) showLoadFailure('global-settings-load', M.globalSettingsLoadFailed);
  }, [settings.error]);

  return (
    <>
      <PageHeader
        title="Global Fees"
        description="The surcharge rules and fee settings every new tenant starts with. Changing them here does not change existing tenants."
      />
      <Stack gap="xl">
        <SurchargeRulesTable
          scope={GLOBAL}
          settings={settings.data}
          canWrite={canWrite}
          description="Service fees charged per ticket. The default rule applies to every ticket type that does not choose another."
        />
        {settings.data ? (
          <TicketSettingsForm scope={GLOBAL} settings={settings.data} canWrite={canWrite} />
        ) : settings.error ? (
          <EmptyState
            icon={<IconSettingsOff size={28} stroke={1.6} />}
            title="Global settings are not available"
            description={M.globalSettingsLoadFailed}
            action={
              <Button variant="light" onClick={() => void settings.refetch()}>
                Try again
              </Button>
            }
          />
        ) : (
          <Stack>
            <Skeleton height={140} radius="lg" />
            <Skeleton height={320} radius="lg" />
          </Stack>
        )}
      </Stack>
    </>
  );
}
