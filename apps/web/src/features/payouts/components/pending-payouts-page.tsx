import { PayoutBalancePanel, PayoutLineBadge } from './netting';
import { Alert, Button, Checkbox, CloseButton, Group, List, Modal, Stack, Text, Textarea, Title } from '@mantine/core';
import {
  encodeFilters,
  M,
  PAYOUT_PATHS,
  PLATFORM_WRITE,
  payoutHoldToast,
  payoutLineBlocker,
  payoutRowFacts,
  payoutRowStatus,
  payoutTypeLabel,
  storedTransferFailureText,
  transferFailureText,
  type Filter,
  type PayoutLineBlocker,
  type TPayoutOrderRow,
  type TTransferResult,
} from '@marquee/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { PagedTable, fromListQuery, type Column } from '../../../ui/paged-table';
import { hasPlatformRole, useSession } from '../../../ui/session';
import { DateCell, IdLink, MoneyCell, TenantCell, TextCell } from '../../../shared/report-list/cells';
import { ReportFilters } from '../../../shared/report-list/report-filters';
import { useTenantNames } from '../../reports/names';
import { useReportList as useReportListQuery, reportsKey } from '../../../shared/report-list/queries';
import { REPORT_FILTER_DEBOUNCE_MS } from '../../../shared/report-list/search-rules';
import { useReportList, type SearchField } from '../../../shared/report-list/use-report-list';
import { payoutsApi } from '../api';
import { payoutPaths } from '../paths';
import { usePayoutExport } from '../use-payout-export';
import { WeeklyPayoutSwitch } from './weekly-payout-switch';
import { FormModal } from '../../../ui/form-modal';

// spec: reports-payouts-checkout §2 Payouts (Pending Payouts), §4 Payout row status, Hold toggle,
// Row selection, Transfer outcome, §5 payout filters and 'No Order Selected', §8, §9.

const SEARCH: readonly SearchField[] = [
  { value: 'order', label: 'Order ID', field: 'details.orderUID' },
  { value: 'event', label: 'Event Name', field: 'details.eventName' },
  { value: 'payout', label: 'Payout ID', field: 'details.payoutId' },
];
/** spec §4/§9: the pending table refreshes 1.5 s after a hold, 2.5 s after a transfer. */
const HOLD_REFRESH_MS = 1500;
const TRANSFER_REFRESH_MS = 2500;
// WCAG 1.4.3: the theme's text colour for each colour's light background (teal.8 and yellow.9 are
// under 4.5:1 on white and on yellow.1).
const LIGHT_TEXT = { teal: 'var(--mantine-color-teal-light-color)', green: 'var(--mantine-color-green-light-color)', yellow: 'var(--mantine-color-yellow-light-color)' };
const TOAST_MS = 5000;

type Checks = { held: boolean; released: boolean; pending: boolean; ready: boolean };

/**
 * spec §5: by onHold (hold / release); by Pending and Ready For Payout. Ready is the status column's
 * own rule (core payoutLineReady: a platform sale line, available, unheld, not paid or being paid;
 * issue 21.17), so the filter shows exactly the rows the column calls ready.
 */
function checkFilters(c: Checks): Filter[] {
  const out: Filter[] = [];
  if (c.held !== c.released) out.push({ field: 'details.onHold', op: '=', value: String(c.held) });
  if (c.pending !== c.ready) out.push({ field: 'details.ready', op: '=', value: String(c.ready) });
  return out;
}

/** Why a row is not 'Ready For Payout', where the row does not already say it (the available date does). */
const BLOCKER_NOTES: Record<PayoutLineBlocker, string | null> = {
  refund: "Taken from the tenant's next payout",
  netting: "Netted from the tenant's next payout",
  tenantFacilitated: "Paid out by the tenant's own account",
  paid: null,
  inPayout: 'Transfer in progress',
  onHold: 'On hold',
  notAvailable: null,
};

/** The last transfer's refusal of each order (Order ID -> reason), kept on screen until the next transfer. */
type Failures = Map<string, string>;

