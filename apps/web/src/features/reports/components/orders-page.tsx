import { ActionIcon, Badge, Group, Paper, Text } from '@mantine/core';
import { M, paymentMethodLabelOf, refundedTax, REPORT_PATHS, saleChannelLabelOf, type TReportOrder } from '@marquee/core';
import { IconEye } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import { formatMoney } from '../../../ui/money';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import type { Column } from '../../../ui/paged-table';
import { refundedLabel } from '../../../shared/report-list/format';
import { useEventName, useTenantNames } from '../names';
import { useDashboard } from '../queries';
import { useReportScope, type ReportScope } from '../../../shared/report-list/report-scope';
import { useReportList, type SearchField } from '../../../shared/report-list/use-report-list';
import { DateCell, IdLink, MoneyCell, PhoneCell, TextCell } from '../../../shared/report-list/cells';
import { ExportButton } from './export-button';
import { ReportListView } from '../../../shared/report-list/report-list-view';

// spec §2 Orders list: search by Order ID, Name, Email, Phone Number, Ticket ID, Payment Method.
const SEARCH: readonly SearchField[] = [
  { value: 'order', label: 'Order ID', field: 'details.orderUID' },
  { value: 'name', label: 'Name', field: 'details.fullName' },
  { value: 'email', label: 'Email', field: 'details.email' },
  { value: 'phone', label: 'Phone Number', field: 'details.phone' },
  { value: 'ticket', label: 'Ticket ID', field: 'details.ticketId' },
  { value: 'payment', label: 'Payment Method', field: 'details.paymentMethod', transform: 'lower' },
  // Issue 23: ONLINE, BACKEND (the box office) or APP.
  { value: 'channel', label: 'Channel', field: 'details.channel' },
];

type Variant = 'event' | 'tenant' | 'taxes' | 'donations';

export function orderColumns(variant: Variant, view: (o: TReportOrder) => void, orderPath: (o: TReportOrder) => string): Column<TReportOrder>[] {
  const columns: Column<TReportOrder>[] = [
    { key: 'date', header: 'Date', render: (o) => <DateCell value={o.details.dateCreated} /> },
    { key: 'order', header: 'Order ID', render: (o) => <IdLink to={orderPath(o)}>{o.details.orderUID}</IdLink> },
  ];
  if (variant !== 'event') columns.push({ key: 'event', header: 'Event Name', render: (o) => <TextCell>{o.details.eventName}</TextCell> });
  columns.push(
    { key: 'name', header: 'Name', render: (o) => <TextCell>{o.details.fullName || o.details.name}</TextCell> },
    { key: 'email', header: 'Email', render: (o) => <TextCell>{o.details.email}</TextCell> },
    { key: 'phone', header: 'Phone number', render: (o) => <PhoneCell phone={o.details.phone} /> },
    { key: 'tickets', header: '# Tickets', align: 'right', render: (o) => <Text fz="sm">{o.details.ticketCount}</Text> },
    { key: 'method', header: 'Payment Method', render: (o) => <TextCell>{o.details.paymentMethod ? paymentMethodLabelOf(o.details.paymentMethod) : 'N/A'}</TextCell> },
    { key: 'channel', header: 'Channel', render: (o) => <TextCell>{saleChannelLabelOf(o.details.channel)}</TextCell> },
  );
  if (variant === 'taxes') {
    // Issue 21.11: the tax as collected (TOTAL TAX sums it) and after the order's refunds gave their part of it back.
    columns.push({ key: 'tax', header: 'Tax', align: 'right', render: (o) => <MoneyCell cents={o.details.vat} /> });
    columns.push({ key: 'taxAfter', header: 'Tax After Refunds', align: 'right', render: (o) => <MoneyCell cents={taxAfterRefunds(o)} /> });
  }
  if (variant === 'donations') {
    columns.push({ key: 'donation', header: 'Donation', align: 'right', render: (o) => <MoneyCell cents={o.details.donation} /> });
    columns.push({ key: 'donationFee', header: 'Donation Fee', align: 'right', render: (o) => <MoneyCell cents={o.details.donationFee} /> });
  }
  columns.push({ key: 'total', header: 'Total', align: 'right', render: (o) => <MoneyCell cents={o.details.totalAmount} /> });
  if (variant === 'taxes') columns.push({ key: 'refundedAmount', header: 'Refunded Amount', align: 'right', render: (o) => <MoneyCell cents={o.details.refundedAmount} /> });
  columns.push(
    {
      key: 'refunded',
      header: 'Refunded',
      render: (o) =>
        o.details.refunded ? (
          <Badge color="red" variant="light">
            {refundedLabel(true)}
          </Badge>
        ) : (
          <Text fz="sm">{refundedLabel(false)}</Text>
        ),
    },
    {
      key: 'action',
      header: 'Action',
      align: 'center',
      render: (o) => (
        <ActionIcon
          variant="subtle"
          aria-label={`View order ${o.details.orderUID}`}
          onClick={(e) => {
            e.stopPropagation();
            view(o);
          }}
        >
          <IconEye size={18} />
        </ActionIcon>
      ),
    },
  );
  return columns;
}

/** An order's tax less the part its succeeded refunds gave back (core refundedTax, as the dashboard counts it). */
export const taxAfterRefunds = (o: TReportOrder) =>
  o.details.vat - refundedTax({ vat: o.details.vat, totalAmount: o.details.totalAmount, refunded: o.details.refundedAmount });

