import type { Cents } from '../money.js';
import type { FeeSettings, PassAlongChannel, PassAlongOption, SalesChannel, TSurchargeRule } from '../schemas/fees.js';
import { allocateDiscount } from './allocate-discount.js';
import { BASIS_POINTS, mulDivCeil, mulDivHalfUp, product, sum, toBasisPoints } from './integer-math.js';
import { validatePriceOrderInput } from './validate-price-order.js';

// The one pricing engine (architecture rule 4): the server's answer is authoritative, the web
// calls the same function to display the cart. Every rule and rounding choice is explained, with
// worked examples, in docs/pricing.md.

export { MAX_PROCESSING_FEE_PERCENT } from './validate-price-order.js';

export type PriceOrderChannel = SalesChannel;
/**
 * card: through Marquee's gateway (card processing applies); cash; terminal: a card on the venue's
 * own terminal at the box office (issue 23: the venue's processor, not ours, so no processing fee).
 */
export type PriceOrderPaymentMethod = 'card' | 'cash' | 'terminal';
export type PriceOrderPassAlongOption = PassAlongOption;

export type PriceOrderLine = {
  ticketTypeId: string;
  ticketName: string;
  unitPrice: Cents;
  quantity: number;
  complimentary?: boolean;
};

export type PriceOrderRule = Pick<
  TSurchargeRule,
  'serviceFeePercent' | 'serviceFeeFlatRate' | 'serviceFeePOSPercent' | 'serviceFeePOSFlatRate'
>;

/** The fee settings the price depends on: core's one fee-settings type (rates in basis points). */
export type PriceOrderSettings = Pick<
  FeeSettings,
  | 'donationServiceFeeBp'
  | 'donationCharge'
  | 'roundUpServiceFeeValue'
  | 'passAlong'
  | 'chargeTax'
  | 'taxRateBp'
  | 'chargeOnline'
  | 'chargeOnlineValue'
  | 'chargeCash'
  | 'chargeCashValue'
  | 'chargeBoxOffice'
  | 'chargeBoxOfficeValue'
  | 'platformFeeBp'
  | 'processingFeeBp'
>;

export type PriceOrderDiscount = {
  kind: 'percent' | 'amount';
  /** A percentage (10 means 10%) or an amount in cents, by kind. */
  value: number;
  /** Ticket type ids the discount is limited to; absent means every ticket type. */
  appliesTo?: readonly string[];
};

export type PriceOrderInput = {
  lines: readonly PriceOrderLine[];
  rule: PriceOrderRule;
  settings: PriceOrderSettings;
  channel: PriceOrderChannel;
  discount?: PriceOrderDiscount;
  donation?: Cents;
  /** Defaults to 'card'. */
  paymentMethod?: PriceOrderPaymentMethod;
};

/**
 * One line of the order. `discount` is what the discount took off this line's tickets (the lines'
 * discounts add up to the order's): what the line sold for is `price x quantity - discount`.
 */
export type PriceOrderDetail = { ticketId: string; ticketName: string; price: Cents; quantity: number; discount: Cents };

export type PriceOrderResult = {
  /** The pass-along option in force for the channel (accounts-admin-fees §9). */
  passAlongOption: PriceOrderPassAlongOption;
  ticketCount: number;
  subtotal: Cents;
  discount: Cents;
  /** The service fee charged to the customer. */
  surcharge: Cents;
  /** The card processing fee charged to the customer. */
  processingFee: Cents;
  /** The estimated card processing cost of the whole order, whoever pays it. */
  gatewayProcessingFee: Cents;
  /** The full service fee, whoever pays it. */
  serviceFeeTotal: Cents;
  vat: Cents;
  donation: Cents;
  donationFee: Cents;
  /** What the charity receives: the donation less any card cost the donation fee did not cover. */
  donationNet: Cents;
  channelCharge: Cents;
  /** What the customer pays. */
  totalAmount: Cents;
  /** What the organiser keeps, not counting the vat it collects to remit. */
  sellerNet: Cents;
  /** What the platform keeps: service fee, platform fee and donation fee, less what it waives or pays for. */
  platformTotal: Cents;
  orderDetails: PriceOrderDetail[];
};

type Fee = { basisPoints: number; flat: Cents };

// spec: accounts-admin-fees §5 (surcharge rule): the POS fee applies to box-office sales; the app is
// an attendee channel like the web site.
function serviceFeeFor(rule: PriceOrderRule, channel: PriceOrderChannel): Fee {
  return channel === 'backend'
    ? { basisPoints: toBasisPoints(rule.serviceFeePOSPercent), flat: rule.serviceFeePOSFlatRate }
    : { basisPoints: toBasisPoints(rule.serviceFeePercent), flat: rule.serviceFeeFlatRate };
}

// spec: accounts-admin-fees §9: one pass-along option per channel.
const PASS_ALONG_CHANNEL: Record<PriceOrderChannel, PassAlongChannel> = { online: 'ONLINE', backend: 'BACKEND', app: 'APP' };

/** The fee on one ticket sold at `price`: percent plus flat, rounded up to a multiple of `roundUp` cents. */
function serviceFeePerTicket(price: Cents, fee: Fee, roundUp: number): Cents {
  if (price === 0) return 0;
  const exactTimesBasis = product(price, fee.basisPoints) + product(fee.flat, BASIS_POINTS);
  return product(mulDivCeil(exactTimesBasis, 1, BASIS_POINTS * roundUp), roundUp);
}

