import { Anchor, Stack, Text } from '@mantine/core';
import { REPORT_PATHS, type ExportKind, type TTenantSalesRow } from '@marquee/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../ui/page-header';
import type { Column } from '../../../ui/paged-table';
import { reportsApi } from '../api';
import { formatCount, formatMoney } from '../../../shared/report-list/format';
import { useReportList, type SearchField } from '../../../shared/report-list/use-report-list';
import { ExportButton } from './export-button';
import { ReportListView } from '../../../shared/report-list/report-list-view';

type Kind = 'sales' | 'taxes' | 'donations';

const SEARCH: readonly SearchField[] = [{ value: 'url', label: 'Tenant URL', field: 'details.tenantURL' }];

const money = (cents: number) => <Text fz="sm" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>{formatMoney(cents)}</Text>;

const PAGES: Record<Kind, { title: string; description: string; exportKind: ExportKind; exportPath: string; exportLabel: string }> = {
  sales: {
    title: 'Platform Sales',
    description: 'Tickets sold, gross sales and net revenue for every tenant. Open a tenant for its dashboard.',
    exportKind: 'tenant-list',
    exportPath: REPORT_PATHS.tenantListDownload(),
    exportLabel: 'Export ALL to CSV',
  },
  taxes: {
    title: 'Platform Taxes',
    description: 'Taxes collected for every tenant.',
    exportKind: 'taxes',
    exportPath: REPORT_PATHS.taxesDownload(),
    exportLabel: 'Export to CSV',
  },
  donations: {
    title: 'Platform Donations',
    description: 'Donations and donation fees collected for every tenant.',
    exportKind: 'donations',
    exportPath: REPORT_PATHS.donationsDownload(),
    exportLabel: 'Export to CSV',
  },
};

function TenantListReport({ kind }: { kind: Kind }) {
  const navigate = useNavigate();
  const list = useReportList({ searchFields: SEARCH });
  const [opening, setOpening] = useState<string | null>(null);
  const page = PAGES[kind];

  // spec §2: clicking a tenant URL looks the tenant up by URL and opens /reports/sales/{tenant_id}.
  const open = async (row: TTenantSalesRow) => {
    setOpening(row.id);
    let id: string | null = null;
    try {
      id = await reportsApi.tenantIdByUrl(row.details.tenantURL);
    } catch (e) {
      // spec §8: lookup errors are only logged; the row's own id still opens the tenant.
      console.warn('tenant lookup failed', e);
    } finally {
      setOpening(null);
    }
    void navigate(`/reports/sales/${encodeURIComponent(id ?? row.id)}`);
  };

  // The spec's Tenant URL column stays; before it, the tenant's name, which is how people know it
  // (issue 21.19). On a phone the URL goes under the name.
  const columns: Column<TTenantSalesRow>[] = [
    {
      key: 'name',
      header: 'Tenant',
      render: (r) => (
        <Stack gap={0}>
          <Anchor
            component="button"
            type="button"
            fz="sm"
            fw={600}
            onClick={(e) => {
              e.stopPropagation();
              void open(r);
            }}
            disabled={opening === r.id}
            style={{ overflowWrap: 'anywhere', textAlign: 'left' }}
          >
            {r.details.tenantName || r.details.tenantURL}
          </Anchor>
          <Text fz="xs" c="dimmed" hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>
            {r.details.tenantURL}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'url',
      header: 'Tenant URL',
      visibleFrom: 'sm',
      render: (r) => (
        <Anchor
          component="button"
          type="button"
          fz="sm"
          fw={600}
          onClick={(e) => {
            e.stopPropagation();
            void open(r);
          }}
          disabled={opening === r.id}
          style={{ wordBreak: 'break-word', textAlign: 'left' }}
        >
          {r.details.tenantURL}
        </Anchor>
      ),
    },
    { key: 'sold', header: kind === 'sales' ? '# Tickets Sold' : 'Ticket Sold', align: 'right', render: (r) => <Text fz="sm">{formatCount(r.details.ticketsSold)}</Text> },
    { key: 'gross', header: kind === 'sales' ? 'Gross Sales' : 'Gross sales', align: 'right', render: (r) => money(r.details.grossSales) },
    { key: 'net', header: 'Net Revenue', align: 'right', render: (r) => money(r.details.netSales) },
  ];
  if (kind === 'taxes') columns.push({ key: 'tax', header: 'Total Tax', align: 'right', render: (r) => money(r.details.totalTax) });
  if (kind === 'donations') {
    columns.push({ key: 'donation', header: 'Total Donation', align: 'right', render: (r) => money(r.details.totalDonation) });
    columns.push({ key: 'donationFee', header: 'Total Donation Fee', align: 'right', render: (r) => money(r.details.totalDonationFee) });
  }

  return (
    <>
      <PageHeader
        title={page.title}
        description={page.description}
        actions={
          <ExportButton
            label={page.exportLabel}
            kind={page.exportKind}
            path={page.exportPath}
            statusPath={REPORT_PATHS.platformExport}
            // 'Export ALL to CSV' (spec §2) exports every tenant whatever the search; taxes and donations follow it.
            filters={kind === 'sales' ? [] : list.filters}
          />
        }
      />
      <ReportListView
        label={page.title}
        path={REPORT_PATHS.tenantList()}
        list={list}
        columns={columns}
        searchFields={SEARCH}
        withDateRange={false}
        minWidth={kind === 'donations' ? 820 : 640}
        onRowClick={(r) => void open(r)}
        emptyTitle="No sales yet"
        emptyDescription="Tenants appear here once they sell their first ticket."
      />
    </>
  );
}

/** spec §2 /reports/sales: Platform Sales, the tenant list. */
export const PlatformSalesPage = () => <TenantListReport kind="sales" />;
/** spec §2 Platform Taxes. */
export const PlatformTaxesPage = () => <TenantListReport kind="taxes" />;
/** spec §2 Platform Donations. */
export const PlatformDonationsPage = () => <TenantListReport kind="donations" />;
