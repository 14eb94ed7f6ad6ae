import { Alert, Anchor, Badge, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { M, type TCancellationProblem, type TCancellationProgress } from '@marquee/core';
import { IconReceiptRefund } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { formatMoney } from '../../../ui/money';
import { useOrderPermissions } from '../access';
import { cancellationRefundText } from '../cancellation-text';
import { useSettleRefundFlow } from './settle-refund-modal';

/** While refunds wait for the card processor, the page looks every 2 s; while only retries wait (minutes to a day apart), every minute. */
const POLL_MS = 2000;
const RETRY_POLL_MS = 60_000;

export type CancellationProgressProps = {
  /** The event answer's `cancellation` (a cancelled event's refunds of its paid orders). */
  progress: TCancellationProgress | undefined;
  /** Reloads the event while the refunds run. */
  onRefresh: () => void;
  /** The event, for the links to its orders. */
  eventId: string;
  /** The event's tenant: settling an owed refund (issue 23) is the tenant's action. */
  tenantId: string;
};

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function Problem({ p, eventId }: { p: TCancellationProblem; eventId: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" data-testid="cancellation-problem" data-state={p.state}>
      <Badge size="sm" variant="light" color={p.state === 'failed' ? 'red' : 'orange'} style={{ flexShrink: 0, minWidth: 'max-content' }}>
        {p.state === 'failed' ? 'Failed' : 'Retrying'}
      </Badge>
      <Text fz="sm" style={{ minWidth: 0 }}>
        <Anchor component={Link} to={`/event/${encodeURIComponent(eventId)}/order/${encodeURIComponent(p.orderUID)}`} fw={600} ff="monospace" fz="sm">
          {p.orderUID}
        </Anchor>{' '}
        · {formatMoney(p.amount)} · {cancellationRefundText(p)}
      </Text>
    </Group>
  );
}

/**
 * The refunds an event's cancellation started (a job), shown on the event page while and after they
 * run: what it gives back (what the orders still held, never what was paid), how much went back,
 * and each order whose refund failed: retried automatically, or given up on with the reason.
 */
export function CancellationProgress({ progress: p, onRefresh, eventId, tenantId }: CancellationProgressProps) {
  const refresh = useRef(onRefresh);
  refresh.current = onRefresh;
  const can = useOrderPermissions(tenantId, eventId);
  const settle = useSettleRefundFlow(tenantId, eventId, () => refresh.current());
  const every = p?.status !== 'running' ? 0 : p.pending > 0 ? POLL_MS : RETRY_POLL_MS;
  useEffect(() => {
    if (!every) return;
    const timer = setInterval(() => refresh.current(), every);
    return () => clearInterval(timer);
  }, [every]);

  const owed = p?.owedAtBoxOffice ?? { orders: 0, amount: 0 };
  const settledHere = p?.settledAtBoxOffice ?? { orders: 0, amount: 0 };
  if (!p || p.status === 'none' || (p.total === 0 && p.alreadyRefunded === 0 && owed.orders === 0 && settledHere.orders === 0)) return null;
  const running = p.status === 'running';
  const settled = p.refunded + p.failed;
  const pct = p.total ? Math.round((settled / p.total) * 100) : 100;
  const trouble = p.failed > 0 || p.retrying > 0;
  return (
    <Alert
      mb="lg"
      variant="light"
      color={p.failed > 0 ? 'red' : p.retrying > 0 || owed.orders > 0 ? 'orange' : running ? 'brand' : 'teal'}
      icon={<IconReceiptRefund size={18} />}
      title={
        p.failed > 0
          ? 'Some cancellation refunds failed'
          : running
            ? 'Refunding the orders of this cancelled event'
            : owed.orders > 0
              ? 'Refunds owed at the box office'
              : 'Cancellation refunds finished'
      }
      data-testid="cancellation-progress"
    >
      <Stack gap={8}>
        {p.total > 0 && <Progress value={pct} animated={running && p.pending > 0} color={p.failed > 0 ? 'red' : running ? undefined : 'teal'} aria-label="Refund progress" />}
        {p.total > 0 && (
          <Text fz="sm" data-testid="cancellation-summary">
            {p.refunded} of {plural(p.total, 'order')} refunded: {formatMoney(p.refundedAmount)} of {formatMoney(p.toRefund)} given back.
          </Text>
        )}
        {owed.orders > 0 && (
          <Stack gap={6} data-testid="cancellation-owed">
            <Text fz="sm">
              <b>
                {plural(owed.orders, 'order')} ({formatMoney(owed.amount)})
              </b>{' '}
              paid in cash or on the card terminal {owed.orders === 1 ? 'is' : 'are'} {M.refundOwedAtBoxOffice.toLowerCase()}: pay each buyer back there, then settle it.
            </Text>
            {p.owedRefunds.map((o) => (
              <Group key={o.refundId} gap="xs" wrap="nowrap" justify="space-between" data-testid="owed-refund">
                <Text fz="sm" style={{ minWidth: 0 }}>
                  <Anchor component={Link} to={`/event/${encodeURIComponent(eventId)}/order/${encodeURIComponent(o.orderUID)}`} fw={600} ff="monospace" fz="sm">
                    {o.orderUID}
                  </Anchor>{' '}
                  · {formatMoney(o.amount)} · {o.paymentMethod === 'card_terminal' ? 'card terminal' : 'cash'}
                  {o.fullName ? ` · ${o.fullName}` : ''}
                </Text>
                {can.canRefund && (
                  <Button size="compact-sm" variant="white" color="red" style={{ flexShrink: 0 }} onClick={() => settle.open(o)} aria-label={`${M.refundSettleAction} of order ${o.orderUID}`}>
                    Settle
                  </Button>
                )}
              </Group>
            ))}
            {owed.orders > p.owedRefunds.length && (
              <Text fz="xs" c="dimmed">
                And {owed.orders - p.owedRefunds.length} more: see the event’s orders in Reports.
              </Text>
            )}
          </Stack>
        )}
        {settledHere.orders > 0 && (
          <Text fz="sm" data-testid="cancellation-settled">
            {plural(settledHere.orders, 'order')} paid in cash or on the card terminal {settledHere.orders === 1 ? 'was' : 'were'} paid back at the box office:{' '}
            {formatMoney(settledHere.amount)}.
          </Text>
        )}
        <Group gap="lg" style={{ rowGap: 4 }}>
          {p.pending > 0 && <Text fz="sm">{p.pending} waiting for the card processor</Text>}
          {p.retrying > 0 && <Text fz="sm" c="orange.9">{p.retrying} refused for now: retried automatically</Text>}
          {p.failed > 0 && (
            <Text fz="sm" c="red.8">
              {p.failed} failed after every try: refund {p.failed === 1 ? 'it' : 'them'} from the order page
            </Text>
          )}
        </Group>
        {(p.alreadyRefunded > 0 || p.refundedElsewhere > 0) && (
          <Text fz="xs" c="dimmed">
            {p.alreadyRefunded > 0 && `${plural(p.alreadyRefunded, 'order')} had been refunded in full before the cancellation. `}
            {p.refundedElsewhere > 0 && `${formatMoney(p.refundedElsewhere)} was refunded from order pages and is not refunded again.`}
          </Text>
        )}
        {trouble && p.problems.length > 0 && (
          <Stack gap={6} mt={4} data-testid="cancellation-problems">
            {p.problems.map((x) => (
              <Problem key={x.orderUID} p={x} eventId={eventId} />
            ))}
            {p.failed + p.retrying > p.problems.length && (
              <Text fz="xs" c="dimmed">
                And {p.failed + p.retrying - p.problems.length} more: see the event’s orders in Reports.
              </Text>
            )}
          </Stack>
        )}
      </Stack>
      {settle.modal}
    </Alert>
  );
}
