import { Button, Group, NumberInput, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { TWaitingRoomSettings } from '@marquee/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, errorMessage, isApiError } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { useTenantId } from '../../../shared/tenant';
import { fromWall, instantOrInvalid, toWall } from '../../../ui/time';
import { DateTimeFields } from '../../../ui/date-time-fields';

type Settings = { settings: TWaitingRoomSettings | null };
const path = (tenantId: string, eventId: string) => `/api/tenants/${encodeURIComponent(tenantId)}/events/${encodeURIComponent(eventId)}/waiting-room`;

/**
 * The event's waiting room (issue 13; ours: the spec has none): on for a busy on-sale, with the time
 * the line opens and how many buyers go in each minute. Attendees wait at /{eventName}/line.
 */
export function WaitingRoomCard({ eventId, timeZone, urlName, disabled }: { eventId: string; timeZone: string; urlName: string; disabled?: boolean }) {
  const tenantId = useTenantId();
  const client = useQueryClient();
  const key = ['events', tenantId, eventId, 'waiting-room'];
  const query = useQuery({ queryKey: key, queryFn: () => api.get<Settings>(path(tenantId, eventId)) });
  const form = useForm({ initialValues: { enabled: false, opensDate: null as string | null, opensTime: '', admitPerMinute: 100 as number | string } });
  const s = query.data?.settings;
  useEffect(() => {
    if (!query.data) return;
    const wall = toWall(s?.opensAt ?? null, timeZone);
    const values = { enabled: s?.enabled ?? false, opensDate: wall.date, opensTime: wall.time, admitPerMinute: s?.admitPerMinute ?? 100 };
    form.setInitialValues(values);
    form.setValues(values);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.data, timeZone]);
  const save = useMutation({
    mutationFn: (body: unknown) => api.put<Settings>(path(tenantId, eventId), body),
    onSuccess: (data) => client.setQueryData(key, data),
  });

  const submit = form.onSubmit(async (v) => {
    try {
      const saved = await save.mutateAsync({
        enabled: v.enabled,
        opensAt: instantOrInvalid(v.opensDate, v.opensTime, timeZone) ?? '',
        admitPerMinute: typeof v.admitPerMinute === 'number' ? v.admitPerMinute : Number(v.admitPerMinute),
      });
      notify.success('Waiting room saved', saved.settings?.enabled ? `Buyers wait in line at /${urlName}/line.` : 'The waiting room is off.');
    } catch (e) {
      if (isApiError(e) && e.fields.opensAt) form.setFieldError('opensDate', e.fields.opensAt);
      if (isApiError(e) && e.fields.admitPerMinute) form.setFieldError('admitPerMinute', e.fields.admitPerMinute);
      if (!isApiError(e) || Object.keys(e.fields).length === 0) notify.error('Waiting room not saved', errorMessage(e));
    }
  });

  const opens = fromWall(form.values.opensDate, form.values.opensTime, timeZone);
  return (
    <Paper withBorder p="lg" radius="md" mt="xl" component="section" aria-labelledby="waiting-room-title" data-testid="waiting-room-settings">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <div>
            <Title order={3} id="waiting-room-title" fz="lg">
              Waiting room
            </Title>
            <Text c="dimmed" fz="sm" mt={4}>
              For a busy on-sale: buyers wait in a fair line and go in a few at a time. Those who arrive before the opening time get a random place; later arrivals join in order.
            </Text>
          </div>
          <Switch label="Use a waiting room for this sale" disabled={disabled} {...form.getInputProps('enabled', { type: 'checkbox' })} data-testid="waiting-room-enabled" />
          {form.values.enabled && (
            <Group align="flex-start" gap="lg" wrap="wrap">
              <DateTimeFields
                label="Line opens"
                required
                timeZone={timeZone}
                disabled={disabled}
                date={form.getInputProps('opensDate')}
                time={form.getInputProps('opensTime')}
                testId="waiting-room-opens"
              />
              <NumberInput
                label="Buyers let in per minute"
                required
                min={1}
                max={10000}
                allowDecimal={false}
                disabled={disabled}
                w={220}
                {...form.getInputProps('admitPerMinute')}
                data-testid="waiting-room-rate"
              />
            </Group>
          )}
          {form.values.enabled && opens && (
            <Text fz="sm" c="dimmed">
              Share /{urlName}/line as the link to the sale; anyone who reaches checkout before their turn is sent there.
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={disabled || !form.isDirty()} data-testid="waiting-room-save">
              Save waiting room
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
