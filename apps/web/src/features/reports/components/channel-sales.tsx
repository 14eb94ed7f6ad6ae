import { Group, Paper, Progress, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { paymentMethodLabelOf, saleChannelLabelOf, type TChannelSales, type TWaitlistFigures } from '@marquee/core';
import { IconBuildingStore, IconDeviceMobile, IconHourglass, IconWorld, type Icon } from '@tabler/icons-react';
import { formatCount, formatMoney } from '../../../shared/report-list/format';

const CHANNEL_LOOK: Record<TChannelSales['channel'], { icon: Icon; color: string; hint: string; platformHint: string }> = {
  ONLINE: { icon: IconWorld, color: 'brand', hint: 'Your event site', platformHint: 'Tenants’ event sites' },
  BACKEND: { icon: IconBuildingStore, color: 'teal', hint: 'Sold at the door', platformHint: 'Tenants’ box offices' },
  APP: { icon: IconDeviceMobile, color: 'grape', hint: 'Sold with an API key', platformHint: 'Tenants’ apps (API keys)' },
};

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** "3 orders · 5 tickets · 1 comp": what a channel or a payment method counts, in one line. */
export function channelCountsLine(c: { orders: number; tickets_sold: number; complimentary_tickets: number }): string {
  const parts = [plural(c.orders, 'order', 'orders'), plural(c.tickets_sold, 'ticket sold', 'tickets sold')];
  if (c.complimentary_tickets > 0) parts.push(plural(c.complimentary_tickets, 'complimentary', 'complimentary'));
  return parts.join(' · ');
}

/**
 * Issues 23 and 25: the dashboard's sales by channel (Online, Box office, App), each with its gross,
 * its share of the gross, its counts and, where it took more than one kind of payment, the split by
 * payment method. Comps count as tickets of their own and are never in the gross.
 */
export function ChannelSales({ channels, platform }: { channels: TChannelSales[]; /** The platform's dashboard, across tenants. */ platform?: boolean }) {
  const gross = channels.reduce((n, c) => n + c.gross_sales, 0);
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="sales-by-channel">
      <Title order={2} fz="md" mb={2}>
        Sales by channel
      </Title>
      <Text fz="xs" c="dimmed" mb="md">
        Where the paid orders were sold. Complimentary tickets are counted apart and never in gross sales.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing={{ base: 'sm', sm: 'lg' }}>
        {channels.map((c) => {
          const look = CHANNEL_LOOK[c.channel];
          const I = look.icon;
          const share = gross > 0 ? Math.round((c.gross_sales / gross) * 100) : 0;
          const label = saleChannelLabelOf(c.channel);
          return (
            <Stack key={c.channel} gap={6} data-testid={`channel-${c.channel.toLowerCase()}`} aria-label={`${label}: ${formatMoney(c.gross_sales)}`}>
              <Group gap="xs" wrap="nowrap" justify="space-between">
                <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                  <ThemeIcon variant="light" color={look.color} size={28} radius="md">
                    <I size={16} stroke={1.7} />
                  </ThemeIcon>
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    <Text fz="sm" fw={700}>
                      {label}
                    </Text>
                    <Text fz="xs" c="dimmed" truncate>
                      {platform ? look.platformHint : look.hint}
                    </Text>
                  </Stack>
                </Group>
                <Text fz={{ base: 18, sm: 20 }} fw={700} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="channel-gross">
                  {formatMoney(c.gross_sales)}
                </Text>
              </Group>
              <Progress value={share} color={look.color} size="sm" radius="xl" aria-label={`${label}: ${share}% of gross sales`} />
              <Text fz="xs" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="channel-counts">
                {share}% of gross · {channelCountsLine(c)}
              </Text>
              {(c.payment_methods.length > 1 || (c.channel === 'BACKEND' && c.payment_methods.length > 0)) && (
                <Stack gap={2} pl="xs" style={{ borderLeft: '2px solid var(--mantine-color-gray-3)' }}>
                  {c.payment_methods.map((m) => (
                    <Group key={m.payment_method} justify="space-between" wrap="nowrap" gap="xs" data-testid={`method-${m.payment_method || 'none'}`}>
                      <Text fz="xs">
                        {paymentMethodLabelOf(m.payment_method) || 'Other'}
                        <Text span fz="xs" c="dimmed">
                          {' '}
                          · {plural(m.orders, 'order', 'orders')}
                          {m.complimentary_tickets > 0 ? ` · ${plural(m.complimentary_tickets, 'ticket', 'tickets')}` : ''}
                        </Text>
                      </Text>
                      <Text fz="xs" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
                        {formatMoney(m.gross_sales)}
                      </Text>
                    </Group>
                  ))}
                </Stack>
              )}
            </Stack>
          );
        })}
      </SimpleGrid>
    </Paper>
  );
}

/** Issue 24: how many joined the waiting list and how many bought from it. */
export function WaitlistFigures({ waitlist }: { waitlist: TWaitlistFigures }) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="waitlist-figures">
      <Group gap="sm" wrap="nowrap" align="center">
        <ThemeIcon variant="light" color="orange" size={32} radius="md">
          <IconHourglass size={18} stroke={1.7} />
        </ThemeIcon>
        <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
          <Text fz="xs" c="dimmed" fw={600} style={{ letterSpacing: 0.4 }}>
            WAITING LIST
          </Text>
          <Text fz={{ base: 15, sm: 17 }} fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
            <span data-testid="waitlist-joined">{plural(waitlist.joined, 'person', 'people')} joined</span>
            {' · '}
            <span data-testid="waitlist-bought">{formatCount(waitlist.bought)} bought</span>
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}