/** Opens an order, or says why not (spec §5: 'Order view action failed - Event ID and Tenant ID not found.'). */
export function useViewOrder(scope: ReportScope, pathOf: (eventId: string, orderUID: string) => string = scope.order) {
  const navigate = useNavigate();
  return (o: TReportOrder) => {
    if (!o.details.eventId || !o.details.tenantId) return notify.error(M.orderViewIdsMissing);
    void navigate(pathOf(o.details.eventId, o.details.orderUID));
  };
}

/** spec §2 …/event/{event_id}/orders. */
export function EventOrdersPage() {
  const scope = useReportScope();
  const { eventId = '' } = useParams();
  const event = useEventName(scope.tenantId, eventId);
  const list = useReportList({ searchFields: SEARCH, dateField: 'details.dateCreated' });
  const view = useViewOrder(scope);
  const t = scope.tenantId;
  const ok = !!t && !!eventId;
  return (
    <>
      <PageHeader
        title={`Orders: ${event.name}`}
        breadcrumbs={[{ label: 'Sales', to: scope.base }, { label: 'Events', to: `${scope.base}/events` }, { label: event.name || 'Event', to: scope.event(eventId) }, { label: 'Orders' }]}
        actions={
          <ExportButton
            kind="orders"
            path={ok ? REPORT_PATHS.eventOrdersDownload(t, eventId) : null}
            missing={t ? M.noEventId : M.noEventSelected}
            statusPath={(id) => REPORT_PATHS.eventExport(t, eventId, id)}
            filters={list.filters}
          />
        }
      />
      <ReportListView
        label="Orders"
        path={ok ? REPORT_PATHS.eventOrders(t, eventId) : null}
        list={list}
        columns={orderColumns('event', view, (o) => scope.order(o.details.eventId, o.details.orderUID))}
        searchFields={SEARCH}
        onRowClick={view}
        minWidth={1100}
        emptyTitle="No orders yet"
        emptyDescription="Orders appear here as soon as tickets are bought."
      />
    </>
  );
}

const TENANT_PAGES: Record<Exclude<Variant, 'event'>, { title: (name: string) => string; crumb: string; description: string }> = {
  tenant: { title: (n) => `Orders: ${n}`, crumb: 'Orders', description: 'Every order across all events.' },
  taxes: {
    title: (n) => `Taxes: ${n}`,
    crumb: 'Taxes',
    description: 'The tax collected on each order. TOTAL TAX on the dashboard is their sum, before refunds; a refund gives back its share of the order’s tax.',
  },
  donations: { title: (n) => `Donations: ${n}`, crumb: 'Donations', description: 'The donations and donation fees collected with each order.' },
};

function TenantOrders({ variant }: { variant: Exclude<Variant, 'event'> }) {
  const scope = useReportScope();
  const names = useTenantNames(scope.tenantId);
  const list = useReportList({ searchFields: SEARCH, dateField: 'details.dateCreated' });
  const view = useViewOrder(scope);
  const t = scope.tenantId;
  const page = TENANT_PAGES[variant];
  return (
    <>
      <PageHeader
        title={page.title(names.name)}
        description={page.description}
        breadcrumbs={[{ label: 'Sales', to: scope.base }, { label: page.crumb }]}
        actions={
          <ExportButton kind="orders" path={t ? REPORT_PATHS.tenantOrdersDownload(t) : null} statusPath={(id) => REPORT_PATHS.tenantExport(t, id)} filters={list.filters} />
        }
      />
      {variant === 'taxes' && <TaxTotals tenantId={t} />}
      <ReportListView
        label={page.crumb}
        path={t ? REPORT_PATHS.tenantOrders(t) : null}
        list={list}
        columns={orderColumns(variant, view, (o) => scope.order(o.details.eventId, o.details.orderUID))}
        searchFields={SEARCH}
        onRowClick={view}
        minWidth={variant === 'taxes' ? 1450 : 1200}
        emptyTitle="No orders yet"
        emptyDescription="Orders appear here as soon as tickets are bought."
      />
    </>
  );
}

/** The Taxes page's totals (issue 21.11): TOTAL TAX as the dashboard has it, the tax refunds gave back, and what is left. */
function TaxTotals({ tenantId }: { tenantId: string }) {
  const d = useDashboard(tenantId ? REPORT_PATHS.tenantDashboard(tenantId) : null).data;
  if (!d) return null;
  const items = [
    { key: 'total', label: 'TOTAL TAX', value: d.sales.total_taxes },
    { key: 'refunded', label: 'Refunded with orders', value: -d.after_refunds.taxes_refunded },
    { key: 'after', label: 'Tax after refunds', value: d.after_refunds.total_taxes },
  ];
  return (
    <Paper withBorder radius="lg" px="lg" py="sm" mb="md" data-testid="tax-totals">
      <Group gap="xl" style={{ rowGap: 8 }}>
        {items.map((i) => (
          <div key={i.key} data-testid={`tax-${i.key}`}>
            <Text fz="xs" c="dimmed" fw={600}>
              {i.label}
            </Text>
            <Text fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
              {i.value < 0 ? `-${formatMoney(-i.value)}` : formatMoney(i.value)}
            </Text>
          </div>
        ))}
      </Group>
    </Paper>
  );
}

/** …/orders at tenant level (every event). */
export const TenantOrdersPage = () => <TenantOrders variant="tenant" />;
/** spec §2 dashboard card link …/taxes: the tax of each order. */
export const TenantTaxesPage = () => <TenantOrders variant="taxes" />;
/** spec §2 dashboard card link …/donations: the donations of each order. */
export const TenantDonationsPage = () => <TenantOrders variant="donations" />;
