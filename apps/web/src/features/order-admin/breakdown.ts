import type { TOrderDetail } from '@marquee/core';

export type Line = { label: string; amount: number; negative?: boolean; always?: boolean };

/** spec: reports-payouts-checkout §5 Display: fee, discount and tax lines are hidden when zero or absent. */
export function breakdownLines(d: TOrderDetail['details']): Line[] {
  const lines: Line[] = [
    { label: 'Subtotal', amount: d.subtotal, always: true },
    { label: d.discountCode ? `Discount (${d.discountCode})` : 'Discount', amount: d.discount, negative: true },
    { label: 'Service Fee', amount: d.surcharge },
    { label: 'Processing Fee', amount: d.processingFee },
    { label: d.taxRate ? `Tax (${(d.taxRate / 100).toFixed(2).replace(/\.?0+$/, '')}%)` : 'Tax', amount: d.vat },
    { label: d.charityName ? `Donation to ${d.charityName}` : 'Donation', amount: d.donation },
    { label: 'Donation Fee', amount: d.donationFee },
    { label: 'Online Charge', amount: d.channelCharge },
  ];
  return lines.filter((l) => l.always || l.amount > 0);
}
