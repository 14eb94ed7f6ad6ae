import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import { Alert, Grid, Paper, Skeleton, Text, Title } from '@mantine/core';
import { errorMessage } from '../../../ui/api-client';
import { formatMoney } from '../../../shared/report-list/format';
import { useSalesOverTime, useTicketTypeSales } from '../queries';

// Beyond the spec (issue 8): sales over time and by ticket type. This module is loaded lazily, so
// the chart library lands in its own chunk and no other page grows.

const shortDay = (iso: string) => new Date(`${iso}T00:00:00`).toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
const dollars = (cents: number) => formatMoney(cents);
const shorten = (name: string) => (name.length > 26 ? `${name.slice(0, 25)}…` : name);

export type SalesChartsProps = { salesOverTimePath: string | null; ticketTypesPath: string | null; showEvent?: boolean };

export function SalesCharts({ salesOverTimePath, ticketTypesPath, showEvent }: SalesChartsProps) {
  const overTime = useSalesOverTime(salesOverTimePath);
  const byType = useTicketTypeSales(ticketTypesPath);
  const days = (overTime.data?.result ?? []).map((d) => ({ day: shortDay(d.date), 'Gross Sales': d.grossSales, 'Net Revenue': d.netSales }));
  const types = (byType.data?.result ?? [])
    .filter((t) => t.ticketsSold > 0 || t.complimentaryTickets > 0)
    .sort((a, b) => b.ticketsSold + b.complimentaryTickets - (a.ticketsSold + a.complimentaryTickets))
    // The ten best sellers; across events the event comes first, as it tells the rows apart.
    .slice(0, 10)
    .map((t) => ({ name: showEvent ? `${t.eventName} · ${t.ticketTypeName}` : t.ticketTypeName, Sold: t.ticketsSold, Complimentary: t.complimentaryTickets }));

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
              h={Math.max(160, types.length * 52)}
              data={types}
              dataKey="name"
              orientation="vertical"
              type="stacked"
              series={[
                { name: 'Sold', color: 'brand.6' },
                { name: 'Complimentary', color: 'cyan.4' },
              ]}
              yAxisProps={{ width: 150, tickFormatter: shorten }}
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
