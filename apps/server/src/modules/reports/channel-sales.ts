import { SALE_CHANNELS, type TChannelSales } from '@marquee/core';
import type { ChannelFigureRow } from './repository.js';

/**
 * Sales by channel as the dashboards answer them (tenant, event and platform): the three channels
 * in order, zeros included, each with its payment methods, largest gross first. Summed, the channels
 * are the dashboard's figures (docs/reports.md "Sales by channel").
 */
export function channelSalesOf(rows: readonly ChannelFigureRow[]): TChannelSales[] {
  return SALE_CHANNELS.map((channel) => {
    const mine = rows.filter((r) => r.channel === channel);
    const total = (k: 'orders' | 'gross' | 'net' | 'refunds' | 'sold' | 'complimentary') => mine.reduce((n, r) => n + r[k], 0);
    return {
      channel,
      orders: total('orders'),
      tickets_sold: total('sold'),
      complimentary_tickets: total('complimentary'),
      gross_sales: total('gross'),
      net_sales: total('net'),
      refunds: total('refunds'),
      payment_methods: [...mine]
        .sort((a, b) => b.gross - a.gross || b.orders - a.orders || a.paymentMethod.localeCompare(b.paymentMethod))
        .map((r) => ({ payment_method: r.paymentMethod, orders: r.orders, tickets_sold: r.sold, complimentary_tickets: r.complimentary, gross_sales: r.gross })),
    };
  });
}
