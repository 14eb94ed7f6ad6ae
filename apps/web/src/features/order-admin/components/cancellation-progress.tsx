import { Alert, Group, Progress, Stack, Text } from '@mantine/core';
import { IconReceiptRefund } from '@tabler/icons-react';
import { formatMoney } from '../../../ui/money';
import { useCancellationProgress } from '../queries';

/** The refunds an event's cancellation started (a job), shown on the event page while and after they run. */
export function CancellationProgress({ tenantId, eventId, cancelled }: { tenantId: string; eventId: string; cancelled: boolean }) {
  const progress = useCancellationProgress(tenantId, eventId, cancelled);
  const p = progress.data;
  if (!cancelled || !p || p.status === 'none' || p.total === 0) return null;
  const done = p.refunded + p.failed;
  const pct = p.total ? Math.round((done / p.total) * 100) : 100;
  const running = p.status === 'running';
  return (
    <Alert
      mb="md"
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
              {p.failed} failed: open those orders to refund them again
            </Text>
          )}
        </Group>
      </Stack>
    </Alert>
  );
}
