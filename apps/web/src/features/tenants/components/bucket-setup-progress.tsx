import { Button, CloseButton, Group, Paper, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import { M } from '@marquee/core';
import { IconCircleCheck, IconLoader2, IconRefresh, IconWorldExclamation } from '@tabler/icons-react';
import { useState } from 'react';
import { bucketTimerProgress, type BucketTimer } from '../bucket-timer';
import classes from './bucket-setup-progress.module.css';

export type BucketSetupProgressProps = { timer: BucketTimer; onRetry: () => Promise<void>; onDismiss: () => void };

function statusLine(timer: BucketTimer): string {
  if (timer.phase === 'success') return `${M.createBucketSuccess}: the event site is ready.`;
  if (timer.phase === 'failed') return `${M.createBucketFailedBody}. Retry to set it up again.`;
  if (timer.status === 'NOT_FOUND') return 'The event site was not found at the last check; it will be reported as failed if it is still missing at 60 seconds.';
  return 'Preparing the event site… checking its status every 5 seconds.';
}

/** spec: accounts §4 bucket set-up timer, shown as a progress bar with a status line. */
export function BucketSetupProgress({ timer, onRetry, onDismiss }: BucketSetupProgressProps) {
  const [retrying, setRetrying] = useState(false);
  const color = timer.phase === 'success' ? 'teal' : timer.phase === 'failed' ? 'red' : 'brand';
  const Icon = timer.phase === 'success' ? IconCircleCheck : timer.phase === 'failed' ? IconWorldExclamation : IconLoader2;
  return (
    <Paper withBorder radius="lg" p="md" mb="md" data-testid="bucket-setup" data-phase={timer.phase} aria-live="polite">
      <Group align="flex-start" wrap="nowrap" gap="md">
        <ThemeIcon variant="light" color={color} size={38} radius="md">
          <Icon size={20} className={timer.phase === 'running' ? classes.spin : undefined} />
        </ThemeIcon>
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={600} truncate>
              {timer.phase === 'success'
                ? `${timer.tenantName || 'The new tenant'} is set up`
                : timer.phase === 'failed'
                  ? `Setting up ${timer.tenantName || 'the new tenant'} failed`
                  : `Setting up ${timer.tenantName || 'the new tenant'}`}
            </Text>
            <Group gap="xs" wrap="nowrap">
              {timer.phase === 'failed' && (
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  leftSection={<IconRefresh size={14} />}
                  loading={retrying}
                  onClick={() => {
                    setRetrying(true);
                    void onRetry().finally(() => setRetrying(false));
                  }}
                >
                  Retry
                </Button>
              )}
              {timer.phase !== 'running' && <CloseButton size="sm" aria-label="Dismiss" onClick={onDismiss} />}
            </Group>
          </Group>
          <Progress
            value={bucketTimerProgress(timer)}
            color={color}
            size="md"
            radius="xl"
            striped={timer.phase === 'running'}
            animated={timer.phase === 'running'}
            aria-label="Event site set-up"
          />
          <Text fz="sm" c={timer.phase === 'failed' ? 'red.7' : 'dimmed'} data-testid="bucket-status-line">
            {statusLine(timer)}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}
