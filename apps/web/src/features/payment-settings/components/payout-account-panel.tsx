import { Alert, Badge, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { CONNECT_STATE_LABELS, PAYMENT_DRIVER_LABELS, type ConnectState, type TPaymentAccount } from '@marquee/core';
import { IconExternalLink, IconRefresh } from '@tabler/icons-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { usePaymentAccount, useRefreshPaymentAccount, useStartOnboarding } from '../queries';

// Issue 21.18: the tenant's payout account, connected through the gateway's hosted onboarding
// (Stripe Connect, or the test gateway's stand-in page) instead of an account id copied by hand.
// The onboarding comes back here with ?connect=return (asked about at once) or ?connect=refresh
// (the link expired or was used: a new one is one click away).

const STATE_COLOR: Record<ConnectState, string> = { not_connected: 'gray', incomplete: 'orange', pending: 'yellow', connected: 'teal', manual: 'blue' };
const TOAST_MS = 6000;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: 0.4 }}>
        {label}
      </Text>
      <Text component="div" fz="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** What the state means for this tenant's payouts, in a sentence. */
function explain(a: TPaymentAccount, processor: string): string {
  switch (a.state) {
    case 'not_connected':
      return `Payouts cannot be sent until the tenant has an account with ${processor}. Connecting opens ${processor}'s onboarding, where the account holder gives their business and bank details.`;
    case 'incomplete':
      return `The onboarding was started but not finished. Continue it to give ${processor} the details it still needs.`;
    case 'pending':
      return `The details are in. ${processor} is checking them; payouts can be sent once it enables them.`;
    case 'connected':
      return `Payouts go to this account.`;
    case 'manual':
      return `Payouts go to an account id entered by hand. Connect through onboarding to have ${processor} confirm the account.`;
  }
}

function yesNo(v: boolean) {
  return v ? 'Yes' : 'No';
}

export function PayoutAccountPanel({ tenantId, canWrite }: { tenantId: string; canWrite: boolean }) {
  const account = usePaymentAccount(tenantId);
  const refresh = useRefreshPaymentAccount(tenantId);
  const start = useStartOnboarding(tenantId);
  const [params, setParams] = useSearchParams();
  const returned = params.get('connect');
  const handled = useRef(false);

  // Back from onboarding: ask the gateway once, say what it answered, and drop the marker from the URL.
  useEffect(() => {
    if (returned !== 'return' || handled.current) return;
    handled.current = true;
    refresh.mutate(undefined, {
      onSuccess: (a) => {
        const processor = PAYMENT_DRIVER_LABELS[a.driver];
        if (a.state === 'connected') notify.success('Payout account connected', `Payouts now go to ${a.accountId}.`, { duration: TOAST_MS });
        else if (a.state === 'pending') notify.info('Details submitted', `${processor} is checking them; payouts can be sent once it enables them.`, { duration: TOAST_MS });
        else notify.warning('Onboarding not finished', 'The account still needs details. Continue the onboarding when you are ready.', { duration: TOAST_MS });
      },
      onError: (e) => notify.error('Could not check the payout account', errorMessage(e), { duration: TOAST_MS }),
      onSettled: () =>
        setParams(
          (p) => {
            p.delete('connect');
            return p;
          },
          { replace: true },
        ),
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [returned]);

  const onboard = () =>
    start.mutate(undefined, {
      // The link is single-use and expires within minutes: go now.
      onSuccess: (link) => window.location.assign(link.url),
      onError: (e) => notify.error('Could not start the onboarding', errorMessage(e), { duration: TOAST_MS }),
    });
  const check = () =>
    refresh.mutate(undefined, {
      onSuccess: (a) => notify.success('Status checked', CONNECT_STATE_LABELS[a.state], { duration: 3000 }),
      onError: (e) => notify.error('Could not check the payout account', errorMessage(e), { duration: TOAST_MS }),
    });

  if (account.error) {
    return (
      <Alert color="red" variant="light" radius="lg" title="The payout account could not be loaded">
        {errorMessage(account.error)}
      </Alert>
    );
  }
  if (!account.data) return <Skeleton height={200} radius="lg" />;

  const a = account.data;
  const processor = PAYMENT_DRIVER_LABELS[a.driver];
  const shown = a.destination ?? a.accountId;
  const onboardLabel = a.state === 'incomplete' || a.state === 'pending' ? 'Continue onboarding' : a.state === 'connected' ? null : 'Connect payout account';

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} aria-labelledby="payout-account-title" data-testid="payout-account">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="xs">
          <div style={{ flex: '1 1 260px' }}>
            <Group gap="xs" align="center">
              <Title order={3} fz="md" id="payout-account-title">
                Payout account
              </Title>
              <Badge color={STATE_COLOR[a.state]} variant="light" radius="sm" data-testid="payout-account-state">
                {CONNECT_STATE_LABELS[a.state]}
              </Badge>
            </Group>
            <Text fz="sm" c="dimmed" mt={4}>
              {explain(a, processor)}
            </Text>
          </div>
        </Group>
        {returned === 'refresh' && (
          <Alert color="yellow" variant="light" radius="md" title="The onboarding link expired">
            Onboarding links work once and only for a few minutes.{canWrite ? ' Continue to get a new one.' : ''}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg">
          <Fact label="Card processor">
            <Group gap={6}>
              <span data-testid="card-processor">{processor}</span>
              {a.testMode && (
                <Badge size="sm" color="orange" variant="light" radius="sm">
                  Test mode
                </Badge>
              )}
            </Group>
          </Fact>
          <Fact label="Account">{shown ? <span data-testid="payout-account-id">{shown}</span> : 'None'}</Fact>
          <Fact label="Details submitted">{a.accountId ? yesNo(a.detailsSubmitted) : '—'}</Fact>
          <Fact label="Payouts enabled">{a.accountId ? yesNo(a.payoutsEnabled) : '—'}</Fact>
        </SimpleGrid>
        {(a.accountId || (canWrite && onboardLabel)) && (
          <Group justify="space-between" gap="sm">
            <Text fz="xs" c="dimmed">
              {a.checkedAt ? `Last checked with ${processor} ${new Date(a.checkedAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}` : ''}
            </Text>
            <Group gap="sm">
              {a.accountId && (
                <Button variant="default" leftSection={<IconRefresh size={16} />} loading={refresh.isPending} onClick={check}>
                  Check status
                </Button>
              )}
              {canWrite && onboardLabel && (
                <Button rightSection={<IconExternalLink size={16} />} loading={start.isPending} onClick={onboard}>
                  {onboardLabel}
                </Button>
              )}
            </Group>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
