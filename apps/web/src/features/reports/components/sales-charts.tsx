import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import { Alert, Grid, Paper, Skeleton, Text, Title } from '@mantine/core';
import { errorMessage } from '../../../ui/api-client';
import { formatMoney } from '../../../shared/report-list/format';
import { shorten, ticketTypeBars, type TicketTypeBar } from '../chart-data';
import { useSalesOverTime, useTicketTypeSales } from '../queries';

// Beyond the spec (issue 8): sales over time and by ticket type. This module is loaded lazily, so
// the chart library lands in its own chunk and no other page grows.

const shortDay = (iso: string) => new Date(`${iso}T00:00:00`).toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
const dollars = (cents: number) => formatMoney(cents);

/** The y axis is this wide; a name longer than fits is cut with an ellipsis (the tooltip has it whole). */
const AXIS_WIDTH = 132;

type TickProps = { x?: number | string; y?: number | string; payload?: { value?: unknown } };

/** A bar's label: the ticket type's name, and under it, quieter, its event's when the bars come from several events. */
function typeTick(bars: TicketTypeBar[]) {
  const byKey = new Map(bars.map((b) => [b.key, b]));
  return function TypeTick({ x = 0, y = 0, payload }: TickProps) {
    const bar = byKey.get(String(payload?.value ?? ''));
    if (!bar) return <g />;
    return (
      <g transform={`translate(${Number(x)},${Number(y)})`} data-testid="ticket-type-tick">
        <title>{bar.label}</title>
        <text x={-6} y={bar.event ? -3 : 0} dy={bar.event ? 0 : 4} textAnchor="end" fontSize={12} fontWeight={600} fill="var(--mantine-color-text)">
          {shorten(bar.type, 20)}
        </text>
        {bar.event && (
          <text x={-6} y={11} textAnchor="end" fontSize={11} fill="var(--mantine-color-dimmed)">
            {shorten(bar.event, 22)}
          </text>
        )}
      </g>
    );
  };
}

export type SalesChartsProps = { salesOverTimePath: string | null; ticketTypesPath: string | null; showEvent?: boolean };

export function SalesCharts({ salesOverTimePath, ticketTypesPath, showEvent }: SalesChartsProps) {
  const overTime = useSalesOverTime(salesOverTimePath);
  const byType = useTicketTypeSales(ticketTypesPath);
  const days = (overTime.data?.result ?? []).map((d) => ({ day: shortDay(d.date), 'Gross Sales': d.grossSales, 'Net Revenue': d.netSales }));
  const types = ticketTypeBars(byType.data?.result ?? [], !!showEvent);
  const labelOf = new Map(types.map((t) => [t.key, t.label]));

  return (
    <Grid gutter="md">
      <Grid.Col span={{ base: 12, lg: 7 }}>
        <Paper withBorder radius="lg" p="lg" h="100%">
          <Title order={3} fz="md" mb={4}>
            Sales over time
          </Title>
          {overTime.data && (
            <Text fz="xs" c="dimmed" mb="md">
              {new Date(`${overTime.data.from}T00:00:00`).toLocaleDateString('en-US', { dateStyle: 'medium' })} –{' '}
              {new Date(`${overTime.data.to}T00:00:00`).toLocaleDateString('en-US', { dateStyle: 'medium' })}
            </Text>
          )}
          {overTime.error ? (
            <Alert color="red" variant="light">
              {errorMessage(overTime.error)}
            </Alert>
          ) : !overTime.data ? (
            <Skeleton height={240} radius="md" />
          ) : days.every((d) => d['Gross Sales'] === 0 && d['Net Revenue'] === 0) ? (
            <Text fz="sm" c="dimmed" py="xl" ta="center">
              No sales in these days yet.
            </Text>
          ) : (
            <AreaChart
              h={240}
              data={days}
              dataKey="day"
              series={[
                { name: 'Gross Sales', color: 'brand.6' },
                { name: 'Net Revenue', color: 'teal.6' },
              ]}
              curveType="monotone"
              withDots={days.length <= 14}
              valueFormatter={dollars}
              yAxisProps={{ width: 80 }}
              withLegend
              aria-label="Gross sales and net revenue by day"
            />
          )}
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 5 }}>
        <Paper withBorder radius="lg" p="lg" h="100%">
          <Title order={3} fz="md" mb="md">
            Tickets by ticket type
          </Title>
          {showEvent && types.length > 0 && (
            <Text fz="xs" c="dimmed" mt={-8} mb="md">
              The ten best-selling ticket types across your events.
            </Text>
          )}
          {byType.error ? (
            <Alert color="red" variant="light">
              {errorMessage(byType.error)}
            </Alert>
          ) : !byType.data ? (
            <Skeleton height={240} radius="md" />
          ) : types.length === 0 ? (
            <Text fz="sm" c="dimmed" py="xl" ta="center">
              No tickets sold yet.
            </Text>
          ) : (
            <BarChart
              h={Math.max(160, types.length * (types.some((t) => t.event) ? 60 : 52))}
              data={types}
              dataKey="key"
              orientation="vertical"
              type="stacked"
              series={[
                { name: 'Sold', color: 'brand.6' },
                { name: 'Complimentary', color: 'cyan.4' },
              ]}
              yAxisProps={{ width: AXIS_WIDTH, tick: typeTick(types), interval: 0 }}
              // The bar's own row names it: recharts hands a vertical chart's tooltip an index, not the key.
              tooltipProps={{ labelFormatter: (key: unknown, payload: ReadonlyArray<{ payload?: { label?: string } }>) => payload?.[0]?.payload?.label ?? labelOf.get(String(key)) ?? '' }}
              xAxisProps={{ allowDecimals: false }}
              maxBarWidth={32}
              withLegend
              aria-label="Tickets sold by ticket type"
            />
          )}
        </Paper>
      </Grid.Col>
    </Grid>
  );
}
