import { Alert, Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { M, type TSettleRefundRequest } from '@marquee/core';
import { IconCash, IconCreditCard } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { domainCodeOf, errorMessage } from '../../../ui/api-client';
import { FormModal } from '../../../ui/form-modal';
import { formatMoney } from '../../../ui/money';
import { notify } from '../../../ui/notify';
import { useSettleRefund } from '../mutations';

type Method = TSettleRefundRequest['refundMethod'];

const WAYS = [
  { value: 'cash', label: M.refundSettleCash, Icon: IconCash },
  { value: 'card_terminal', label: M.refundSettleTerminal, Icon: IconCreditCard },
] as const;

/** A refund owed at the box office (issue 23), as both the order page and the event page offer it. */
export type OwedRefund = { orderUID: string; refundId: string; amount: number; fullName: string; paymentMethod: string | null };

export type SettleRefundModalProps = {
  owed: OwedRefund | null;
  busy: boolean;
  onClose: () => void;
  onSubmit: (body: TSettleRefundRequest) => void;
};

/**
 * Settles a refund a cancelled event owes a cash or card-terminal order (issue 23): the buyer is paid
 * back at the box office and staff record how, in cash from their open drawer or on the venue's card
 * terminal with its refund reference (required, as the server requires it). Cash is offered first
 * for a cash order, the terminal first for a terminal order.
 */
export function SettleRefundModal({ owed, busy, onClose, onSubmit }: SettleRefundModalProps) {
  const [method, setMethod] = useState<Method>('cash');
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | undefined>();
  // Phones: the two ways stacked, so that neither is cut off.
  const narrow = useMediaQuery('(max-width: 30em)');

  useEffect(() => {
    setMethod(owed?.paymentMethod === 'card_terminal' ? 'card_terminal' : 'cash');
    setReference('');
    setError(undefined);
  }, [owed?.refundId, owed?.paymentMethod]);

  const submit = () => {
    const ref = reference.trim();
    if (method === 'card_terminal' && !ref) return setError(M.refundTerminalReferenceRequired);
    setError(undefined);
    onSubmit(method === 'cash' ? { refundMethod: 'cash' } : { refundMethod: 'card_terminal', terminalReference: ref });
  };

  return (
    <FormModal dirty={reference !== ''} busy={busy} opened={!!owed} onClose={onClose} title={M.refundSettleAction} centered>
      {owed && (
        <Stack gap="md">
          <Text fz="sm">
            Order <b>{owed.orderUID}</b>
            {owed.fullName ? ` · ${owed.fullName}` : ''}: <b>{formatMoney(owed.amount)}</b> {M.refundOwedAtBoxOffice.toLowerCase()}.
          </Text>
          <Alert variant="light" color="gray" p="sm">
            <Text fz="sm">{M.refundSettleHelp}</Text>
          </Alert>
          <SegmentedControl
            aria-label="How the money went back"
            value={method}
            onChange={(v) => setMethod(v as Method)}
            fullWidth
            orientation={narrow ? 'vertical' : 'horizontal'}
            data={WAYS.map(({ value, label, Icon }) => ({
              value,
              label: (
                <Group gap={6} justify="center" wrap="nowrap">
                  <Icon size={16} />
                  <span>{label}</span>
                </Group>
              ),
            }))}
          />
          {method === 'card_terminal' ? (
            <TextInput
              label={M.refundSettleReferenceLabel}
              withAsterisk
              maxLength={100}
              value={reference}
              onChange={(e) => {
                setReference(e.currentTarget.value);
                setError(undefined);
              }}
              error={error}
              data-autofocus
            />
          ) : (
            <Text fz="sm" c="dimmed">
              {formatMoney(owed.amount)} comes out of your open cash drawer and shows on it as a refund.
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button color="red" loading={busy} onClick={submit}>
              {M.refundSettleAction}
            </Button>
          </Group>
        </Stack>
      )}
    </FormModal>
  );
}

// spec §8/§9: toasts 1.5 to 5 s; failures stay the longest.
const ERROR_TOAST_MS = 5000;

/**
 * The settle flow for a page: `open(owed)` shows the dialog; the answer is a toast. Refused because
 * it is no longer owed (REFUND_NOT_OWED: someone settled it meanwhile), the dialog closes and the page
 * reads again; refused for want of an open drawer (DRAWER_NOT_OPEN), it stays open to switch to the
 * terminal. `onSettled` reloads what the page shows (the event's progress).
 */
export function useSettleRefundFlow(tenantId: string, eventId: string, onSettled?: () => void) {
  const settle = useSettleRefund(tenantId, eventId);
  const [owed, setOwed] = useState<OwedRefund | null>(null);
  const submit = (body: TSettleRefundRequest) => {
    if (!owed) return;
    const o = owed;
    settle.mutate(
      { orderUID: o.orderUID, refundId: o.refundId, body },
      {
        onSuccess: (answer) => {
          setOwed(null);
          const how = body.refundMethod === 'cash' ? 'in cash from your drawer' : `on the card terminal, reference ${answer.refund.details.terminalReference ?? body.terminalReference}`;
          notify.success(answer.message || M.refundSettled, `${formatMoney(answer.refund.details.refundAmount)} back to ${o.fullName || `order ${o.orderUID}`} ${how}.`);
          onSettled?.();
        },
        onError: (e) => {
          if (domainCodeOf(e) === 'REFUND_NOT_OWED') {
            setOwed(null);
            onSettled?.();
          }
          notify.error(M.refundSettleFailed, errorMessage(e), { duration: ERROR_TOAST_MS });
        },
      },
    );
  };
  return {
    open: setOwed,
    modal: <SettleRefundModal owed={owed} busy={settle.isPending} onClose={() => setOwed(null)} onSubmit={submit} />,
  };
}
