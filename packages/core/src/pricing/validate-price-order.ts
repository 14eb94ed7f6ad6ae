import { PASS_ALONG_CHANNELS, PASS_ALONG_OPTIONS } from '../schemas/fees.js';
import { BASIS_POINTS, isNonNegativeInteger, isPercent } from './integer-math.js';
import type { PriceOrderInput } from './price-order.js';

// Defensive checks only: the server validates requests with zod first, so a failure here is a
// bug in the caller, reported as a plain Error that names the offending field.

export const MAX_PROCESSING_FEE_PERCENT = 50;
const MAX_PROCESSING_FEE_BP = MAX_PROCESSING_FEE_PERCENT * 100;

const CHANNELS: readonly string[] = ['online', 'backend', 'app'];
const PAYMENT_METHODS: readonly string[] = ['card', 'cash', 'terminal'];

function fail(field: string, expectation: string, value: unknown): never {
  throw new Error(`priceOrder: ${field} must be ${expectation} (got ${JSON.stringify(value) ?? String(value)})`);
}

function cents(field: string, value: unknown): void {
  if (!isNonNegativeInteger(value)) fail(field, 'a non-negative integer number of cents', value);
}

function percent(field: string, value: unknown): void {
  if (!isPercent(value)) fail(field, 'a percentage from 0 to 100 with at most 2 decimals', value);
}

function basisPoints(field: string, value: unknown): void {
  if (!isNonNegativeInteger(value) || value > BASIS_POINTS) fail(field, 'whole basis points from 0 to 10000', value);
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

function optionalCents(field: string, value: unknown): void {
  if (value !== null && value !== undefined) cents(field, value);
}

export function validatePriceOrderInput(input: PriceOrderInput): void {
  const { lines, rule, settings, channel, discount, donation, paymentMethod } = input;

  if (!Array.isArray(lines)) fail('lines', 'an array', lines);
  if (!isObject(rule)) fail('rule', 'an object', rule);
  if (!isObject(settings)) fail('settings', 'an object', settings);
  lines.forEach((line, i) => {
    if (!isObject(line)) fail(`lines[${i}]`, 'an object', line);
    if (typeof line.ticketTypeId !== 'string' || line.ticketTypeId === '') {
      fail(`lines[${i}].ticketTypeId`, 'a non-empty string', line.ticketTypeId);
    }
    if (typeof line.ticketName !== 'string') fail(`lines[${i}].ticketName`, 'a string', line.ticketName);
    cents(`lines[${i}].unitPrice`, line.unitPrice);
    if (!isNonNegativeInteger(line.quantity)) fail(`lines[${i}].quantity`, 'a non-negative integer', line.quantity);
    if (line.complimentary !== undefined && typeof line.complimentary !== 'boolean') {
      fail(`lines[${i}].complimentary`, 'a boolean', line.complimentary);
    }
  });

  percent('rule.serviceFeePercent', rule.serviceFeePercent);
  cents('rule.serviceFeeFlatRate', rule.serviceFeeFlatRate);
  percent('rule.serviceFeePOSPercent', rule.serviceFeePOSPercent);
  cents('rule.serviceFeePOSFlatRate', rule.serviceFeePOSFlatRate);

  basisPoints('settings.donationServiceFeeBp', settings.donationServiceFeeBp);
  cents('settings.donationCharge', settings.donationCharge);
  if (!isNonNegativeInteger(settings.roundUpServiceFeeValue) || settings.roundUpServiceFeeValue < 1) {
    fail('settings.roundUpServiceFeeValue', 'a positive integer number of cents', settings.roundUpServiceFeeValue);
  }
  if (!isObject(settings.passAlong)) fail('settings.passAlong', 'an object', settings.passAlong);
  for (const channel of PASS_ALONG_CHANNELS) {
    const option = settings.passAlong[channel];
    if (!PASS_ALONG_OPTIONS.includes(option)) fail(`settings.passAlong.${channel}`, 'an option from 1 to 4', option);
  }
  if (settings.chargeTax) basisPoints('settings.taxRateBp (required when chargeTax is on)', settings.taxRateBp);
  optionalCents('settings.chargeOnlineValue', settings.chargeOnlineValue);
  optionalCents('settings.chargeCashValue', settings.chargeCashValue);
  optionalCents('settings.chargeBoxOfficeValue', settings.chargeBoxOfficeValue);
  basisPoints('settings.platformFeeBp', settings.platformFeeBp);
  basisPoints('settings.processingFeeBp', settings.processingFeeBp);
  // Above 50% the seller's side could not cover the card cost on the tax it collects, and no
  // card network charges anything near it: such a value is a typing error (docs/pricing.md).
  if (settings.processingFeeBp > MAX_PROCESSING_FEE_BP) {
    fail('settings.processingFeeBp', `at most ${MAX_PROCESSING_FEE_PERCENT}% (${MAX_PROCESSING_FEE_BP} basis points)`, settings.processingFeeBp);
  }

  if (!CHANNELS.includes(channel)) fail('channel', "'online', 'backend' or 'app'", channel);
  if (paymentMethod !== undefined && !PAYMENT_METHODS.includes(paymentMethod)) {
    fail('paymentMethod', "'card', 'cash' or 'terminal'", paymentMethod);
  }
  if (donation !== undefined) cents('donation', donation);

  if (discount !== undefined) {
    if (!isObject(discount)) fail('discount', 'an object', discount);
    if (discount.kind === 'percent') percent('discount.value', discount.value);
    else if (discount.kind === 'amount') cents('discount.value', discount.value);
    else fail('discount.kind', "'percent' or 'amount'", discount.kind);
    if (discount.appliesTo !== undefined) {
      if (!Array.isArray(discount.appliesTo) || discount.appliesTo.some((id) => typeof id !== 'string')) {
        fail('discount.appliesTo', 'an array of ticket type ids', discount.appliesTo);
      }
    }
  }
}
