import { Alert, Anchor, Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { useAllTicketTypes } from '../../ticket-types/queries';
import { useEventSeating, useLayouts, useSetEventSeating } from '../queries';

// Issue 27.1: the event sells seats: it copies one of the tenant's layouts, each category selling
// as one of its ticket types. The copy is refused once a seat is held or sold (SEATING_IN_USE).

export function EventSeatingCard({ tenantId, eventId, disabled }: { tenantId: string; eventId: string; disabled?: boolean }) {
  const seating = useEventSeating(tenantId, eventId);
  const layouts = useLayouts(tenantId);
  const types = useAllTicketTypes(eventId);
  const save = useSetEventSeating(tenantId, eventId);
  const [layoutId, setLayoutId] = useState<string | null>(null);
  const [mapping, setMapping] = useState<Record<string, string | null>>({});
  useEffect(() => {
    if (!seating.data) return;
    setLayoutId(seating.data.layoutId);
    setMapping(Object.fromEntries(seating.data.categories.map((c) => [c.category, c.ticketTypeId])));
  }, [seating.data]);
  const layout = layouts.data?.result.find((l) => l.id === layoutId);
  const categories = [...new Set((layout?.details.sections ?? []).map((s) => s.category))];
  const typeOptions = (types.data ?? []).map((t) => ({ value: t.id, label: t.details.name }));
  const inUse = (seating.data?.held ?? 0) + (seating.data?.sold ?? 0) > 0;

  const apply = async (clear: boolean) => {
    try {
      await save.mutateAsync(clear || !layoutId ? null : { layoutId, categories: categories.map((c) => ({ category: c, ticketTypeId: mapping[c] ?? '' })) });
      notify.success(clear ? 'The event is general admission again' : 'Seating saved');
    } catch (e) {
      notify.error('Could not save the seating', errorMessage(e));
    }
  };

  return (
    <Card withBorder padding="lg" mt="lg" data-testid="event-seating">
      <Stack gap="sm">
        <Title order={4}>Reserved seating</Title>
        <Text fz="sm" c="dimmed">
          Sell seats from one of your <Anchor component={Link} to="/venue-layouts">venue layouts</Anchor>: each category sells as a ticket type. Without a layout the event stays general admission.
        </Text>
        {seating.data?.layoutId && (
          <Text fz="sm">
            {seating.data.layoutName}: {seating.data.seatCount} seats, {seating.data.held} held, {seating.data.sold} sold.
          </Text>
        )}
        {inUse && <Alert color="yellow">Seats are held or sold: the seating plan can no longer change.</Alert>}
        <Select
          label="Venue layout"
          placeholder="General admission (no seats)"
          data={(layouts.data?.result ?? []).map((l) => ({ value: l.id, label: `${l.details.name} (${l.details.seatCount} seats)` }))}
          value={layoutId}
          onChange={setLayoutId}
          clearable
          disabled={disabled || inUse}
        />
        {categories.map((c) => (
          <Select
            key={c}
            label={`“${c}” seats sell as`}
            data={typeOptions}
            value={mapping[c] ?? null}
            onChange={(v) => setMapping((m) => ({ ...m, [c]: v }))}
            disabled={disabled || inUse}
          />
        ))}
        <Group>
          <Button onClick={() => void apply(false)} loading={save.isPending} disabled={disabled || inUse || !layoutId}>
            Save seating
          </Button>
          {seating.data?.layoutId && (
            <Button variant="default" onClick={() => void apply(true)} disabled={disabled || inUse}>
              Back to general admission
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
