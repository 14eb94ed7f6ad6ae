// Money is integer cents everywhere; it is formatted only at the edge.
// spec: reports-payouts-checkout §5 Display (2 decimals, thousands separator, $ prefix)
const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export type Cents = number;

export function formatMoney(cents: Cents): string {
  return usd.format(cents / 100);
}

/** Parses a dollars string or number such as "12.5" into integer cents, or null. */
export function toCents(value: string | number): Cents | null {
  const text = String(value).trim().replace(/[$,]/g, '');
  if (!/^-?\d+(\.\d{1,2})?$/.test(text)) return null;
  const negative = text.startsWith('-');
  const [whole, frac = ''] = text.replace('-', '').split('.');
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  return negative ? -cents : cents;
}

export function isCents(value: unknown): value is Cents {
  return typeof value === 'number' && Number.isSafeInteger(value);
}
