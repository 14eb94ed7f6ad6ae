import { Alert, Anchor, Badge, Button, Card, Group, Loader, Menu, ActionIcon, Progress, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { M, type TSeriesDate } from '@marquee/core';
import { IconCalendarPlus, IconDots, IconDownload, IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useIsTenantAdmin } from '../../../shared/access';
import { useTenantId } from '../../../shared/tenant';
import { errorMessage, isApiError, isNotFound } from '../../../ui/api-client';
import { FormModal } from '../../../ui/form-modal';
import { formatMoney } from '../../../ui/money';
import { NoPageAccess } from '../../../ui/no-page-access';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { seriesExportUrl } from '../api';
import { useAddSeriesDate, useCancelSeriesDate, useMoveSeriesDate, useSeries } from '../queries';
import { SeriesTicketTypes } from './series-ticket-types';

const STATUS: Record<TSeriesDate['status'], { label: string; color: string }> = {
  published: { label: 'On sale', color: 'green' },
  draft: { label: 'Draft', color: 'gray' },
  cancelled: { label: 'Cancelled', color: 'red' },
};

/** The local date and time fields of an instant in the series' zone (for the move form). */
function wallOf(iso: string | null, timeZone: string) {
  if (!iso) return { date: '', time: '' };
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

type DateForm = { eventId: string | null; date: string; startTime: string; endTime: string };

/** Issue 28: one series: each date with what it sold and has left, the whole series' sums, and add / move / cancel one date. */
export function SeriesDetailPage() {
  const tenantId = useTenantId();
  const admin = useIsTenantAdmin(tenantId);
  const { seriesId = '' } = useParams();
  const query = useSeries(tenantId, seriesId);
  const add = useAddSeriesDate(tenantId, seriesId);
  const move = useMoveSeriesDate(tenantId, seriesId);
  const cancel = useCancelSeriesDate(tenantId, seriesId);
  const [form, setForm] = useState<DateForm | null>(null);
  const [formErrors, setFormErrors] = useState<Record<string, string>>({});
  const [cancelling, setCancelling] = useState<TSeriesDate | null>(null);
  const [cancelMessage, setCancelMessage] = useState('');

  if (!admin) return <NoPageAccess />;
  if (query.isPending) return <Loader m="xl" />;
  if (query.isError) return <Alert color="red">{isNotFound(query.error) ? 'This series does not exist.' : errorMessage(query.error)}</Alert>;
  const s = query.data.details;
  const tz = s.timeZone;
  const day = new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
  const time = new Intl.DateTimeFormat('en-US', { timeZone: tz, hour: 'numeric', minute: '2-digit' });

  const saveDate = async () => {
    if (!form) return;
    setFormErrors({});
    const body = { details: { date: form.date, startTime: form.startTime, endTime: form.endTime } };
    try {
      if (form.eventId) {
        await move.mutateAsync({ eventId: form.eventId, body });
        notify.success(M.seriesDateMoved);
      } else {
        await add.mutateAsync(body);
        notify.success(M.seriesDateAdded);
      }
      setForm(null);
    } catch (e) {
      setFormErrors(isApiError(e) && Object.keys(e.fields).length ? e.fields : { form: errorMessage(e) });
    }
  };
  const confirmCancel = async () => {
    if (!cancelling) return;
    try {
      await cancel.mutateAsync({ eventId: cancelling.eventId, message: cancelMessage.trim() || undefined });
      notify.success(M.seriesDateCancelled);
      setCancelling(null);
      setCancelMessage('');
    } catch (e) {
      notify.error('The date was not cancelled', errorMessage(e));
    }
  };
  const err = (k: string) => formErrors[`details.${k}`];
  const first = s.dates[0];

  return (
    <>
      <PageHeader
        title={s.name}
        breadcrumbs={[{ label: 'Event series', to: '/event-series' }, { label: s.name }]}
        description={
          <>
            {s.venueName ? `${s.venueName} · ` : ''}
            {s.ticketTypes.map((t) => `${t.name} ${formatMoney(t.price)}`).join(' · ')}
          </>
        }
        actions={
          <Group gap="xs">
            <Button variant="default" component="a" href={`/series/${s.urlName}`} target="_blank" rightSection={<IconExternalLink size={14} />}>
              Public page
            </Button>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button variant="default" leftSection={<IconDownload size={16} />}>
                  Export
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>The whole series, every date</Menu.Label>
                <Menu.Item component="a" href={seriesExportUrl(tenantId, seriesId, 'orders')} download data-testid="export-series-orders">
                  Orders (CSV)
                </Menu.Item>
                <Menu.Item component="a" href={seriesExportUrl(tenantId, seriesId, 'tickets')} download data-testid="export-series-tickets">
                  Tickets (CSV)
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
            <Button
              leftSection={<IconCalendarPlus size={16} />}
              onClick={() => {
                const w = wallOf(first?.startDateTime ?? null, tz);
                const e = wallOf(first?.endDateTime ?? null, tz);
                setFormErrors({});
                setForm({ eventId: null, date: '', startTime: w.time || '19:00', endTime: e.time || '21:00' });
              }}
            >
              Add date
            </Button>
          </Group>
        }
      />
      <SimpleGrid cols={{ base: 2, sm: 4 }} mb="lg">
        {[
          ['Dates', String(s.totals.dates)],
          ['Tickets sold', String(s.totals.sold)],
          ['Left to sell', s.totals.left === null ? 'No limit' : String(s.totals.left)],
          ['Gross sales', formatMoney(s.totals.grossSales)],
        ].map(([label, value]) => (
          <Card key={label} withBorder radius="md" padding="sm">
            <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
              {label}
            </Text>
            <Text fz="xl" fw={700}>
              {value}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <SeriesTicketTypes tenantId={tenantId} series={query.data} />
      <Title order={3} fz="lg" mb="sm">
        Dates
      </Title>
      <Stack gap="xs">
        {s.dates.map((d) => {
          const start = d.startDateTime ? new Date(d.startDateTime) : null;
          const total = d.left === null ? null : d.sold + d.left;
          return (
            <Card key={d.eventId} withBorder radius="md" padding="sm" data-testid="series-date">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
                  <Group gap="xs">
                    <Anchor component={Link} to={`/events/${d.eventId}`} fw={600}>
                      {start ? day.format(start) : 'Date to be announced'}
                    </Anchor>
                    <Text fz="sm" c="dimmed">
                      {start ? time.format(start) : ''}
                      {d.endDateTime ? ` – ${time.format(new Date(d.endDateTime))}` : ''}
                    </Text>
                    <Badge size="sm" variant="light" color={STATUS[d.status].color}>
                      {STATUS[d.status].label}
                    </Badge>
                    {d.soldOut && d.status !== 'cancelled' && (
                      <Badge size="sm" color="red">
                        Sold out
                      </Badge>
                    )}
                  </Group>
                  <Group gap="md">
                    <Text fz="sm">
                      <b>{d.sold}</b> sold
                    </Text>
                    <Text fz="sm">{d.left === null ? 'No limit' : <><b>{d.left}</b> left</>}</Text>
                    <Text fz="sm" c="dimmed">
                      {formatMoney(d.grossSales)}
                    </Text>
                  </Group>
                  {total !== null && total > 0 && <Progress value={(100 * d.sold) / total} size="sm" maw={320} aria-label={`${d.sold} of ${total} sold`} />}
                </Stack>
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" aria-label={`Actions for ${d.name}`}>
                      <IconDots size={18} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item component={Link} to={`/events/${d.eventId}`}>
                      Event page
                    </Menu.Item>
                    <Menu.Item component={Link} to={`/events/${d.eventId}/ticket-types`}>
                      Ticket types of this date
                    </Menu.Item>
                    <Menu.Item component={Link} to={`/reports/sales/event/${d.eventId}`}>
                      Sales report
                    </Menu.Item>
                    <Menu.Item component={Link} to={`/events/${d.eventId}/check-in`}>
                      Check-in
                    </Menu.Item>
                    <Menu.Item component="a" href={`/${d.urlName}/`} target="_blank">
                      Ticket page
                    </Menu.Item>
                    {d.status !== 'cancelled' && (
                      <>
                        <Menu.Divider />
                        <Menu.Item
                          onClick={() => {
                            const w = wallOf(d.startDateTime, tz);
                            const e = wallOf(d.endDateTime, tz);
                            setFormErrors({});
                            setForm({ eventId: d.eventId, date: w.date, startTime: w.time, endTime: e.time });
                          }}
                        >
                          Move date
                        </Menu.Item>
                        <Menu.Item color="red" onClick={() => setCancelling(d)}>
                          Cancel date
                        </Menu.Item>
                      </>
                    )}
                  </Menu.Dropdown>
                </Menu>
              </Group>
            </Card>
          );
        })}
      </Stack>

      <FormModal opened={!!form} onClose={() => setForm(null)} title={form?.eventId ? 'Move date' : 'Add date'} dirty={false} busy={add.isPending || move.isPending}>
        {form && (
          <Stack>
            {form.eventId && <Text fz="sm">Its buyers are mailed the new time. Their tickets stay valid.</Text>}
            <TextInput type="date" label="Date" value={form.date} onChange={(e) => setForm({ ...form, date: e.currentTarget.value })} error={err('date')} />
            <Group grow>
              <TextInput type="time" label="Starts" value={form.startTime} onChange={(e) => setForm({ ...form, startTime: e.currentTarget.value })} error={err('startTime')} />
              <TextInput type="time" label="Ends" value={form.endTime} onChange={(e) => setForm({ ...form, endTime: e.currentTarget.value })} error={err('endTime')} />
            </Group>
            {formErrors.form && <Alert color="red">{formErrors.form}</Alert>}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setForm(null)}>
                Close
              </Button>
              <Button onClick={saveDate} loading={add.isPending || move.isPending}>
                {form.eventId ? 'Move date' : 'Add date'}
              </Button>
            </Group>
          </Stack>
        )}
      </FormModal>

      <FormModal opened={!!cancelling} onClose={() => setCancelling(null)} title="Cancel this date" dirty={!!cancelMessage.trim()} busy={cancel.isPending}>
        {cancelling && (
          <Stack>
            <Text fz="sm">
              {cancelling.name}: every paid order of this date is refunded and its buyers are told. The other dates are not affected. This cannot be undone.
            </Text>
            <Textarea label="Message to the buyers (optional)" value={cancelMessage} onChange={(e) => setCancelMessage(e.currentTarget.value)} autosize minRows={2} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setCancelling(null)}>
                Keep date
              </Button>
              <Button color="red" onClick={confirmCancel} loading={cancel.isPending}>
                Cancel date
              </Button>
            </Group>
          </Stack>
        )}
      </FormModal>
    </>
  );
}
