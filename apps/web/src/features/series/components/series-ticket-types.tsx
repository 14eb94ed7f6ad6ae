import { Alert, Button, Card, Group, List, NumberInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { M, type TSeries, type TSeriesTicketTypeUpdate } from '@marquee/core';
import { IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage, isApiError } from '../../../ui/api-client';
import { FormModal } from '../../../ui/form-modal';
import { formatMoney, toCents } from '../../../ui/money';
import { notify } from '../../../ui/notify';
import { useUpdateSeriesTicketType } from '../queries';

type SeriesTicketType = TSeries['details']['ticketTypes'][number];
type Form = { id: string; name: string; price: string | number; quantity: string | number };

/**
 * Issue 28: the series' ticket types, set once for every date, each with an edit that applies to
 * every date not cancelled or over whose own value was not changed (the server decides, field by
 * field). A date that sold more than a new quantity keeps its own; the server names those dates.
 */
export function SeriesTicketTypes({ tenantId, series }: { tenantId: string; series: TSeries }) {
  const update = useUpdateSeriesTicketType(tenantId, series.id);
  const [form, setForm] = useState<Form | null>(null);
  const [original, setOriginal] = useState<SeriesTicketType | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [kept, setKept] = useState<TSeriesTicketTypeUpdate['kept']>([]);
  const types = series.details.ticketTypes;
  const firstDate = series.details.dates.find((d) => d.status !== 'cancelled') ?? series.details.dates[0];

  const open = (t: SeriesTicketType) => {
    setErrors({});
    setKept([]);
    setOriginal(t);
    setForm({ id: t.id, name: t.name, price: t.price / 100, quantity: t.quantity });
  };
  const dirty = !!form && !!original && (form.name !== original.name || toCents(String(form.price)) !== original.price || Number(form.quantity) !== original.quantity);

  const save = async () => {
    if (!form || !original) return;
    const price = toCents(String(form.price));
    const quantity = Number(form.quantity);
    const local: Record<string, string> = {};
    if (!form.name.trim()) local['details.name'] = M.invalidValue;
    if (price === null || price < 0) local['details.price'] = M.invalidValue;
    if (!Number.isInteger(quantity) || quantity < 1) local['details.quantity'] = M.invalidValue;
    setErrors(local);
    if (Object.keys(local).length) return;
    // Only what changed: a field left as it was does not overwrite a date's own value.
    const details: Record<string, string | number> = {};
    if (form.name.trim() !== original.name) details.name = form.name.trim();
    if (price !== original.price) details.price = price!;
    if (quantity !== original.quantity) details.quantity = quantity;
    if (Object.keys(details).length === 0) {
      setForm(null);
      return;
    }
    try {
      const res = await update.mutateAsync({ ticketTypeId: form.id, body: { details } });
      notify.success(M.seriesTicketTypeSaved);
      setKept(res.kept);
      const saved = res.details.ticketTypes.find((t) => t.id === form.id);
      if (saved) setOriginal(saved);
      // The dates that kept their own quantity stay on screen; otherwise the dialog is done.
      if (res.kept.length === 0) setForm(null);
    } catch (e) {
      setErrors(isApiError(e) && Object.keys(e.fields).length ? e.fields : { form: errorMessage(e) });
    }
  };

  return (
    <>
      <Title order={3} fz="lg" mb="xs">
        Ticket types
      </Title>
      <Text fz="sm" c="dimmed" mb="sm">
        Set once for the whole series. A change applies to every date not cancelled or over, except where a date’s own value was changed on its event page.
      </Text>
      <Card withBorder radius="md" padding={0} mb="lg">
        <Table verticalSpacing="sm" horizontalSpacing="md" data-testid="series-ticket-types">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th ta="right">Price</Table.Th>
              <Table.Th ta="right">Per date</Table.Th>
              <Table.Th w={1} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {types.map((t) => (
              <Table.Tr key={t.id}>
                <Table.Td fw={600}>{t.name}</Table.Td>
                <Table.Td ta="right">{formatMoney(t.price)}</Table.Td>
                <Table.Td ta="right">{t.quantity}</Table.Td>
                <Table.Td>
                  <Button size="xs" variant="light" leftSection={<IconPencil size={14} />} onClick={() => open(t)} aria-label={`Edit ${t.name}`}>
                    Edit
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>

      <FormModal opened={!!form} onClose={() => setForm(null)} title={original ? `Edit ${original.name} for the series` : 'Edit ticket type'} dirty={dirty && kept.length === 0} busy={update.isPending}>
        {form && (
          <Stack>
            <TextInput label="Name" value={form.name} onChange={(e) => setForm({ ...form, name: e.currentTarget.value })} error={errors['details.name']} />
            <Group grow align="flex-start">
              <NumberInput label="Price ($)" min={0} decimalScale={2} fixedDecimalScale value={form.price} onChange={(v) => setForm({ ...form, price: v })} error={errors['details.price']} />
              <NumberInput label="Quantity per date" min={1} allowDecimal={false} value={form.quantity} onChange={(v) => setForm({ ...form, quantity: v })} error={errors['details.quantity']} />
            </Group>
            <Text fz="sm" c="dimmed">
              To change one date only, edit its ticket types on that date’s event page
              {firstDate && (
                <>
                  {' '}
                  (for example{' '}
                  <Link to={`/events/${firstDate.eventId}/ticket-types`} onClick={() => setForm(null)}>
                    the first date’s ticket types
                  </Link>
                  )
                </>
              )}
              .
            </Text>
            {kept.length > 0 && (
              <Alert color="yellow" title="Saved. These dates kept their own quantity" data-testid="series-kept">
                <List size="sm" spacing={4}>
                  {kept.map((k) => (
                    <List.Item key={k.eventId}>
                      <Link to={`/events/${k.eventId}/ticket-types`}>{k.name}</Link>: {k.message} ({k.soldOrHeld} sold or held)
                    </List.Item>
                  ))}
                </List>
              </Alert>
            )}
            {errors.form && <Alert color="red">{errors.form}</Alert>}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setForm(null)}>
                Close
              </Button>
              <Button onClick={save} loading={update.isPending}>
                Save for all dates
              </Button>
            </Group>
          </Stack>
        )}
      </FormModal>
    </>
  );
}
