import { NumberInput, type NumberInputProps } from '@mantine/core';

/** Dollars with cents, as the fee forms show money (the API gets integer cents). */
export function MoneyInput(props: NumberInputProps) {
  return <NumberInput prefix="$" decimalScale={2} fixedDecimalScale thousandSeparator="," hideControls inputMode="decimal" {...props} />;
}

/** A percentage such as 2.9, at most two decimals. */
export function PercentInput(props: NumberInputProps) {
  return <NumberInput suffix="%" decimalScale={2} hideControls inputMode="decimal" {...props} />;
}
