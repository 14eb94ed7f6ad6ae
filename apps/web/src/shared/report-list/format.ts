// Display rules of the report pages (spec: reports-payouts-checkout §4, §5 Display, §9).
export { formatMoney } from '../../ui/money';
export { refundedLabel, refundStatusLabel, ticketStatusLabel, ticketUsedLabel } from '@marquee/core';

const count = new Intl.NumberFormat('en-US');
export const formatCount = (n: number) => count.format(n);

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** spec §9: refund dates display as MMMM DD, YYYY (local date). */
export function formatLongDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${MONTHS[d.getMonth()]} ${String(d.getDate()).padStart(2, '0')}, ${d.getFullYear()}`;
}

/** A list's date and time column, as the other console tables show dates (Nov 25, 2026, 3:04 PM). */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** Yes or No (spec §4 Ticket Used; the Refunded column). */
export const yesNo = (v: boolean | null | undefined) => (v ? 'Yes' : 'No');
