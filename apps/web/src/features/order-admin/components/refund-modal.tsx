import { Alert, Button, Checkbox, Group, Modal, NumberInput, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { M, toCents, type TOrderDetail, type TRefundRequest } from '@marquee/core';
import { useEffect, useState } from 'react';
import { formatMoney } from '../../../ui/money';
import { FormModal } from '../../../ui/form-modal';

type Mode = TRefundRequest['mode'];

export type RefundModalProps = {
  order: TOrderDetail | null;
  busy: boolean;
  onClose: () => void;
  onSubmit: (body: TRefundRequest) => Promise<unknown>;
};

/**
 * A refund from the order page: all that is left, an amount, or chosen tickets (voided and returned
 * to sale), always with a reason, and confirmed in a second dialog that says how much goes back.
 */
export function RefundModal({ order, busy, onClose, onSubmit }: RefundModalProps) {
  const [mode, setMode] = useState<Mode>('full');
  const [amount, setAmount] = useState<string | number>('');
  const [ticketIds, setTicketIds] = useState<string[]>([]);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; tickets?: string; reason?: string }>({});
  // Phones: the three choices stacked, so that none is cut off.
  const narrow = useMediaQuery('(max-width: 30em)');

  useEffect(() => {
    setMode('full');
    setAmount('');
    setTicketIds([]);
    setReason('');
    setErrors({});
  }, [order?.id]);

  if (!order) return <Modal opened={false} onClose={onClose} />;
  const d = order.details;
  const refundable = d.refundableAmount;
  const tickets = order.tickets.filter((t) => !t.details.voided);

  const submit = () => {
    const next: typeof errors = {};
    const cents = mode === 'amount' ? toCents(String(amount)) : null;
    if (!reason.trim()) next.reason = M.reasonRequired;
    if (mode === 'amount' && (cents === null || cents <= 0)) next.amount = M.refundAmountInvalid;
    else if (mode === 'amount' && cents! > refundable) next.amount = M.refundExceedsPaid;
    if (mode === 'tickets' && ticketIds.length === 0) next.tickets = M.refundModeRequired;
    setErrors(next);
    if (Object.keys(next).length) return;

    const body: TRefundRequest =
      mode === 'full'
        ? { mode, reason: reason.trim() }
        : mode === 'amount'
          ? { mode, amount: cents!, reason: reason.trim() }
          : { mode, ticketIds, reason: reason.trim() };
    const what =
      mode === 'full'
        ? `${formatMoney(refundable)}, all that is left on this order,`
        : mode === 'amount'
          ? formatMoney(cents!)
          : `the price paid for ${ticketIds.length} ticket${ticketIds.length === 1 ? '' : 's'}`;
    modals.openConfirmModal({
      title: 'Confirm refund',
      centered: true,
      children: (
        <Text fz="sm">
          Refund {what} to {d.fullName || d.email}? The money goes back to the card used to pay. This cannot be undone.
          {mode === 'tickets' && ' The chosen tickets are voided and return to sale.'}
        </Text>
      ),
      labels: { confirm: 'Refund', cancel: 'Go back' },
      confirmProps: { color: 'red' },
      onConfirm: () => void onSubmit(body),
    });
  };

  return (
    <FormModal dirty={mode !== 'full' || amount !== '' || ticketIds.length > 0 || reason !== ''} busy={busy} opened onClose={onClose} title={`Refund order ${d.orderUID}`} centered size="lg">
      <Stack gap="md">
        <Text fz="sm">
          Paid {formatMoney(d.totalAmount)}
          {d.refundedAmount > 0 && <>, already refunded {formatMoney(d.refundedAmount)}</>}. Up to <b>{formatMoney(refundable)}</b> can be refunded.
        </Text>
        {refundable <= 0 ? (
          <Alert color="gray" variant="light">
            {M.refundNothingLeft}
          </Alert>
        ) : (
          <>
            <SegmentedControl
              aria-label="What to refund"
              value={mode}
              onChange={(v) => setMode(v as Mode)}
              data={[
                { value: 'full', label: 'Full refund' },
                { value: 'amount', label: 'Partial amount' },
                { value: 'tickets', label: 'Chosen tickets', disabled: tickets.length === 0 },
              ]}
              fullWidth
              orientation={narrow ? 'vertical' : 'horizontal'}
            />
            {mode === 'amount' && (
              <NumberInput
                label="Amount to refund"
                withAsterisk
                prefix="$"
                decimalScale={2}
                fixedDecimalScale
                thousandSeparator=","
                min={0}
                max={refundable / 100}
                allowNegative={false}
                value={amount}
                onChange={setAmount}
                error={errors.amount}
                description={`At most ${formatMoney(refundable)}.`}
              />
            )}
            {mode === 'tickets' && (
              <Checkbox.Group label="Tickets to refund" description="They are voided and go back on sale." value={ticketIds} onChange={setTicketIds} error={errors.tickets}>
                <Stack gap={6} mt="xs">
                  {tickets.map((t) => (
                    <Checkbox key={t.id} value={t.id} label={`${t.details.ticketTypeName} · ${t.details.ticketUID} · ${formatMoney(t.details.ticketPrice)}`} />
                  ))}
                </Stack>
              </Checkbox.Group>
            )}
            <Textarea
              label="Reason"
              withAsterisk
              autosize
              minRows={2}
              maxLength={500}
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              error={errors.reason}
            />
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          {refundable > 0 && (
            <Button color="red" loading={busy} onClick={submit}>
              Refund…
            </Button>
          )}
        </Group>
      </Stack>
    </FormModal>
  );
}
