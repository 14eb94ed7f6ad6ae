import { ActionIcon, Alert, Button, Card, Checkbox, Chip, Group, NumberInput, SegmentedControl, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { expandSchedule, M, SERIES_MAX_DATES, WEEKDAY_LABELS, type TSchedule } from '@marquee/core';
import { IconInfoCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useIsTenantAdmin } from '../../../shared/access';
import { useTenantId } from '../../../shared/tenant';
import { errorMessage, isApiError } from '../../../ui/api-client';
import { NoPageAccess } from '../../../ui/no-page-access';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { defaultEventTimeZone, US_TIME_ZONES } from '../../../ui/time';
import { useCreateSeries } from '../queries';

type TypeRow = { name: string; price: number | string; quantity: number | string };

const today = () => new Date().toISOString().slice(0, 10);

/** Issue 28: a new series: its dates (a list or a weekly rule), their times, timed-entry slots, and the ticket types every date gets. */
export function SeriesEditorPage() {
  const tenantId = useTenantId();
  const admin = useIsTenantAdmin(tenantId);
  const navigate = useNavigate();
  const create = useCreateSeries(tenantId);
  const [name, setName] = useState('');
  const [timeZone, setTimeZone] = useState(defaultEventTimeZone());
  const [venueName, setVenueName] = useState('');
  const [capacity, setCapacity] = useState<number | string>('');
  const [mode, setMode] = useState<'weekly' | 'dates'>('weekly');
  const [startDate, setStartDate] = useState(today());
  const [weekdays, setWeekdays] = useState<string[]>(['2']);
  const [ends, setEnds] = useState<'count' | 'until'>('count');
  const [count, setCount] = useState<number | string>(6);
  const [until, setUntil] = useState('');
  const [dates, setDates] = useState<string[]>([today()]);
  const [startTime, setStartTime] = useState('19:00');
  const [endTime, setEndTime] = useState('21:00');
  const [slotsOn, setSlotsOn] = useState(false);
  const [every, setEvery] = useState<number | string>(30);
  const [types, setTypes] = useState<TypeRow[]>([{ name: 'General admission', price: 25, quantity: 50 }]);
  const [publish, setPublish] = useState(true);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const schedule: TSchedule = useMemo(
    () => ({
      ...(mode === 'weekly'
        ? { weekly: { startDate, weekdays: weekdays.map(Number), ...(ends === 'count' ? { count: Number(count) || 0 } : { until }) } }
        : { dates: dates.filter(Boolean) }),
      startTime,
      endTime,
      slots: slotsOn ? { everyMinutes: Number(every) || 0 } : null,
    }),
    [mode, startDate, weekdays, ends, count, until, dates, startTime, endTime, slotsOn, every],
  );
  // The same expansion the server does, for the preview; the server decides.
  const preview = useMemo(() => {
    try {
      return expandSchedule(schedule, timeZone);
    } catch {
      return null;
    }
  }, [schedule, timeZone]);

  if (!admin) return <NoPageAccess />;

  const submit = async () => {
    setFieldErrors({});
    setFormError(null);
    try {
      const series = await create.mutateAsync({
        details: {
          name,
          timeZone,
          venueName,
          capacity: capacity === '' ? null : Number(capacity),
          ticketTypes: types.map((t) => ({ name: t.name, price: Math.round(Number(t.price) * 100), quantity: Number(t.quantity) })),
          schedule,
          publish,
        },
      });
      notify.success(M.seriesCreated);
      navigate(`/event-series/${series.id}`);
    } catch (e) {
      setFieldErrors(isApiError(e) ? e.fields : {});
      setFormError(errorMessage(e));
    }
  };

  const f = (key: string) => fieldErrors[`details.${key}`];
  const occurrences = preview && 'occurrences' in preview ? preview.occurrences : [];
  const problem = preview && 'problem' in preview ? preview.problem.message : null;
  const fmt = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

  return (
    <>
      <PageHeader title="New event series" description="Set the ticket types once; every date gets a copy with its own capacity. You can add, move or cancel single dates later." />
      <Stack gap="lg" maw={880}>
        <Card withBorder radius="md" padding="lg">
          <Title order={3} fz="lg" mb="sm">
            Series
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={f('name') ?? f('urlName')} />
            <Select label="Time zone" data={US_TIME_ZONES} value={timeZone} onChange={(v) => v && setTimeZone(v)} searchable allowDeselect={false} error={f('timeZone')} />
            <TextInput label="Venue" value={venueName} onChange={(e) => setVenueName(e.currentTarget.value)} />
            <NumberInput label="Capacity per date (or slot)" description="Leave empty to use the ticket quantities" min={1} value={capacity} onChange={setCapacity} error={f('capacity')} />
          </SimpleGrid>
        </Card>

        <Card withBorder radius="md" padding="lg">
          <Title order={3} fz="lg" mb="sm">
            Dates
          </Title>
          <Stack gap="md">
            <SegmentedControl
              value={mode}
              onChange={(v) => setMode(v as 'weekly' | 'dates')}
              data={[
                { value: 'weekly', label: 'Repeats weekly' },
                { value: 'dates', label: 'List of dates' },
              ]}
            />
            {mode === 'weekly' ? (
              <Stack gap="sm">
                <TextInput type="date" label="First day" value={startDate} onChange={(e) => setStartDate(e.currentTarget.value)} maw={220} />
                <div>
                  <Text fz="sm" fw={500} mb={6}>
                    On
                  </Text>
                  <Chip.Group multiple value={weekdays} onChange={setWeekdays}>
                    <Group gap={6}>
                      {WEEKDAY_LABELS.map((label, i) => (
                        <Chip key={label} value={String(i + 1)} size="sm">
                          {label}
                        </Chip>
                      ))}
                    </Group>
                  </Chip.Group>
                </div>
                <Group align="flex-end" gap="sm">
                  <SegmentedControl
                    value={ends}
                    onChange={(v) => setEnds(v as 'count' | 'until')}
                    data={[
                      { value: 'count', label: 'Number of dates' },
                      { value: 'until', label: 'Until a date' },
                    ]}
                  />
                  {ends === 'count' ? (
                    <NumberInput aria-label="Number of dates" min={1} max={SERIES_MAX_DATES} value={count} onChange={setCount} w={120} />
                  ) : (
                    <TextInput aria-label="Last day" type="date" value={until} onChange={(e) => setUntil(e.currentTarget.value)} w={180} />
                  )}
                </Group>
              </Stack>
            ) : (
              <Stack gap="xs">
                {dates.map((d, i) => (
                  <Group key={i} gap="xs">
                    <TextInput type="date" aria-label={`Date ${i + 1}`} value={d} onChange={(e) => setDates(dates.map((x, j) => (j === i ? e.currentTarget.value : x)))} w={200} />
                    <ActionIcon variant="subtle" color="red" aria-label={`Remove date ${i + 1}`} onClick={() => setDates(dates.filter((_, j) => j !== i))} disabled={dates.length === 1}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                ))}
                <Button variant="light" size="xs" w="fit-content" leftSection={<IconPlus size={14} />} onClick={() => setDates([...dates, ''])}>
                  Add a date
                </Button>
              </Stack>
            )}
            <Group gap="sm" align="flex-start">
              <TextInput type="time" label="Starts" value={startTime} onChange={(e) => setStartTime(e.currentTarget.value)} w={140} />
              <TextInput type="time" label="Ends" value={endTime} onChange={(e) => setEndTime(e.currentTarget.value)} w={140} error={f('schedule.endTime')} />
            </Group>
            <Switch label="Timed entry: split each day into slots" checked={slotsOn} onChange={(e) => setSlotsOn(e.currentTarget.checked)} />
            {slotsOn && (
              <NumberInput label="A slot every (minutes)" description="Each slot is its own date with the capacity above" min={1} value={every} onChange={setEvery} w={220} error={f('schedule.slots.everyMinutes')} />
            )}
            <Alert variant="light" color={problem ? 'orange' : 'blue'} icon={<IconInfoCircle size={18} />} title={problem ? 'Check the dates' : `${occurrences.length} ${occurrences.length === 1 ? 'date' : 'dates'}`}>
              {problem ??
                (occurrences.length > 0 &&
                  `${occurrences
                    .slice(0, 4)
                    .map((o) => fmt.format(o.start))
                    .join(' · ')}${occurrences.length > 4 ? ` … ${fmt.format(occurrences.at(-1)!.start)}` : ''}`)}
            </Alert>
          </Stack>
        </Card>

        <Card withBorder radius="md" padding="lg">
          <Title order={3} fz="lg" mb={4}>
            Ticket types
          </Title>
          <Text fz="sm" c="dimmed" mb="sm">
            Copied to every date. A date’s own ticket types can be changed on its event page.
          </Text>
          <Stack gap="sm">
            {types.map((t, i) => (
              <Group key={i} gap="xs" align="flex-end" wrap="wrap">
                <TextInput label={i === 0 ? 'Name' : undefined} aria-label={`Ticket type ${i + 1} name`} value={t.name} onChange={(e) => setTypes(types.map((x, j) => (j === i ? { ...x, name: e.currentTarget.value } : x)))} style={{ flex: '1 1 180px' }} />
                <NumberInput label={i === 0 ? 'Price ($)' : undefined} aria-label={`Ticket type ${i + 1} price`} min={0} decimalScale={2} value={t.price} onChange={(v) => setTypes(types.map((x, j) => (j === i ? { ...x, price: v } : x)))} w={110} />
                <NumberInput label={i === 0 ? 'Per date' : undefined} aria-label={`Ticket type ${i + 1} quantity`} min={1} value={t.quantity} onChange={(v) => setTypes(types.map((x, j) => (j === i ? { ...x, quantity: v } : x)))} w={100} />
                <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove ticket type ${i + 1}`} onClick={() => setTypes(types.filter((_, j) => j !== i))} disabled={types.length === 1}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
            <Button variant="light" size="xs" w="fit-content" leftSection={<IconPlus size={14} />} onClick={() => setTypes([...types, { name: '', price: 0, quantity: 10 }])}>
              Add a ticket type
            </Button>
          </Stack>
        </Card>

        {formError && (
          <Alert color="red" variant="light" title="The series was not created">
            {formError}
          </Alert>
        )}
        <Group justify="space-between">
          <Checkbox label="Put every date on sale now" checked={publish} onChange={(e) => setPublish(e.currentTarget.checked)} />
          <Button onClick={submit} loading={create.isPending} disabled={!name.trim()}>
            Create series
          </Button>
        </Group>
      </Stack>
    </>
  );
}