// The per-order charges (accounts-admin-fees §3 ticket settings; docs/decisions.md "Issue 23: the
// box office's charges"): every box-office order pays the box-office charge, and a cash order the
// cash charge on top; web and app orders pay the online charge.
function channelChargeFor(
  settings: PriceOrderSettings,
  channel: PriceOrderChannel,
  paymentMethod: PriceOrderPaymentMethod,
): Cents {
  const cash = paymentMethod === 'cash' && settings.chargeCash ? (settings.chargeCashValue ?? 0) : 0;
  if (channel === 'backend') return sum([settings.chargeBoxOffice ? settings.chargeBoxOfficeValue : 0, cash]);
  return sum([settings.chargeOnline ? (settings.chargeOnlineValue ?? 0) : 0, cash]);
}

export function priceOrder(input: PriceOrderInput): PriceOrderResult {
  validatePriceOrderInput(input);
  const { lines, rule, settings, channel, discount, donation = 0, paymentMethod = 'card' } = input;

  const passAlongOption = settings.passAlong[PASS_ALONG_CHANNEL[channel]];
  const customerPaysServiceFee = passAlongOption === 2 || passAlongOption === 3;
  const customerPaysProcessing = passAlongOption === 2 || passAlongOption === 4;
  const processingBasisPoints = paymentMethod === 'card' ? settings.processingFeeBp : 0;

  const priced = lines.map((line) => ({
    ticketTypeId: line.ticketTypeId,
    price: line.complimentary ? 0 : line.unitPrice,
    quantity: line.quantity,
  }));
  const ticketCount = sum(priced.map((line) => line.quantity));
  const subtotal = sum(priced.map((line) => product(line.price, line.quantity)));
  const discounted = allocateDiscount(priced, discount);
  const discountTotal = sum(discounted.map((line) => line.discount));
  const ticketRevenue = subtotal - discountTotal;

  const fee = serviceFeeFor(rule, channel);
  const serviceFeeTotal = sum(
    discounted.flatMap((line) =>
      line.units.map((unit) => product(serviceFeePerTicket(unit.price, fee, settings.roundUpServiceFeeValue), unit.count)),
    ),
  );
  const surcharge = customerPaysServiceFee ? serviceFeeTotal : 0;

  // Local and state taxes are the producer's responsibility (accounts-admin-fees §9 tax note):
  // the one configured rate applies to what the tickets sell for, after the discount.
  const vat = settings.chargeTax ? mulDivHalfUp(ticketRevenue, settings.taxRateBp ?? 0, BASIS_POINTS) : 0;

  const donationFee =
    donation > 0
      ? sum([mulDivCeil(donation, settings.donationServiceFeeBp, BASIS_POINTS), settings.donationCharge])
      : 0;
  const channelCharge = ticketRevenue > 0 ? channelChargeFor(settings, channel, paymentMethod) : 0;

  const beforeProcessing = sum([ticketRevenue, surcharge, vat, donation, donationFee, channelCharge]);
  // Grossed up so the fee also covers the card cost of itself: the smallest whole fee with
  // fee >= rate x (everything else + fee). It then equals the gateway estimate below exactly.
  const processingFee = customerPaysProcessing
    ? mulDivCeil(beforeProcessing, processingBasisPoints, BASIS_POINTS - processingBasisPoints)
    : 0;
  const totalAmount = sum([beforeProcessing, processingFee]);
  const gatewayProcessingFee = mulDivCeil(totalAmount, processingBasisPoints, BASIS_POINTS);

  // Who keeps what. When the seller's side pays card processing (options 1 and 3), the card cost of
  // the donation is paid from the donation fee first and then from the donation; the rest of the
  // card cost comes out of the ticket side.
  const donationCardCost = customerPaysProcessing
    ? 0
    : mulDivCeil(donation + donationFee, processingBasisPoints, BASIS_POINTS);
  const ticketSide = ticketRevenue + channelCharge + surcharge + processingFee - (gatewayProcessingFee - donationCardCost);
  const platformFeeAmount = mulDivHalfUp(ticketRevenue, settings.platformFeeBp, BASIS_POINTS);
  // The seller never owes money on an order: a seller-paid fee larger than the ticket revenue is
  // waived by the platform rather than charged to the organiser.
  const sellerNet = Math.max(0, ticketSide - serviceFeeTotal - platformFeeAmount);
  const donationNet = donation - Math.max(0, donationCardCost - donationFee);
  const platformTotal = ticketSide - sellerNet + Math.max(0, donationFee - donationCardCost);

  return {
    passAlongOption,
    ticketCount,
    subtotal,
    discount: discountTotal,
    surcharge,
    processingFee,
    gatewayProcessingFee,
    serviceFeeTotal,
    vat,
    donation,
    donationFee,
    donationNet,
    channelCharge,
    totalAmount,
    sellerNet,
    platformTotal,
    orderDetails: lines.map((line, i) => ({
      ticketId: line.ticketTypeId,
      ticketName: line.ticketName,
      price: priced[i]?.price ?? 0,
      quantity: line.quantity,
      discount: discounted[i]?.discount ?? 0,
    })),
  };
}