function failuresOf(result: TTransferResult): Failures {
  const out: Failures = new Map();
  for (const f of result.failedOrderPayouts) for (const uid of f.orderUIDs) out.set(uid, f.message);
  return out;
}

export function PendingPayoutsPage() {
  const { tenantId } = useParams();
  const tenant = useTenantNames(tenantId ?? '');
  const { memberships } = useSession();
  const canAct = hasPlatformRole(memberships, PLATFORM_WRITE);
  const client = useQueryClient();
  const list = useReportList({ searchFields: SEARCH, dateField: 'details.dateCreated' });
  const [checks, setChecks] = useState<Checks>({ held: false, released: false, pending: false, ready: false });
  const [applied, setApplied] = useState<Checks>(checks);
  // spec §5/§9: the filter checkboxes apply after 1.5 s.
  useEffect(() => {
    const t = setTimeout(() => {
      setApplied(checks);
      list.pager.reset();
    }, REPORT_FILTER_DEBOUNCE_MS);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [checks]);

  const filters = useMemo(() => {
    const base: Filter[] = [{ field: 'details.payoutCompleted', op: '=', value: 'false' }, ...checkFilters(applied)];
    if (tenantId) base.push({ field: 'details.tenantId', op: '=', value: tenantId });
    return [...encodeFilters(base), ...list.filters];
  }, [applied, tenantId, list.filters]);
  const query = useReportListQuery<TPayoutOrderRow>(PAYOUT_PATHS.pending(), { cursor: list.pager.cursor, limit: list.pager.limit, filters });
  const refresh = (after: number) => setTimeout(() => void client.invalidateQueries({ queryKey: reportsKey }), after);

  const [selected, setSelected] = useState<Map<string, TPayoutOrderRow>>(new Map());
  const [holdRow, setHoldRow] = useState<TPayoutOrderRow | null>(null);
  const [transferring, setTransferring] = useState(false);
  const [result, setResult] = useState<TTransferResult | null>(null);
  const [failures, setFailures] = useState<{ at: Date; byOrder: Failures; result: TTransferResult } | null>(null);
  const exporter = usePayoutExport();

  const toggle = (row: TPayoutOrderRow, on: boolean) =>
    setSelected((s) => {
      const next = new Map(s);
      if (on) next.set(row.details.orderUID, row);
      else next.delete(row.details.orderUID);
      return next;
    });

  const transfer = async () => {
    if (selected.size === 0) {
      notify.warning(M.noOrderSelected, M.selectOrderToTransfer);
      return;
    }
    setTransferring(true);
    setFailures(null);
    try {
      const answer = await payoutsApi.transfer([...selected.keys()]);
      // Each refused order keeps its reason on its row, and the list of them stays above the table,
      // until the next transfer: a toast alone is gone before it can be read (issue 21.17).
      if (answer.failedOrderPayouts.length) setFailures({ at: new Date(), byOrder: failuresOf(answer), result: answer });
      // spec §4: success or partial opens the results dialog; an explicit failure shows an error.
      if (answer.success) setResult(answer);
      else notify.error(M.errorTitle, transferFailureText({ message: answer.message, domainCode: answer.failedOrderPayouts[0]?.domainCode }), { duration: TOAST_MS });
    } catch (e) {
      notify.error(M.errorTitle, transferFailureText({ message: errorMessage(e, M.transferFailed) }), { duration: TOAST_MS });
    } finally {
      setTransferring(false);
      setSelected(new Map());
      refresh(TRANSFER_REFRESH_MS);
    }
  };

  const rowNow = new Date();
  const columns: Column<TPayoutOrderRow>[] = [
    {
      key: 'select',
      header: '',
      width: 40,
      render: (r) => (
        <Checkbox
          aria-label={`Select ${r.details.orderUID}`}
          // spec §4 Row selection, with core's one rule: only a row that can be transferred now.
          disabled={!canAct || payoutLineBlocker(payoutRowFacts(r.details), rowNow) !== null}
          checked={selected.has(r.details.orderUID)}
          onChange={(e) => toggle(r, e.currentTarget.checked)}
          onClick={(e) => e.stopPropagation()}
        />
      ),
    },
    { key: 'date', header: 'Date', visibleFrom: 'sm', render: (r) => <DateCell value={r.details.dateCreated} /> },
    {
      key: 'order',
      header: 'Order ID',
      render: (r) => (
        <Stack gap={2}>
          <IdLink to={payoutPaths.orderDetails({ tenantId: r.details.tenantId, eventId: r.details.eventId, orderId: r.details.orderUID })}>{r.details.orderUID}</IdLink>
          <PayoutLineBadge kind={r.details.kind} paymentMethod={r.details.paymentMethod} tenantTotal={r.details.tenantTotal} />
          {/* On a phone the date goes here, so the status is on screen without scrolling. */}
          <Text fz="xs" c="dimmed" hiddenFrom="sm">
            {new Date(r.details.dateCreated).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' })}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'event',
      header: 'Event Name / Tenant',
      visibleFrom: 'sm',
      render: (r) => (
        // WCAG 2.5.8: two links one above the other, 24 px apart at least.
        <Stack gap={6}>
          <IdLink to={payoutPaths.eventSales(r.details.tenantId, r.details.eventId)}>{r.details.eventName}</IdLink>
          <TenantCell to={payoutPaths.tenantPending(r.details.tenantId)} name={r.details.tenantName} url={r.details.tenantURL} />
        </Stack>
      ),
    },
    { key: 'charge', header: 'Charge ID', visibleFrom: 'xl', render: (r) => <TextCell wrap={false}>{r.details.chargeId ?? 'N/A'}</TextCell> },
    {
      key: 'status',
      header: 'Status',
      render: (r) => {
        const facts = payoutRowFacts(r.details);
        const status = payoutRowStatus(facts, rowNow);
        const blocker = payoutLineBlocker(facts, rowNow);
        const note = blocker ? BLOCKER_NOTES[blocker] : null;
        // The last transfer's refusal of this order (its sale row: a refund row is never chosen),
        // else the last gateway failure kept on the line. The spec's hint for this transfer's refusals
        // is in the list above; a stored failure has no code, so spec §8's rule reads its text.
        const stored = r.details.payoutId || !r.details.lastFailure ? null : storedTransferFailureText(r.details.lastFailure);
        const failure = r.details.kind !== 'sale' ? null : (failures?.byOrder.get(r.details.orderUID) ?? stored);
        return (
          <Stack gap={2} maw={300} miw={150}>
            <Text fz="sm" fw={600} c={status === 'Ready For Payout' ? LIGHT_TEXT.teal : LIGHT_TEXT.yellow} style={{ whiteSpace: 'nowrap' }}>
              {status}
            </Text>
            {note && (
              <Text fz="xs" c="dimmed">
                {note}
              </Text>
            )}
            {failure && (
              <Text fz="xs" c="red.8" role="note" data-testid="row-failure">
                <Text span fz="xs" fw={700} inherit>
                  Transfer failed:
                </Text>{' '}
                {failure}
              </Text>
            )}
          </Stack>
        );
      },
    },
    {
      key: 'available',
      header: 'Available On',
      render: (r) => (
        // spec §4: green when reached, yellow otherwise.
        <Text
          fz="sm"
          fw={600}
          px={6}
          py={2}
          bg={new Date(r.details.balanceAvailableOn) <= rowNow ? 'green.1' : 'yellow.1'}
          c={new Date(r.details.balanceAvailableOn) <= rowNow ? LIGHT_TEXT.green : LIGHT_TEXT.yellow}
          style={{ whiteSpace: 'nowrap', borderRadius: 4, display: 'inline-block' }}
        >
          {new Date(r.details.balanceAvailableOn).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' })}
        </Text>
      ),
    },
    { key: 'type', header: 'Type', visibleFrom: 'lg', render: (r) => <TextCell>{payoutTypeLabel(r.details.facilitator)}</TextCell> },
    { key: 'gross', header: 'Gross', align: 'right', render: (r) => <MoneyCell cents={r.details.grossAmount} /> },
    { key: 'fee', header: 'Card Fees', align: 'right', visibleFrom: 'lg', render: (r) => <MoneyCell cents={r.details.gatewayFee} /> },
    { key: 'tenantTotal', header: 'Tenant Total', align: 'right', render: (r) => <MoneyCell cents={r.details.tenantTotal} /> },
    { key: 'platformTotal', header: 'Platform Total', align: 'right', visibleFrom: 'lg', render: (r) => <MoneyCell cents={r.details.platformTotal} /> },
    {
      key: 'action',
      header: 'Action',
      render: (r) =>
        // spec §4: not offered for tenant-facilitated rows.
        r.details.facilitator === 'platform' && r.details.kind === 'sale' && canAct && !r.details.payoutId ? (
          <Button size="xs" variant="light" color={r.details.onHold ? 'teal' : 'red'} onClick={(e) => (e.stopPropagation(), setHoldRow(r))}>
            {r.details.onHold ? 'Release' : 'Hold'}
          </Button>
        ) : null,
    },
  ];

  const title = tenantId ? `Pending Payouts: ${tenant.name || tenant.url}` : 'Pending Payouts';
  return (
    <>
      <PageHeader
        title={title}
        description={`${tenantId && tenant.host ? `${tenant.host} · ` : ''}Paid orders waiting to be paid out to their tenants. Select ready orders and transfer them; hold an order to keep it back.`}
        breadcrumbs={tenantId ? [{ label: 'Pending Payouts', to: payoutPaths.pending }, { label: tenant.name || 'Tenant' }] : undefined}
        actions={
          <Group gap="xs">
            <Button
              variant="default"
              loading={exporter.running}
              onClick={() => void exporter.start({ kind: 'transactions', path: PAYOUT_PATHS.transactionsDownload(), statusPath: PAYOUT_PATHS.platformExport, filters })}
            >
              Export to CSV
            </Button>
            {canAct && (
              <>
                <Button variant="default" disabled={selected.size === 0} onClick={() => setSelected(new Map())}>
                  Clear
                </Button>
                <Button loading={transferring} onClick={() => void transfer()}>
                  Transfer{selected.size ? ` (${selected.size})` : ''}
                </Button>
              </>
            )}
          </Group>
        }
      />
      {!tenantId && <WeeklyPayoutSwitch />}
      {tenantId && <PayoutBalancePanel tenantId={tenantId} />}
      {failures && <TransferFailures failures={failures.result} at={failures.at} onClose={() => setFailures(null)} />}
      <ReportFilters list={list} searchFields={SEARCH} withDateRange dateLabel="Date range" />
      <Group mb="md" gap="lg">
        <Checkbox label="On hold" checked={checks.held} onChange={(e) => setChecks((c) => ({ ...c, held: e.currentTarget.checked }))} />
        <Checkbox label="Released" checked={checks.released} onChange={(e) => setChecks((c) => ({ ...c, released: e.currentTarget.checked }))} />
        <Checkbox label="Pending" checked={checks.pending} onChange={(e) => setChecks((c) => ({ ...c, pending: e.currentTarget.checked }))} />
        <Checkbox label="Ready For Payout" checked={checks.ready} onChange={(e) => setChecks((c) => ({ ...c, ready: e.currentTarget.checked }))} />
      </Group>
      <PagedTable
        aria-label="Pending payouts"
        columns={columns}
        {...fromListQuery(query)}
        rowKey={(r) => r.id}
        pager={list.pager}
        minWidth={760}
        // spec §4: held rows are tinted red.
        rowBg={(r) => (r.details.onHold ? 'var(--mantine-color-red-1)' : undefined)}
        empty={<Text c="dimmed" ta="center" py="lg">No orders are waiting to be paid out.</Text>}
      />
      {holdRow && (
        <HoldModal
          row={holdRow}
          onClose={() => setHoldRow(null)}
          onDone={() => {
            setHoldRow(null);
            refresh(HOLD_REFRESH_MS);
          }}
        />
      )}
      <TransferResults result={result} onClose={() => setResult(null)} />
    </>
  );
}

function HoldModal({ row, onClose, onDone }: { row: TPayoutOrderRow; onClose: () => void; onDone: () => void }) {
  const hold = !row.details.onHold;
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      // spec §4: a hold request sets hold to the opposite of the current onHold.
      await payoutsApi.hold(row.details.tenantId, { orderId: row.details.orderUID, eventId: row.details.eventId, message, hold });
      notify.success(hold ? M.payoutHeld : M.payoutReleased, payoutHoldToast(row.details.orderUID, hold), { duration: TOAST_MS });
      onDone();
    } catch {
      notify.error(M.errorTitle, M.holdReleaseFailed, { duration: TOAST_MS });
      setBusy(false);
    }
  };
  return (
    <FormModal dirty={message !== ''} busy={busy} opened onClose={onClose} title={`${hold ? 'Hold' : 'Release'} payout for order ${row.details.orderUID}`} centered>
      <Stack>
        <Text fz="sm">{hold ? 'A held order is not paid out until it is released.' : 'The order can be paid out again once it is released.'}</Text>
        <Textarea label="Message" description="Why (kept with the hold record)" maxLength={500} autosize minRows={2} value={message} onChange={(e) => setMessage(e.currentTarget.value)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color={hold ? 'red' : 'teal'} loading={busy} onClick={() => void submit()}>
            {hold ? 'Hold' : 'Release'}
          </Button>
        </Group>
      </Stack>
    </FormModal>
  );
}

/** The last transfer's refusals, above the table until the next transfer or until closed. */
function TransferFailures({ failures, at, onClose }: { failures: TTransferResult; at: Date; onClose: () => void }) {
  return (
    <Alert
      color="red"
      variant="light"
      radius="md"
      mb="md"
      icon={<IconAlertTriangle size={18} />}
      title={`Not paid out in the transfer at ${at.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })}`}
      aria-live="polite"
      data-testid="transfer-failures"
      styles={{ title: { width: '100%' } }}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <List spacing={4} fz="sm">
          {failures.failedOrderPayouts.map((f, i) => (
            <List.Item key={i}>
              <Text fz="sm" span fw={600}>
                {f.tenantName ?? f.tenantURL ?? 'Unknown orders'}
              </Text>{' '}
              ({f.orderUIDs.join(', ')}): {transferFailureText(f)}
            </List.Item>
          ))}
        </List>
        <CloseButton aria-label="Dismiss transfer errors" onClick={onClose} />
      </Group>
    </Alert>
  );
}

function TransferResults({ result, onClose }: { result: TTransferResult | null; onClose: () => void }) {
  return (
    <Modal opened={!!result} onClose={onClose} title="Payout results" centered size="lg">
      {result && (
        <Stack>
          <Text fz="sm">{result.message}</Text>
          <Title order={5}>Completed</Title>
          {result.completedOrderPayouts.length ? (
            <List spacing="xs" fz="sm">
              {result.completedOrderPayouts.map((c) => (
                <List.Item key={c.payoutId}>
                  <IdLink to={payoutPaths.payout(c.payoutId, c.tenantId)}>{c.tenantName || c.tenantURL}</IdLink>: {new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(c.amount / 100)} for {c.orderUIDs.join(', ')}
                </List.Item>
              ))}
            </List>
          ) : (
            <Text fz="sm" c="dimmed">None</Text>
          )}
          <Title order={5}>Failed</Title>
          {result.failedOrderPayouts.length ? (
            <List spacing="xs" fz="sm">
              {result.failedOrderPayouts.map((f, i) => (
                <List.Item key={i}>
                  <Text fz="sm" span fw={600}>
                    {f.tenantName ?? f.tenantURL ?? 'Unknown'}
                  </Text>{' '}
                  ({f.orderUIDs.join(', ')}):{' '}
                  <Text fz="sm" span c="red">
                    {transferFailureText(f)}
                  </Text>
                </List.Item>
              ))}
            </List>
          ) : (
            <Text fz="sm" c="dimmed">None</Text>
          )}
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
