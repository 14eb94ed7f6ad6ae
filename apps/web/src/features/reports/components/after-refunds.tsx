import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { TReportDashboard } from '@marquee/core';
import { formatMoney } from '../../../shared/report-list/format';

export type AfterRefundsFigure = { key: 'gross' | 'net' | 'tax'; label: string; before: number; refunds: number; after: number };

/**
 * The money figures after refunds (issue 21.11, docs/reports.md "After refunds"): the cards keep
 * the spec's figures, before refunds (NET REVENUE is the organiser's share after them already);
 * here each is shown as before, less the refunds' part, and what is left.
 */
export function afterRefundsFigures(d: TReportDashboard): AfterRefundsFigure[] {
  const s = d.sales;
  const a = d.after_refunds;
  return [
    { key: 'gross', label: 'Gross sales after refunds', before: s.gross_sales, refunds: s.refunds, after: a.gross_sales },
    { key: 'net', label: 'Your share after refunds (NET REVENUE)', before: a.net_sales_before_refunds, refunds: a.tenant_refunds, after: s.net_sales },
    { key: 'tax', label: 'Tax after refunds', before: s.total_taxes, refunds: a.taxes_refunded, after: a.total_taxes },
  ].filter((f) => f.key !== 'tax' || f.before > 0) as AfterRefundsFigure[];
}

/** What PROCESSING FEES is, and where card fees the organiser bears went (issue 21.11). */
export const PROCESSING_FEES_NOTE =
  'PROCESSING FEES is the card processing fee buyers paid on top of their tickets. Card processing that buyers do not pay comes out of your share before NET REVENUE; each payout lists the card processor’s actual fees.';

export function AfterRefunds({ dashboard }: { dashboard: TReportDashboard }) {
  const refunded = dashboard.sales.refunds > 0;
  return (
    <Stack gap="xs">
      {refunded && (
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="after-refunds">
          <Title order={2} fz="md" mb={2}>
            After refunds
          </Title>
          <Text fz="xs" c="dimmed" mb="md">
            The cards above count every sale before refunds. Here is what is left once the refunds are taken off.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing={{ base: 'md', sm: 'lg' }}>
            {afterRefundsFigures(dashboard).map((f) => (
              <Stack key={f.key} gap={2} data-testid={`after-${f.key}`}>
                <Text fz="xs" c="dimmed" fw={600} style={{ letterSpacing: 0.3 }}>
                  {f.label}
                </Text>
                <Text fz={{ base: 18, sm: 20 }} fw={700} lh={1.2} style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {formatMoney(f.after)}
                </Text>
                <Text fz="xs" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {formatMoney(f.before)} before, less {formatMoney(f.refunds)} refunded
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
        </Paper>
      )}
      <Text fz="xs" c="dimmed" data-testid="processing-fees-note">
        {PROCESSING_FEES_NOTE}
      </Text>
    </Stack>
  );
}
