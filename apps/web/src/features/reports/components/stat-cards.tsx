import { Group, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import type { TReportDashboard } from '@marquee/core';
import {
  IconArrowUpRight,
  IconCalendarEvent,
  IconCash,
  IconChecks,
  IconGift,
  IconHeart,
  IconMail,
  IconPercentage,
  IconReceipt,
  IconReceiptRefund,
  IconReceiptTax,
  IconShoppingCart,
  IconTicket,
  IconTrendingUp,
  type Icon,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatCount, formatMoney } from '../../../shared/report-list/format';

export type Card = { label: string; value: string; icon: Icon; color: string; to?: string; /** A few words under the value: what the figure counts. */ hint?: string };

function StatCard({ card, large }: { card: Card; large?: boolean }) {
  const I = card.icon;
  const body = (
    <Paper withBorder radius="lg" p={{ base: 'sm', sm: large ? 'lg' : 'md' }} h="100%" data-testid={`card-${card.label.toLowerCase().replace(/[^a-z]+/g, '-').replace(/^-|-$/g, '')}`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Text fz="xs" c="dimmed" fw={600} style={{ letterSpacing: 0.4 }}>
            {card.label}
          </Text>
          <Text fz={large ? { base: 18, xs: 22, lg: 26 } : { base: 17, sm: 20 }} fw={700} lh={1.15} style={{ fontVariantNumeric: 'tabular-nums' }}>
            {card.value}
          </Text>
          {card.hint && (
            <Text fz="xs" c="dimmed" lh={1.3}>
              {card.hint}
            </Text>
          )}
        </Stack>
        <ThemeIcon variant="light" color={card.color} size={large ? 38 : 32} radius="md" visibleFrom="xs" style={{ flexShrink: 0 }}>
          {card.to ? <IconArrowUpRight size={18} stroke={1.8} /> : <I size={large ? 20 : 18} stroke={1.7} />}
        </ThemeIcon>
      </Group>
    </Paper>
  );
  if (!card.to) return body;
  return (
    <UnstyledButton component={Link} to={card.to} aria-label={`${card.label}: ${card.value}. Open the details`} style={{ borderRadius: 'var(--mantine-radius-lg)' }}>
      {body}
    </UnstyledButton>
  );
}

export type DashboardLinks = Partial<Record<'events' | 'taxes' | 'donations' | 'refunds' | 'orders' | 'tickets' | 'subscribers', string>>;

/** spec §2: the eight cards every dashboard shows. */
export function salesCards(d: TReportDashboard, links: DashboardLinks): Card[] {
  const s = d.sales;
  return [
    { label: 'GROSS SALES', value: formatMoney(s.gross_sales), icon: IconTrendingUp, color: 'brand', to: links.events ?? links.orders },
    { label: 'NET REVENUE', value: formatMoney(s.net_sales), icon: IconCash, color: 'teal', to: links.events ?? links.orders },
    { label: 'SERVICE FEES', value: formatMoney(s.total_service_fees), icon: IconReceipt, color: 'indigo' },
    { label: 'PROCESSING FEES', value: formatMoney(s.total_processing_fees), icon: IconPercentage, color: 'gray', hint: 'Paid by buyers' },
    { label: 'TOTAL TAX', value: formatMoney(s.total_taxes), icon: IconReceiptTax, color: 'gray', to: links.taxes, hint: 'Before refunds' },
    { label: 'DONATIONS', value: formatMoney(s.total_donations), icon: IconHeart, color: 'pink', to: links.donations },
    { label: 'DISCOUNTS', value: formatMoney(s.total_discounts), icon: IconPercentage, color: 'orange' },
    { label: 'REFUNDS', value: formatMoney(s.refunds), icon: IconReceiptRefund, color: 'red', to: links.refunds },
  ];
}

/** spec §2: the tenant dashboard's six counters; the event dashboard's five (no # EVENTS, and # TICKET USED). */
export function counterCards(d: TReportDashboard, level: 'tenant' | 'event', links: DashboardLinks): Card[] {
  const s = d.sales;
  const cards: Card[] = [
    { label: '# ORDERS', value: formatCount(d.orders), icon: IconShoppingCart, color: 'brand', to: links.orders },
    { label: '# TICKETS SOLD', value: formatCount(s.tickets_sold), icon: IconTicket, color: 'blue', to: links.tickets },
    { label: '# COMPLIMENTARY TICKETS', value: formatCount(s.complimentary_tickets), icon: IconGift, color: 'cyan' },
    { label: '# SUBSCRIPTIONS', value: formatCount(d.subscriptions), icon: IconMail, color: 'grape', to: links.subscribers },
    { label: level === 'tenant' ? '# TICKETS USED' : '# TICKET USED', value: formatCount(d.ticket_used), icon: IconChecks, color: 'teal' },
  ];
  if (level === 'tenant') cards.unshift({ label: '# EVENTS', value: formatCount(d.events), icon: IconCalendarEvent, color: 'indigo', to: links.events });
  return cards;
}

export function StatGrid({ cards, loading, count, large }: { cards: Card[] | null; loading: boolean; count: number; large?: boolean }) {
  return (
    <SimpleGrid cols={large ? { base: 2, md: 4 } : { base: 2, sm: 3, xl: count }} spacing={{ base: 'xs', sm: 'md' }}>
      {cards ? cards.map((c) => <StatCard key={c.label} card={c} large={large} />) : loading && Array.from({ length: count }, (_, i) => <Skeleton key={i} height={large ? 100 : 84} radius="lg" />)}
    </SimpleGrid>
  );
}
