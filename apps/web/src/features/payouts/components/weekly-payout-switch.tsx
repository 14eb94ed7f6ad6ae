import { Badge, Paper, Switch, Text } from '@mantine/core';
import { M, PLATFORM_WRITE, type TPayoutSettings } from '@marquee/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { hasPlatformRole, useSession } from '../../../ui/session';
import { payoutsApi } from '../api';

// Beyond the spec (issue 9): the platform's weekly automatic payout run, off by default. Every
// operator sees whether it is on; super users and platform managers switch it.

const settingsKey = ['payouts', 'settings'] as const;

export function WeeklyPayoutSwitch() {
  const { memberships } = useSession();
  const canChange = hasPlatformRole(memberships, PLATFORM_WRITE);
  const client = useQueryClient();
  const settings = useQuery({ queryKey: settingsKey, queryFn: ({ signal }) => payoutsApi.settings(signal) });
  const save = useMutation({
    mutationFn: (body: TPayoutSettings) => payoutsApi.updateSettings(body),
    onSuccess: (answer) => {
      client.setQueryData(settingsKey, answer);
      notify.success(answer.weeklyAutomatic ? 'Weekly automatic payouts turned on' : 'Weekly automatic payouts turned off');
    },
    onError: (e) => notify.error(M.errorTitle, errorMessage(e)),
  });
  const on = save.isPending ? !!save.variables?.weeklyAutomatic : !!settings.data?.weeklyAutomatic;
  return (
    <Paper withBorder radius="md" p="sm" mb="md" data-testid="weekly-payouts">
      <Switch
        label={
          <>
            <span>Weekly automatic payouts</span>
            <Badge component="span" ml={8} size="sm" variant="light" color={on ? 'teal' : 'gray'}>
              {on ? 'On' : 'Off'}
            </Badge>
          </>
        }
        description={
          <>
            Every Monday (UTC), every ready, unheld order the platform collected is transferred to its tenant, and each tenant is emailed what was paid. Orders that
            cannot be paid stay on this page.
            {!canChange && ' Only super users and platform managers can change this.'}
          </>
        }
        checked={on}
        disabled={!canChange || settings.isPending || settings.isError || save.isPending}
        onChange={(e) => save.mutate({ weeklyAutomatic: e.currentTarget.checked })}
      />
      {settings.isError && (
        <Text fz="xs" c="red" mt={4}>
          {errorMessage(settings.error)}
        </Text>
      )}
    </Paper>
  );
}
