import { Alert, Badge, Button, Divider, Grid, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { OrderPayoutHold } from '../../payouts/components/order-payout-hold';
import { formatPhone, M, refundStatusText, type TOrderDetail, type TOrderRefund, type TOrderTicket, type OrderPayoutState } from '@marquee/core';
import { IconAlertCircle, IconDownload, IconMailForward, IconReceiptOff, IconReceiptRefund } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { errorMessage, isNotFound } from '../../../ui/api-client';
import { EmptyState } from '../../../ui/empty-state';
import { formatMoney } from '../../../ui/money';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { formatDateTime, formatLongDate, yesNo } from '../../../shared/report-list/format';
import { useReportScope } from '../../../shared/report-list/report-scope';
import type { OrderRef } from '../api';
import { OrderAnswersPanel } from '../../questions/components/order-answers-panel';
import { useDownloadTickets, useRefundOrder, useReloadOrder, useResendTickets, useVoidTicket } from '../mutations';
import { orderKey, useOrderDetail } from '../queries';
import { TicketHistory } from '../../transfers/components/ticket-history';
import { useOrderPermissions } from '../access';
import { breakdownLines, orderActions, orderStatusBadge, splitRows } from '../breakdown';
import { cancellationRefundText } from '../cancellation-text';
import { RefundModal } from './refund-modal';
import { useSettleRefundFlow } from './settle-refund-modal';
import { VoidTicketModal } from './void-ticket-modal';

// spec: reports-payouts-checkout §4: tickets reload about 1.5 seconds after voiding or unvoiding.
export const VOID_RELOAD_MS = 1500;
// spec §8/§9: toasts 1.5 to 5 s; failures stay the longest.
const ERROR_TOAST_MS = 5000;

const PAYOUT_COLOR: Record<OrderPayoutState, string> = {
  'Payout Completed': 'teal',
  'Payout On Hold': 'red',
  'Payout Ready': 'green',
  'Payout Pending': 'yellow',
};

const money = (cents: number) => (cents < 0 ? `-${formatMoney(-cents)}` : formatMoney(cents));
const NUM = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

function Breakdown({ order }: { order: TOrderDetail }) {
  const d = order.details;
  return (
    <Paper withBorder radius="lg" p="lg">
      <Title order={3} fz="md" mb="sm">
        Order Summary
      </Title>
      <Table withRowBorders={false} verticalSpacing={4} aria-label="Order summary">
        <Table.Tbody>
          {breakdownLines(d).map((l) => (
            <Table.Tr key={l.label}>
              <Table.Td px={0}>{l.label}</Table.Td>
              <Table.Td px={0} ta="right" style={NUM}>
                {l.negative ? `-${formatMoney(l.amount)}` : formatMoney(l.amount)}
              </Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
            <Table.Td px={0} fw={700}>
              Total
            </Table.Td>
            <Table.Td px={0} ta="right" fw={700} style={NUM} data-testid="order-total">
              {formatMoney(d.totalAmount)}
            </Table.Td>
          </Table.Tr>
          {d.refundedAmount > 0 && (
            <>
              <Table.Tr>
                <Table.Td px={0} c="red.7">
                  Refunded
                </Table.Td>
                <Table.Td px={0} ta="right" c="red.7" style={NUM} data-testid="order-refunded">
                  -{formatMoney(d.refundedAmount)}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td px={0} fw={600}>
                  Kept after refunds
                </Table.Td>
                <Table.Td px={0} ta="right" fw={600} style={NUM} data-testid="order-kept">
                  {formatMoney(d.totalAmount - d.refundedAmount)}
                </Table.Td>
              </Table.Tr>
            </>
          )}
        </Table.Tbody>
      </Table>
      <Divider my="sm" />
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap">
          <Text fz="sm" c="dimmed">
            Payment method
          </Text>
          <Text fz="sm">{d.paymentMethod ?? 'N/A'}</Text>
        </Group>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fz="sm" c="dimmed" style={{ flexShrink: 0 }}>
            Charge ID
          </Text>
          <Text fz="sm" ta="right" style={{ wordBreak: 'break-all' }}>
            {d.chargeId ?? 'N/A'}
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * Where the money goes (issue 21.10): the organiser, the platform, the card processor and the
 * charity at the sale and, once something was refunded, after the refunds, with what went back to
 * the buyer; each column adds up to what was paid.
 */
function Split({ order }: { order: TOrderDetail }) {
  const d = order.details;
  const refunded = d.split.refunded > 0;
  const rows = splitRows(d);
  return (
    <Paper withBorder radius="lg" p="lg">
      <Title order={3} fz="md" mb={4}>
        Where the money goes
      </Title>
      <Text fz="xs" c="dimmed" mb="sm">
        {refunded
          ? 'At the sale, and after the refunds. The card processor keeps its fee when an order is refunded.'
          : 'Who receives each part of what the buyer paid.'}
      </Text>
      <Table withRowBorders={false} verticalSpacing={4} aria-label="Where the money goes" data-testid="order-split">
        {refunded && (
          <Table.Thead>
            <Table.Tr>
              <Table.Th px={0} />
              <Table.Th px={0} ta="right" fz="xs" c="dimmed" fw={600}>
                At sale
              </Table.Th>
              <Table.Th pl="md" pr={0} ta="right" fz="xs" c="dimmed" fw={600}>
                After refunds
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
        )}
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.key} data-testid={`split-${r.key}`}>
              <Table.Td px={0} c={r.key === 'refunded' ? 'red.7' : undefined}>
                {r.label}
              </Table.Td>
              <Table.Td px={0} ta="right" style={NUM} c={r.key === 'refunded' ? 'dimmed' : undefined}>
                {r.atSale === null ? '—' : money(r.atSale)}
              </Table.Td>
              {refunded && (
                <Table.Td pl="md" pr={0} ta="right" style={NUM} c={r.key === 'refunded' ? 'red.7' : r.afterRefunds < 0 ? 'red.7' : undefined}>
                  {money(r.afterRefunds)}
                </Table.Td>
              )}
            </Table.Tr>
          ))}
          <Table.Tr style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
            <Table.Td px={0} fw={700}>
              Paid by the buyer
            </Table.Td>
            <Table.Td px={0} ta="right" fw={700} style={NUM}>
              {formatMoney(d.totalAmount)}
            </Table.Td>
            {refunded && (
              <Table.Td pl="md" pr={0} ta="right" fw={700} style={NUM}>
                {formatMoney(d.totalAmount)}
              </Table.Td>
            )}
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function Customer({ order }: { order: TOrderDetail }) {
  const d = order.details;
  const address = [d.address1, d.address2, [d.city, d.state, d.zipCode].filter(Boolean).join(', '), d.country].filter(Boolean);
  return (
    <Paper withBorder radius="lg" p="lg">
      <Title order={3} fz="md" mb="sm">
        Customer
      </Title>
      <Stack gap={4}>
        <Text fw={600}>{d.fullName || d.name}</Text>
        <Text fz="sm">{d.email}</Text>
        {d.phone && <Text fz="sm">{formatPhone(d.phone)}</Text>}
        {address.map((a) => (
          <Text key={a} fz="sm" c="dimmed">
            {a}
          </Text>
        ))}
        <Text fz="sm" c="dimmed" mt="xs">
          Ordered {formatDateTime(d.dateCreated)} · {d.ticketCount} ticket{d.ticketCount === 1 ? '' : 's'}
        </Text>
      </Stack>
    </Paper>
  );
}

function Tickets({ order, onToggle, canVoid }: { order: TOrderDetail; onToggle: (t: TOrderTicket) => void; canVoid: boolean }) {
  return (
    <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
      <Title order={3} fz="md" p="lg" pb="sm">
        Tickets
      </Title>
      {/* Phones: one card a ticket, so that Void stays in reach without scrolling sideways. */}
      <Stack gap={0} hiddenFrom="sm" data-testid="ticket-cards">
        {order.tickets.map((t) => (
          <Group key={t.id} justify="space-between" align="flex-start" wrap="nowrap" px="lg" py="sm" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Text fz="sm" fw={600}>
                {t.details.ticketTypeName} · {formatMoney(t.details.ticketPrice)}
              </Text>
              <Text fz="xs" ff="monospace" c="dimmed" style={{ wordBreak: 'break-all' }}>
                {t.details.ticketUID}
              </Text>
              <Group gap={6}>
                <Badge size="sm" color={t.details.voided ? 'red' : 'teal'} variant="light">
                  {t.details.voided ? 'Voided' : 'Active'}
                </Badge>
                <Text fz="xs" c="dimmed">
                  Used: {yesNo(t.details.used)}
                </Text>
              </Group>
            </Stack>
            {canVoid && !t.details.refundId && (
              <Button size="xs" variant="light" color={t.details.voided ? 'brand' : 'red'} onClick={() => onToggle(t)} aria-label={`${t.details.voided ? 'Unvoid' : 'Void'} ticket ${t.details.ticketUID}`}>
                {t.details.voided ? 'Unvoid' : 'Void'}
              </Button>
            )}
          </Group>
        ))}
      </Stack>
      <Table.ScrollContainer minWidth={640} type="native" visibleFrom="sm">
        <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Tickets">
          <Table.Thead bg="var(--mantine-color-gray-0)">
            <Table.Tr>
              {['Ticket ID', 'Name', 'Ticket Type', 'Ticket Price', 'Ticket Used', 'Status', ''].map((h, i) => (
                <Table.Th key={i} fz="xs" tt="uppercase" c="dimmed" fw={600}>
                  {h || <span style={{ position: 'absolute', left: -10000 }}>Action</span>}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {order.tickets.map((t) => (
              <Table.Tr key={t.id} data-testid={`ticket-${t.details.ticketUID}`}>
                <Table.Td ff="monospace" fz="sm" style={{ whiteSpace: 'nowrap' }}>
                  {t.details.ticketUID}
                </Table.Td>
                <Table.Td fz="sm">{t.details.fullName}</Table.Td>
                <Table.Td fz="sm">{t.details.ticketTypeName}</Table.Td>
                <Table.Td fz="sm">{formatMoney(t.details.ticketPrice)}</Table.Td>
                <Table.Td fz="sm">{yesNo(t.details.used)}</Table.Td>
                <Table.Td miw={96}>
                  <Badge color={t.details.voided ? 'red' : 'teal'} variant="light" title={t.details.voidReason ?? undefined} style={{ minWidth: 'max-content' }}>
                    {t.details.voided ? 'Voided' : 'Active'}
                  </Badge>
                </Table.Td>
                <Table.Td ta="right">
                  {canVoid && !t.details.refundId && (
                    <Button size="xs" variant={t.details.voided ? 'light' : 'subtle'} color={t.details.voided ? 'brand' : 'red'} onClick={() => onToggle(t)}>
                      {t.details.voided ? 'Unvoid' : 'Void'}
                    </Button>
                  )}
                  {t.details.refundId && (
                    <Text fz="xs" c="dimmed">
                      Refunded
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

function Refunds({ order, highlight, onSettle }: { order: TOrderDetail; highlight: boolean; onSettle: ((r: TOrderRefund) => void) | null }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (highlight) ref.current?.scrollIntoView({ block: 'start' });
  }, [highlight]);
  if (order.refunds.length === 0) return null;
  const owedHere = !!onSettle && order.refunds.some((r) => r.details.owedAtBoxOffice);
  return (
    <Paper withBorder radius="lg" style={{ overflow: 'hidden', outline: highlight ? '2px solid var(--mantine-color-red-4)' : undefined }} ref={ref} id="refunds">
      <Title order={3} fz="md" p="lg" pb="sm">
        Refunds
      </Title>
      <Table.ScrollContainer minWidth={560} type="native">
        <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Refunds">
          <Table.Thead bg="var(--mantine-color-gray-0)">
            <Table.Tr>
              {['Refund Date', 'Status', 'Refund Amount', 'Reason', 'By', ...(owedHere ? [''] : [])].map((h) => (
                <Table.Th key={h} fz="xs" tt="uppercase" c="dimmed" fw={600}>
                  {h || <span style={{ position: 'absolute', left: -10000 }}>Action</span>}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {order.refunds.map((r) => (
              <Table.Tr key={r.id} data-testid={`refund-${r.id}`}>
                <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>{formatLongDate(r.details.transactionDate)}</Table.Td>
                <Table.Td miw={110}>
                  <Badge
                    variant="light"
                    color={r.details.owedAtBoxOffice ? 'orange' : r.details.status === 'succeeded' ? 'teal' : r.details.status === 'failed' ? 'red' : 'yellow'}
                    title={r.details.failureReason ?? undefined}
                    style={{ minWidth: 'max-content' }}
                  >
                    {r.details.owedAtBoxOffice ? M.refundOwedAtBoxOffice : refundStatusText(r.details.status)}
                  </Badge>
                </Table.Td>
                <Table.Td fz="sm">{formatMoney(r.details.refundAmount)}</Table.Td>
                <Table.Td fz="sm">
                  {r.details.refundReason}
                  {r.details.refundMethod && (
                    <Text span fz="xs" c="dimmed" display="block">
                      {r.details.refundMethod === 'cash' ? 'Cash from a drawer' : `Card terminal · ${r.details.terminalReference ?? ''}`}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td fz="sm" c="dimmed">
                  {r.details.createdBy ?? 'Marquee'}
                </Table.Td>
                {owedHere && (
                  <Table.Td ta="right">
                    {r.details.owedAtBoxOffice && (
                      <Button size="xs" variant="light" color="red" onClick={() => onSettle!(r)}>
                        {M.refundSettleAction}
                      </Button>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

const ACTION_LABEL: Record<string, string> = {
  void: 'Voided a ticket',
  unvoid: 'Unvoided a ticket',
  refund: 'Refund',
  resend: 'Resent tickets',
  download: 'Downloaded tickets',
  event_cancelled: 'Event cancelled',
  transfer: 'Transferred a ticket',
};

function History({ order }: { order: TOrderDetail }) {
  if (order.actions.length === 0) return null;
  return (
    <Paper withBorder radius="lg" p="lg">
      <Title order={3} fz="md" mb="sm">
        History
      </Title>
      <Stack gap="xs">
        {order.actions.map((a) => (
          <Text key={a.id} fz="sm">
            <Text span c="dimmed">
              {formatDateTime(a.createdAt)}
            </Text>{' '}
            · {ACTION_LABEL[a.action] ?? a.action}
            {a.ticketId ? ` ${typeof a.details.ticketUID === 'string' ? a.details.ticketUID : a.ticketId}` : ''} by {a.userEmail ?? 'Marquee'}
            {a.reason ? ` — ${a.reason}` : ''}
          </Text>
        ))}
      </Stack>
    </Paper>
  );
}

type OrderPageVariant = 'reports' | 'console';

function OrderDetail({ variant }: { variant: OrderPageVariant }) {
  const scope = useReportScope();
  const { eventId = '', orderUID = '' } = useParams();
  const [params] = useSearchParams();
  const ref: OrderRef = { tenantId: scope.tenantId, eventId, orderUID };
  const order = useOrderDetail(ref);
  const voidTicket = useVoidTicket(ref);
  const resend = useResendTickets(ref);
  const download = useDownloadTickets(ref);
  const refund = useRefundOrder(ref);
  const reload = useReloadOrder(ref);
  const can = useOrderPermissions(scope.tenantId, eventId);
  const settle = useSettleRefundFlow(scope.tenantId, eventId);
  const [voiding, setVoiding] = useState<TOrderTicket | null>(null);
  const [refunding, setRefunding] = useState(false);

  useEffect(() => {
    // spec §5 Actions: viewing an order needs its event and tenant.
    if (!scope.tenantId || !eventId) notify.error(M.orderViewIdsMissing, undefined, { duration: ERROR_TOAST_MS, id: 'order-view-ids' });
  }, [scope.tenantId, eventId]);

  const reportCrumbs =
    variant === 'reports'
      ? [
          { label: 'Sales', to: scope.base },
          { label: 'Events', to: `${scope.base}/events` },
          { label: order.data?.details.eventName ?? 'Event', to: scope.event(eventId) },
          { label: 'Orders', to: `${scope.event(eventId)}/orders` },
          { label: orderUID },
        ]
      : [{ label: 'Events', to: '/events' }, { label: order.data?.details.eventName ?? 'Event', to: `/events/${encodeURIComponent(eventId)}` }, { label: orderUID }];

  if (order.isPending && scope.tenantId && eventId) {
    return (
      <Stack gap="md">
        <Skeleton height={14} width={200} />
        <Skeleton height={32} width={320} />
        <Skeleton height={200} />
        <Skeleton height={160} />
      </Stack>
    );
  }
  if (!order.data) {
    const missing = !order.error || isNotFound(order.error);
    return (
      <>
        <PageHeader title={`Order ${orderUID}`} breadcrumbs={reportCrumbs} />
        <EmptyState
          icon={missing ? <IconReceiptOff size={28} stroke={1.6} /> : <IconAlertCircle size={28} stroke={1.6} />}
          title={missing ? 'Order not found' : 'This order could not be loaded'}
          description={missing ? 'The link may be wrong, or the order belongs to another event.' : errorMessage(order.error)}
          action={
            !missing && (
              <Button variant="light" onClick={() => void order.refetch()}>
                Try again
              </Button>
            )
          }
        />
      </>
    );
  }

  const d = order.data.details;
  const processing = d.status === 'processing';
  // One order page with every action, from Reports and from Find an Order alike (issue 21.10).
  const actions = orderActions(order.data, can);
  const status = orderStatusBadge(d);
  const cancelled = order.data.cancellationRefund;
  // Issue 23: a cash or card-terminal order's cancellation refund, owed at the box office until settled.
  const owed = order.data.refunds.find((r) => r.details.owedAtBoxOffice) ?? null;
  const openSettle = (r: TOrderRefund) =>
    settle.open({ orderUID: d.orderUID, refundId: r.id, amount: r.details.refundAmount, fullName: d.fullName, paymentMethod: d.paymentMethod });

  const toggleVoid = (reason: string) => {
    if (!voiding) return;
    const t = voiding;
    if (!t.details.ticketId || !d.orderUID) return notify.error(M.voidIdsMissing, undefined, { duration: ERROR_TOAST_MS });
    voidTicket.mutate(
      { ticketId: t.details.ticketId, orderUID: d.orderUID, void: !t.details.voided, reason },
      {
        onSuccess: (answer) => {
          setVoiding(null);
          notify.success(answer.message || M.ticketVoided);
          setTimeout(reload, VOID_RELOAD_MS);
        },
        onError: (e) => notify.error(M.voidFailed, errorMessage(e, 'The ticket could not be changed. Please try again.'), { duration: ERROR_TOAST_MS }),
      },
    );
  };

  const doResend = () =>
    resend.mutate(undefined, {
      onSuccess: () => notify.success(M.resentTickets, processing ? `The claim e-mail went to ${d.email}.` : `The tickets went to ${d.email}.`),
      // Why it failed, in the server's words: a resend limit says when the next one may go (issue 21 §3).
      onError: (e) => notify.error(M.resendTicketsFailed, errorMessage(e, 'Please try again.'), { duration: ERROR_TOAST_MS }),
    });

  const doDownload = () =>
    download.mutate(undefined, {
      onSuccess: (blob) => {
        const url = URL.createObjectURL(blob);
        const a = document.createElement('a');
        a.href = url;
        a.download = `tickets_${d.orderUID}.pdf`;
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      },
      onError: (e) => notify.error('Download Failed', errorMessage(e), { duration: ERROR_TOAST_MS }),
    });

  return (
    <>
      <PageHeader
        title={`Order ${d.orderUID}`}
        breadcrumbs={reportCrumbs}
        description={
          <Group gap="xs" component="span">
            <Badge variant="light" color={status.color} data-testid="order-status">
              {status.label}
            </Badge>
            <Badge variant="light" color={PAYOUT_COLOR[d.payoutState]} data-testid="payout-state">
              {d.payoutState}
            </Badge>
            <OrderPayoutHold tenantId={scope.tenantId} eventId={eventId} orderUID={d.orderUID} state={d.payoutState} onRefresh={reload} />
            {d.refunded && (
              <Badge color="red" variant="filled" leftSection={<IconReceiptRefund size={12} />}>
                {M.refundIssued}
              </Badge>
            )}
          </Group>
        }
        actions={
          <>
            {actions.resend && (
              <Button variant="default" leftSection={<IconMailForward size={16} />} loading={resend.isPending} onClick={doResend}>
                {processing ? 'Resend Claim Email' : 'Resend Tickets'}
              </Button>
            )}
            {actions.download && (
              <Button variant="default" leftSection={<IconDownload size={16} />} loading={download.isPending} onClick={doDownload}>
                Download Tickets
              </Button>
            )}
            {actions.refund && (
              <Button color="red" variant="light" leftSection={<IconReceiptRefund size={16} />} onClick={() => setRefunding(true)}>
                Refund
              </Button>
            )}
          </>
        }
      />
      {d.status === 'cancelled' && (
        <Alert color="gray" variant="light" mb="md">
          This order was cancelled.
        </Alert>
      )}
      {d.eventStatus === 'cancelled' && (
        <Alert
          variant="light"
          mb="md"
          color={owed || cancelled?.state === 'retrying' ? 'orange' : cancelled?.state === 'failed' ? 'red' : 'gray'}
          title="The event was cancelled"
          data-testid="order-cancellation"
          data-state={owed ? 'owed' : (cancelled?.state ?? 'none')}
        >
          {owed ? (
            <Stack gap="xs" align="flex-start">
              <Text fz="sm">
                Its refund of {formatMoney(owed.details.refundAmount)} is {M.refundOwedAtBoxOffice.toLowerCase()}: this order was paid{' '}
                {d.paymentMethod === 'card_terminal' ? "on the venue's card terminal" : 'in cash'}, so no card processor can give it back. Pay the buyer back there, then
                settle it here.
              </Text>
              {can.canRefund && (
                <Button size="sm" color="red" variant="light" leftSection={<IconReceiptRefund size={16} />} onClick={() => openSettle(owed)}>
                  {M.refundSettleAction}
                </Button>
              )}
            </Stack>
          ) : (
            <Text fz="sm">
              {cancelled
                ? `Its refund of ${formatMoney(cancelled.amount)}: ${cancellationRefundText(cancelled)}`
                : d.refundState === 'full'
                  ? 'Its tickets are no longer valid. Its money went back in full.'
                  : 'Its tickets are no longer valid. This order took no money, so nothing is refunded.'}
            </Text>
          )}
        </Alert>
      )}
      <Stack gap="md">
        <Grid gutter="md">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack gap="md">
              <Breakdown order={order.data} />
              <Split order={order.data} />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Customer order={order.data} />
          </Grid.Col>
        </Grid>
        <Tickets order={order.data} canVoid={can.canAttend && d.status !== 'cancelled'} onToggle={setVoiding} />
        <OrderAnswersPanel eventId={eventId} orderUID={d.orderUID} canEdit={can.canAttend} />
        <Refunds order={order.data} highlight={params.get('refunded') === 'true'} onSettle={can.canRefund ? openSettle : null} />
        <TicketHistory tenantId={ref.tenantId} eventId={eventId} orderUID={orderUID} queryKey={orderKey(ref)} />
        <History order={order.data} />
      </Stack>
      {settle.modal}
      <VoidTicketModal ticket={voiding} busy={voidTicket.isPending} onClose={() => setVoiding(null)} onSubmit={toggleVoid} />
      <RefundModal
        order={refunding ? order.data : null}
        busy={refund.isPending}
        onClose={() => setRefunding(false)}
        onSubmit={(body) =>
          refund.mutateAsync(body).then(
            (answer) => {
              setRefunding(false);
              if (answer.refund.details.status === 'failed') notify.error('Refund Failed', answer.refund.details.failureReason ?? M.refundFailed, { duration: ERROR_TOAST_MS });
              else notify.success(answer.message || M.refundSubmitted, `${formatMoney(answer.refund.details.refundAmount)} to ${d.fullName || d.email}.`);
            },
            (e) => notify.error('Refund Failed', errorMessage(e), { duration: ERROR_TOAST_MS }),
          )
        }
      />
    </>
  );
}

/** /reports/sales/{tenant_id}/event/{event_id}/orders/{orderUID} and the tenant-side report route. */
export function ReportOrderPage() {
  return <OrderDetail variant="reports" />;
}

/** /event/{event_id}/order/{orderUID} in the tenant console (outside reports). */
export function ConsoleOrderPage() {
  return <OrderDetail variant="console" />;
}

