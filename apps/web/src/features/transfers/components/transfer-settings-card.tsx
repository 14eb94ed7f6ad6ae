import { Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { useTenantId } from '../../../shared/tenant';
import { transfersApi } from '../api';

/**
 * Issue 24: whether buyers may pass their tickets on from their order link (default: allowed). A
 * switch that saves at once: there is nothing else to fill in.
 */
export function TransferSettingsCard({ eventId, disabled }: { eventId: string; disabled?: boolean }) {
  const tenantId = useTenantId();
  const client = useQueryClient();
  const key = ['events', tenantId, eventId, 'transfer-settings'];
  const query = useQuery({ queryKey: key, queryFn: () => transfersApi.settings(tenantId, eventId) });
  const save = useMutation({
    mutationFn: (allowed: boolean) => transfersApi.saveSettings(tenantId, eventId, { allowed }),
    onSuccess: (data) => {
      client.setQueryData(key, data);
      notify.success(
        data.allowed ? 'Transfers allowed' : 'Transfers switched off',
        data.allowed ? 'Buyers can give their tickets to someone else from their order link.' : 'Buyers can no longer give their tickets to someone else.',
      );
    },
    onError: (e) => notify.error('Transfer setting not saved', errorMessage(e)),
  });
  const allowed = save.isPending ? save.variables : (query.data?.allowed ?? true);
  return (
    <Paper withBorder p="lg" radius="md" mt="xl" component="section" aria-labelledby="transfers-title" data-testid="transfer-settings">
      <Stack gap="md">
        <div>
          <Title order={3} id="transfers-title" fz="lg">
            Ticket transfers
          </Title>
          <Text c="dimmed" fz="sm" mt={4}>
            A buyer can give a ticket to someone else from their order link until the event ends. The new holder gets a new QR code by e-mail, and the old code stops working at the door at once. Used, voided and refunded tickets cannot be transferred.
          </Text>
        </div>
        <Switch
          label="Buyers may transfer their tickets"
          checked={allowed}
          disabled={disabled || query.isPending || save.isPending}
          onChange={(e) => save.mutate(e.currentTarget.checked)}
          data-testid="transfers-allowed"
        />
      </Stack>
    </Paper>
  );
}
