import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { M, PLATFORM_WRITE, payoutHoldToast, type OrderPayoutState } from '@marquee/core';
import { useState } from 'react';
import { useSiteContext } from '../../../shared/site-context';
import { notify } from '../../../ui/notify';
import { hasPlatformRole, useSession } from '../../../ui/session';
import { payoutsApi } from '../api';
import { FormModal } from '../../../ui/form-modal';

// spec: reports-payouts-checkout §2 Order detail page (payout hold action), §4 Hold toggle: a
// submitted notice shows and the page refreshes after about 3 seconds; §8 'Failed to Hold Payout.'
const ORDER_PAGE_REFRESH_MS = 3000;

export function OrderPayoutHold(p: { tenantId: string; eventId: string; orderUID: string; state: OrderPayoutState; onRefresh: () => void }) {
  const context = useSiteContext();
  const { memberships } = useSession();
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [submitted, setSubmitted] = useState<string | null>(null);
  // Only the platform's operators who may change things hold or release (spec §6).
  if (context.mode !== 'platform' || !hasPlatformRole(memberships, PLATFORM_WRITE) || p.state === 'Payout Completed') return null;
  const held = p.state === 'Payout On Hold';

  const submit = async () => {
    setBusy(true);
    try {
      await payoutsApi.hold(p.tenantId, { orderId: p.orderUID, eventId: p.eventId, message, hold: !held });
      setOpen(false);
      setSubmitted(payoutHoldToast(p.orderUID, !held));
      notify.success(M.requestSubmitted, payoutHoldToast(p.orderUID, !held));
      setTimeout(() => {
        setSubmitted(null);
        p.onRefresh();
      }, ORDER_PAGE_REFRESH_MS);
    } catch {
      notify.error(M.holdPayoutFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button size="xs" variant="light" color={held ? 'teal' : 'red'} onClick={() => setOpen(true)} disabled={!!submitted}>
        {held ? 'Release Payout' : 'Hold Payout'}
      </Button>
      {submitted && (
        <Text span fz="sm" c="blue" role="status">
          {M.requestSubmitted}: {submitted}
        </Text>
      )}
      <FormModal dirty={message !== ''} busy={busy} opened={open} onClose={() => setOpen(false)} title={held ? 'Release payout' : 'Hold payout'} centered>
        <Stack>
          <Textarea label="Message" description="Why (kept with the hold record)" maxLength={500} autosize minRows={2} value={message} onChange={(e) => setMessage(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button color={held ? 'teal' : 'red'} loading={busy} onClick={() => void submit()}>
              {held ? 'Release' : 'Hold'}
            </Button>
          </Group>
        </Stack>
      </FormModal>
    </>
  );
}
