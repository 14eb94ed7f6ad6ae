import { Badge, Button, Group, NumberInput, Paper, SimpleGrid, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { isEventWritable, type TEvent, type TWaitlistEntry, type TWaitlistState } from '@marquee/core';
import { IconDownload, IconSend, IconTrash } from '@tabler/icons-react';
import { useEffect } from 'react';
import { errorMessage, isApiError } from '../../../ui/api-client';
import { askConfirmDelete } from '../../../ui/confirm-delete';
import { EmptyState } from '../../../ui/empty-state';
import { notify } from '../../../ui/notify';
import { formatInZone } from '../../../ui/time';
import { useEventAccess } from '../../../shared/access';
import { useTenantId } from '../../../shared/tenant';
import { waitlistExportUrl } from '../api';
import { useWaitlist, useWaitlistActions } from '../queries';

const STATE: Record<TWaitlistState, { label: string; color: string }> = {
  waiting: { label: 'Waiting', color: 'blue' },
  offered: { label: 'Offered', color: 'orange' },
  claimed: { label: 'Bought', color: 'teal' },
  expired: { label: 'Expired', color: 'gray' },
  removed: { label: 'Removed', color: 'red' },
};

function Stat({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={24} fw={700} data-testid={testId}>
        {value.toLocaleString('en-US')}
      </Text>
    </Paper>
  );
}

/**
 * Issue 24: the event's waiting list for sold-out tickets. People join from the ticket menu when a
 * ticket type sells out; tickets that come back are offered to them in join order, each by a timed
 * claim link. The organiser sees who is where, offers by hand, removes, exports, and turns it off.
 */
export function WaitlistPanel({ event }: { event: TEvent }) {
  const tenantId = useTenantId();
  const list = useWaitlist(event.id);
  const { save, offer, remove } = useWaitlistActions(event.id);
  const { canEditEvent } = useEventAccess(event.tenantId, event.id);
  const readOnly = !isEventWritable(event.details.status) || !canEditEvent;
  const zone = event.details.timeZone;
  const form = useForm({ initialValues: { enabled: true, offerMinutes: 60 as number | string } });
  const settings = list.data?.settings;
  useEffect(() => {
    if (!settings) return;
    form.setInitialValues(settings);
    form.setValues(settings);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings?.enabled, settings?.offerMinutes]);

  const submit = form.onSubmit(async (v) => {
    try {
      const saved = await save.mutateAsync({ enabled: v.enabled, offerMinutes: Number(v.offerMinutes) });
      notify.success('Waiting list saved', saved.settings.enabled ? `Offers hold tickets for ${saved.settings.offerMinutes} minutes.` : 'The waiting list is off.');
    } catch (e) {
      if (isApiError(e) && e.fields.offerMinutes) form.setFieldError('offerMinutes', e.fields.offerMinutes);
      else notify.error('Waiting list not saved', errorMessage(e));
    }
  });

  const offerNow = (entry: TWaitlistEntry) =>
    offer.mutate(entry.id, {
      onSuccess: (r) => notify.success(r.message, `${entry.email} has been e-mailed a claim link.`),
      onError: (e) => notify.error('No offer sent', errorMessage(e)),
    });
  const removeNow = async (entry: TWaitlistEntry) => {
    const ok = await askConfirmDelete({
      title: 'Remove from the waiting list',
      message: entry.state === 'offered' ? `Remove ${entry.email}? Their offer is withdrawn and goes to the next person.` : `Remove ${entry.email} from the waiting list?`,
      confirmLabel: 'Remove',
    });
    if (!ok) return;
    remove.mutate(entry.id, {
      onSuccess: (r) => notify.success(r.message, entry.email),
      onError: (e) => notify.error('Could not remove', errorMessage(e)),
    });
  };

  const entries = list.data?.entries ?? [];
  const counts = list.data?.counts ?? { joined: 0, waiting: 0, offered: 0, bought: 0 };

  return (
    <Stack gap="lg" data-testid="waitlist-panel">
      <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="waitlist-title">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <div>
              <Title order={3} id="waitlist-title" fz="lg">
                Waiting list
              </Title>
              <Text c="dimmed" fz="sm" mt={4}>
                When a ticket type sells out, attendees can join its waiting list. Tickets that come back (an expired hold, a refund, a void, more capacity) are offered in join order: each person gets
                a claim link that holds the tickets for them until it expires, then the next person is offered.
              </Text>
            </div>
            <Group align="flex-end" gap="lg" wrap="wrap">
              <Switch label="Offer a waiting list when tickets sell out" disabled={readOnly} {...form.getInputProps('enabled', { type: 'checkbox' })} data-testid="waitlist-enabled" />
              <NumberInput
                label="Time to claim an offer (minutes)"
                min={5}
                max={10080}
                allowDecimal={false}
                disabled={readOnly || !form.values.enabled}
                w={240}
                {...form.getInputProps('offerMinutes')}
                data-testid="waitlist-offer-minutes"
              />
              <Button type="submit" loading={save.isPending} disabled={readOnly || !form.isDirty()} data-testid="waitlist-save">
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <Stat label="Joined" value={counts.joined} testId="waitlist-count-joined" />
        <Stat label="Waiting" value={counts.waiting} testId="waitlist-count-waiting" />
        <Stat label="Offered" value={counts.offered} testId="waitlist-count-offered" />
        <Stat label="Bought" value={counts.bought} testId="waitlist-count-bought" />
      </SimpleGrid>

      <Group justify="space-between" wrap="wrap">
        <Title order={4} fz="md">
          People on the list
        </Title>
        {/* With nobody on the list there is nothing to export: no button (a disabled link is still a link to axe). */}
        {entries.length > 0 && (
          <Button component="a" href={waitlistExportUrl(tenantId, event.id)} variant="default" leftSection={<IconDownload size={16} />} data-testid="waitlist-export">
            Export CSV
          </Button>
        )}
      </Group>

      {list.isError ? (
        <Text c="red">{errorMessage(list.error)}</Text>
      ) : entries.length === 0 && !list.isPending ? (
        <EmptyState title="Nobody on the waiting list yet" description="People can join from the ticket menu once a ticket type is sold out." />
      ) : (
        <Table.ScrollContainer minWidth={340}>
          <Table verticalSpacing="sm" striped highlightOnHover data-testid="waitlist-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={48}>#</Table.Th>
                <Table.Th>Person</Table.Th>
                <Table.Th visibleFrom="sm">Ticket type</Table.Th>
                <Table.Th visibleFrom="sm">Joined</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th w={1} aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((e) => (
                <Table.Tr key={e.id} data-testid={`waitlist-row-${e.email}`}>
                  <Table.Td>
                    <Text fz="sm">{e.position}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text fz="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                      {e.email}
                    </Text>
                    <Text fz="xs" c="dimmed">
                      {e.quantity} ticket{e.quantity === 1 ? '' : 's'}
                      <Text span hiddenFrom="sm" fz="xs">
                        {' · '}
                        {e.ticketTypeName}
                      </Text>
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text fz="sm">{e.ticketTypeName}</Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text fz="sm">{formatInZone(e.joinedAt, zone, { withWeekday: false })}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATE[e.state].color} variant="light" radius="sm" data-testid={`waitlist-state-${e.email}`}>
                      {STATE[e.state].label}
                    </Badge>
                    {e.state === 'offered' && e.offerExpiresAt && (
                      <Text fz="xs" c="dimmed" mt={2}>
                        {e.offeredQuantity} held until {formatInZone(e.offerExpiresAt, zone, { withWeekday: false })}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap" justify="flex-end">
                      {e.state === 'waiting' && (
                        <Button size="compact-sm" variant="light" leftSection={<IconSend size={14} />} disabled={readOnly} loading={offer.isPending && offer.variables === e.id} onClick={() => offerNow(e)}>
                          Offer
                        </Button>
                      )}
                      {(e.state === 'waiting' || e.state === 'offered') && (
                        <Button size="compact-sm" variant="subtle" color="red" aria-label={`Remove ${e.email}`} disabled={readOnly} onClick={() => void removeNow(e)}>
                          <IconTrash size={16} />
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
