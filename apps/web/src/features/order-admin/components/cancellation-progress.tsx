import { Alert, Group, Progress, Stack, Text } from '@mantine/core';
import type { TCancellationProgress } from '@marquee/core';
import { IconReceiptRefund } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { formatMoney } from '../../../ui/money';

const POLL_MS = 2000;

export type CancellationProgressProps = {
  /** The event answer's `cancellation` (a cancelled event's refunds of its paid orders). */
  progress: TCancellationProgress | undefined;
  /** Reloads the event while the refunds run. */
  onRefresh: () => void;
};

/** The refunds an event's cancellation started (a job), shown on the event page while and after they run. */
export function CancellationProgress({ progress: p, onRefresh }: CancellationProgressProps) {
  const refresh = useRef(onRefresh);
  refresh.current = onRefresh;
  const running = p?.status === 'running';
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => refresh.current(), POLL_MS);
    return () => clearInterval(timer);
  }, [running]);

  if (!p || p.status === 'none' || p.total === 0) return null;
  const done = p.refunded + p.failed;
  const pct = p.total ? Math.round((done / p.total) * 100) : 100;
  return (
    <Alert
      mb="lg"
      variant="light"
      color={p.failed > 0 ? 'red' : running ? 'brand' : 'teal'}
      icon={<IconReceiptRefund size={18} />}
      title={running ? 'Refunding the orders of this cancelled event' : 'Cancellation refunds finished'}
      data-testid="cancellation-progress"
    >
      <Stack gap={6}>
        <Progress value={pct} animated={running} aria-label="Refund progress" />
        <Group gap="lg">
          <Text fz="sm">
            {p.refunded} of {p.total} order{p.total === 1 ? '' : 's'} refunded ({formatMoney(p.refundedAmount)})
          </Text>
          {p.pending > 0 && <Text fz="sm">{p.pending} waiting</Text>}
          {p.failed > 0 && (
            <Text fz="sm" c="red.7">
              {p.failed} failed: open those orders in Reports to refund them again
            </Text>
          )}
        </Group>
      </Stack>
    </Alert>
  );
}
