import { Alert, Badge, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import { payoutBalancePath, type PayoutLineKind, type TPayoutBalance } from '@marquee/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../ui/api-client';
import { formatMoney } from '../../../ui/money';

// Issue 23 part B (docs/payouts.md "Netting"): cash and card-terminal orders of the box office are
// already with the tenant, so what the platform is owed on them is taken from the next payout.

const METHOD_LABELS: Record<string, string> = { cash: 'Cash', card_terminal: 'Card terminal', complimentary: 'Complimentary', card: 'Card' };
export const paymentMethodLabel = (method: string | null) => (method ? (METHOD_LABELS[method] ?? method) : '—');

/** The badge beside a payout row's Order ID: a refund line, or a netted box-office order (or its refund). */
export function PayoutLineBadge({ kind, paymentMethod, tenantTotal }: { kind: PayoutLineKind; paymentMethod: string | null; tenantTotal: number }) {
  if (kind === 'refund') return <Badge size="xs" color="gray" variant="light">Refund</Badge>;
  if (kind === 'netting')
    return (
      <Badge size="xs" color="orange" variant="light" title="Paid at the box office: the platform's share is netted from the payout">
        {tenantTotal > 0 ? 'Netted refund' : `Netted · ${paymentMethodLabel(paymentMethod)}`}
      </Badge>
    );
  return null;
}

/** What the tenant is due and owes over the lines no payout has taken; a balance owed stands out. */
export function PayoutBalancePanel({ tenantId }: { tenantId: string }) {
  const q = useQuery({
    queryKey: ['payouts', tenantId, 'balance'],
    queryFn: ({ signal }) => api.get<TPayoutBalance>(payoutBalancePath(tenantId), undefined, signal),
    enabled: !!tenantId,
  });
  const b = q.data;
  if (!b || (b.owedToPlatform === 0 && b.dueToTenant === 0)) return null;
  return (
    <Paper withBorder radius="md" p="md" mb="md" data-testid="payout-balance">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>Due on open sales</Text>
          <Text fw={600}>{formatMoney(b.dueToTenant)}</Text>
        </div>
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>Owed to the platform</Text>
          <Text fw={600}>{formatMoney(b.owedToPlatform)}</Text>
          <Text size="xs" c="dimmed">
            Fees on {b.nettingOrders} cash and card-terminal {b.nettingOrders === 1 ? 'order' : 'orders'} and refunds, taken from the next payout
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>{b.balanceOwed > 0 ? 'Balance owed' : 'Next payout (so far)'}</Text>
          <Text fw={700} c={b.balanceOwed > 0 ? 'red' : undefined} data-testid="payout-balance-owed">
            {formatMoney(b.balanceOwed > 0 ? b.balanceOwed : b.balance)}
          </Text>
        </div>
      </SimpleGrid>
      {b.balanceOwed > 0 && (
        <Alert color="orange" mt="sm" p="xs">
          <Group gap={4}>
            <Text size="sm">The fees owed on box-office orders are more than the open sales. Nothing is paid out until new sales cover the balance.</Text>
          </Group>
        </Alert>
      )}
    </Paper>
  );
}
