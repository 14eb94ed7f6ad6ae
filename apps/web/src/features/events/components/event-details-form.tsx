import {
  Alert,
  Anchor,
  Box,
  Button,
  Collapse,
  Grid,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import {
  DEFAULT_COUNTRY,
  M,
  isEventWritable,
  isRichDescription,
  plainTextToHtml,
  MAX_TICKET_QUANTITY,
  urlNameFrom,
  URL_NAME_MAX,
  ZEventFields,
  type TEvent,
  type TUpdateEventRequest,
} from '@marquee/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useBlocker } from 'react-router';
import { askConfirmDelete } from '../../../ui/confirm-delete';
import { errorMessage, isApiError } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { zodValidate } from '../../../ui/zod-form';
import { useEnabledCharities } from '../../charities/queries';
import { useSurchargeRules } from '../queries';
import { useEventAccess } from '../../../shared/access';
import { publicEventUrl, useTenantId } from '../../../shared/tenant';
import { defaultEventTimeZone, fromWall, instantOrInvalid, timeZoneName, toWall, zoneAbbreviation } from '../../../ui/time';
import { DateTimeFields } from '../../../ui/date-time-fields';
import { SeatMapField } from './seat-map-field';
import { CoverImageField } from './cover-image-field';
import { TimeZoneSelect } from './time-zone-select';
import { RichTextField } from '../../policies/components/rich-text-field';

export type EventFormValues = {
  name: string;
  urlName: string;
  description: string;
  startDate: string | null;
  startTime: string;
  endDate: string | null;
  endTime: string;
  timeZone: string;
  venueName: string;
  address1: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  /** '' for no event-wide limit. */
  capacity: number | string;
  covidSafety: boolean;
  covidSafetyText: string;
  emailDeliveryVerbiage: string;
  /** '' for the tenant's default rule. */
  surchargeRuleId: string;
  /** '' for no charity. */
  charityId: string;
};

type EventDetails = NonNullable<TUpdateEventRequest['details']>;

export function toValues(event: TEvent | null): EventFormValues {
  const d = event?.details;
  const timeZone = d?.timeZone ?? defaultEventTimeZone();
  const start = toWall(d?.startDateTime ?? null, timeZone);
  const end = toWall(d?.endDateTime ?? null, timeZone);
  return {
    name: d?.name ?? '',
    urlName: d?.urlName ?? '',
    // Older plain-text descriptions open in the rich editor with their paragraphs and line breaks.
    description: d?.description ? (isRichDescription(d.description) ? d.description : plainTextToHtml(d.description)) : '',
    startDate: start.date,
    startTime: start.time,
    endDate: end.date,
    endTime: end.time,
    timeZone,
    venueName: d?.venueName ?? '',
    address1: d?.address1 ?? '',
    city: d?.city ?? '',
    state: d?.state ?? '',
    zip: d?.zip ?? '',
    country: d?.country ?? DEFAULT_COUNTRY,
    capacity: d?.capacity ?? '',
    covidSafety: d?.covidSafety ?? false,
    covidSafetyText: d?.covidSafetyText ?? '',
    emailDeliveryVerbiage: d?.emailDeliveryVerbiage ?? '',
    surchargeRuleId: d?.surchargeRuleId ?? '',
    charityId: d?.charityId ?? '',
  };
}

/** The form as the event contract reads it (times become instants in the event's zone). */
export function toDetails(v: EventFormValues): EventDetails & { name: string } {
  return {
    name: v.name,
    urlName: v.urlName.trim(),
    description: v.description,
    startDateTime: instantOrInvalid(v.startDate, v.startTime, v.timeZone),
    endDateTime: instantOrInvalid(v.endDate, v.endTime, v.timeZone),
    timeZone: v.timeZone,
    venueName: v.venueName,
    address1: v.address1,
    city: v.city,
    state: v.state,
    zip: v.zip,
    country: v.country,
    capacity: v.capacity === '' ? null : Number(v.capacity),
    covidSafety: v.covidSafety,
    covidSafetyText: v.covidSafetyText,
    emailDeliveryVerbiage: v.emailDeliveryVerbiage,
    surchargeRuleId: v.surchargeRuleId || null,
    charityId: v.charityId || null,
  };
}

/** Only what changed, so a save never overwrites what someone else changed meanwhile. */
export function changedDetails(before: EventFormValues, after: EventFormValues): EventDetails {
  const a = toDetails(before) as Record<string, unknown>;
  const b = toDetails(after) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(b)) {
    const x = typeof a[key] === 'string' ? (a[key] as string).trim() : a[key];
    const y = typeof b[key] === 'string' ? (b[key] as string).trim() : b[key];
    if (x !== y) out[key] = b[key];
  }
  // Moving the zone moves the instants: resend the times so they stay on the same wall clock.
  if ('timeZone' in out) {
    if (b.startDateTime !== null) out.startDateTime = b.startDateTime;
    if (b.endDateTime !== null) out.endDateTime = b.endDateTime;
  }
  return out as EventDetails;
}

/** Contract and server field names onto the form's: the instants belong to their date inputs. */
function formField(key: string, v: EventFormValues): string {
  const k = key.replace(/^details\./, '');
  if (k === 'startDateTime') return v.startDate ? 'startTime' : 'startDate';
  if (k === 'endDateTime') return v.endDate || !v.endTime ? 'endDate' : 'endTime';
  return k;
}

const validateContract = zodValidate(ZEventFields.partial().required({ name: true }), toDetails);

function validate(v: EventFormValues): FormErrors {
  const errors: FormErrors = {};
  for (const [key, message] of Object.entries(validateContract(v))) errors[formField(key, v)] ??= message;
  const start = fromWall(v.startDate, v.startTime, v.timeZone);
  const end = fromWall(v.endDate, v.endTime, v.timeZone);
  if (start && end && Date.parse(end) <= Date.parse(start)) errors.endDate ??= 'The event must end after it starts.';
  return errors;
}

/**
 * Leaving the editor with unsaved edits asks first (the tabs are the same page and keep the
 * edits); so does closing or reloading the tab. A save in progress navigates freely.
 */
function useUnsavedChangesGuard(dirty: boolean, submitting: React.RefObject<boolean>, editorPath: string) {
  const blocker = useBlocker(({ nextLocation }) => dirty && !submitting.current && !nextLocation.pathname.startsWith(editorPath));
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void askConfirmDelete({
      title: 'Discard unsaved changes?',
      message: 'You have changed this event without saving. Leave and lose those changes?',
      confirmLabel: 'Discard changes',
      cancelLabel: 'Keep editing',
    }).then((leave) => (leave ? blocker.proceed() : blocker.reset()));
  }, [blocker.state]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}

function Section({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap={2} mb="md">
        <Title order={3} fz="md" fw={650}>
          {title}
        </Title>
        {description && (
          <Text fz="sm" c="dimmed">
            {description}
          </Text>
        )}
      </Stack>
      {children}
    </Paper>
  );
}

export type EventDetailsFormProps = {
  /** null: a new event. */
  event: TEvent | null;
  onSubmit: (details: EventDetails, values: EventFormValues) => Promise<TEvent>;
  onDirtyChange?: (dirty: boolean) => void;
  submitLabel: string;
};

export function EventDetailsForm({ event, onSubmit, onDirtyChange, submitLabel }: EventDetailsFormProps) {
  const rules = useSurchargeRules();
  const tenantId = useTenantId();
  const charities = useEnabledCharities(tenantId);
  const access = useEventAccess(tenantId, event?.id);
  // A cancelled event, or someone who may only read it (tenant staff, check-in staff).
  const readOnly = event ? !isEventWritable(event.details.status) || !access.canEditEvent : !access.canManageEvents;
  const urlTouched = useRef(!!event);
  const form = useForm<EventFormValues>({
    initialValues: toValues(event),
    validate,
    // Only the URL name is checked as soon as it is left: an error appearing under an untouched
    // field moves the form under the pointer; the rest is checked on save.
    validateInputOnBlur: ['urlName'],
    onValuesChange: (values, previous) => {
      // A new event's URL name follows its name until the organiser edits it.
      if (!urlTouched.current && values.name !== previous.name) form.setFieldValue('urlName', urlNameFrom(values.name));
    },
  });

  useEffect(() => {
    // Another save (publish, seat map) refreshed the event: start from it, keeping edits.
    if (event && !form.isDirty()) {
      form.setInitialValues(toValues(event));
      form.setValues(toValues(event));
    }
  }, [event?.details.dateModified]);

  const changes = event ? changedDetails(form.getInitialValues(), form.values) : null;
  const dirty = event ? Object.keys(changes!).length > 0 : form.isDirty();
  useEffect(() => onDirtyChange?.(dirty), [dirty]);

  const submitting = useRef(false);
  useUnsavedChangesGuard(dirty && !readOnly, submitting, event ? `/events/${event.id}` : '/events/new');
  const save = form.onSubmit(
    async (values) => {
      if (submitting.current) return;
      submitting.current = true;
      try {
        const details = event ? changedDetails(form.getInitialValues(), values) : toDetails(values);
        const saved = await onSubmit(details, values);
        form.setInitialValues(toValues(saved));
        form.setValues(toValues(saved));
      } catch (e) {
        if (isApiError(e)) for (const [key, message] of Object.entries(e.fields)) form.setFieldError(formField(key, values), message);
        notify.error(event ? 'Could not save the event' : 'Could not create the event', errorMessage(e));
      } finally {
        submitting.current = false;
      }
    },
    () => notify.error(M.inputValidationError, undefined, { id: 'event-invalid' }),
  );

  const zone = form.values.timeZone;
  // EDT or EST as it will be on the day, not today.
  const startsAt = fromWall(form.values.startDate, form.values.startTime, zone);
  const zoneNow = zoneAbbreviation(zone, startsAt ? Date.parse(startsAt) : Date.now());
  const url = publicEventUrl(form.values.urlName || 'your-event');
  const urlChanged = !!event && event.details.status === 'published' && form.values.urlName.trim() !== event.details.urlName;
  const ruleOptions = [{ value: '', label: 'Your default service fee rule' }, ...(rules.data ?? []).map((r) => ({ value: r.id, label: r.name }))];
  // The event's charity is always one the tenant enabled; if the list cannot be read (event staff),
  // the chosen one still shows, unchangeable.
  const charityOptions = charities.isError
    ? form.values.charityId
      ? [{ value: form.values.charityId, label: 'The chosen charity' }]
      : []
    : (charities.data ?? []).map((c) => ({ value: c.id, label: c.details.name }));
  const sold = event && event.details.capacity !== null && event.details.remainingCapacity !== null ? event.details.capacity - event.details.remainingCapacity : null;

  return (
    <form onSubmit={save} noValidate aria-label="Event details">
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Grid gutter="lg">
          <Grid.Col span={{ base: 12, md: 7, lg: 8 }}>
            <Stack gap="lg">
              <Section title="Event" description="What attendees see first: the name and the address of the event page.">
                <Stack gap="md">
                  <TextInput label="Event name" placeholder="Summer Gala 2026" required data-autofocus={!event || undefined} {...form.getInputProps('name')} />
                  <TextInput
                    label="URL name"
                    required
                    maxLength={URL_NAME_MAX}
                    placeholder="summer-gala-2026"
                    description={
                      <>
                        The event page:{' '}
                        <Anchor href={url} target="_blank" rel="noreferrer" fz="xs" data-testid="public-url" style={{ wordBreak: 'break-all' }}>
                          {url}
                        </Anchor>
                      </>
                    }
                    {...form.getInputProps('urlName')}
                    onChange={(e) => {
                      urlTouched.current = true;
                      form.setFieldValue('urlName', e.currentTarget.value.toLowerCase().replace(/\s+/g, '-'));
                    }}
                  />
                  {urlChanged && (
                    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} p="sm">
                      This event is published: links to its old address stop working once you save a new URL name.
                    </Alert>
                  )}
                  <RichTextField
                    label="Description"
                    value={form.values.description}
                    onChange={(html) => form.setFieldValue('description', html)}
                    error={form.errors.description as string | undefined}
                    readOnly={readOnly}
                    minHeight={160}
                  />
                </Stack>
              </Section>

              <Section title="Date and time" description={`Times are the event's local time in ${timeZoneName(zone)} (${zoneNow}).`}>
                <Stack gap="md">
                  <TimeZoneSelect label="Time zone" required {...form.getInputProps('timeZone')} />
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                    <DateTimeFields label="Starts" date={form.getInputProps('startDate')} time={form.getInputProps('startTime')} testId="event-start" />
                    <DateTimeFields label="Ends" date={form.getInputProps('endDate')} time={form.getInputProps('endTime')} testId="event-end" />
                  </SimpleGrid>
                </Stack>
              </Section>

              <Section title="Venue" description="Where the event takes place, as printed on the tickets.">
                <Stack gap="md">
                  <TextInput label="Venue name" placeholder="The Grand Hall" {...form.getInputProps('venueName')} />
                  <TextInput label="Address" placeholder="123 Main Street" autoComplete="off" {...form.getInputProps('address1')} />
                  <SimpleGrid cols={{ base: 1, xs: 2, sm: 4 }} spacing="md">
                    <TextInput label="City" {...form.getInputProps('city')} />
                    <TextInput label="State" {...form.getInputProps('state')} />
                    <TextInput label="Zip code" {...form.getInputProps('zip')} />
                    <TextInput label="Country" {...form.getInputProps('country')} />
                  </SimpleGrid>
                </Stack>
              </Section>
            </Stack>
          </Grid.Col>

          <Grid.Col span={{ base: 12, md: 5, lg: 4 }}>
            <Stack gap="lg">
              <Section title="Capacity and fees">
                <Stack gap="md">
                  <NumberInput
                    label="Capacity"
                    placeholder="No limit"
                    description={
                      sold !== null
                        ? `${(event!.sales?.sold ?? sold).toLocaleString('en-US')} sold, ${(event!.sales?.held ?? 0).toLocaleString('en-US')} in checkouts, ${event!.details.remainingCapacity!.toLocaleString('en-US')} left.`
                        : 'The most tickets the event sells across all its ticket types. Leave empty for no limit.'
                    }
                    min={1}
                    max={MAX_TICKET_QUANTITY}
                    allowDecimal={false}
                    allowNegative={false}
                    thousandSeparator=","
                    {...form.getInputProps('capacity')}
                  />
                  <Select
                    label="Service fee rule"
                    description="How the service fee is charged on this event's tickets."
                    data={ruleOptions}
                    allowDeselect={false}
                    disabled={rules.isError}
                    comboboxProps={{ withinPortal: true }}
                    {...form.getInputProps('surchargeRuleId')}
                  />
                </Stack>
              </Section>

              <Section title="Donations">
                <Select
                  label="Charity that receives donations"
                  placeholder={charities.isSuccess && charityOptions.length === 0 ? 'No charities enabled' : 'No charity'}
                  description={
                    <>
                      Choose from the charities enabled on the{' '}
                      <Anchor component={Link} to="/charities" fz="xs">
                        Charities
                      </Anchor>{' '}
                      page.
                    </>
                  }
                  data={charityOptions}
                  clearable
                  searchable={charityOptions.length > 7}
                  nothingFoundMessage="No enabled charity matches"
                  disabled={charities.isError}
                  comboboxProps={{ withinPortal: true }}
                  {...form.getInputProps('charityId')}
                  // null, not '': Mantine keeps showing the last label for a value it does not know.
                  value={form.values.charityId || null}
                  onChange={(value) => form.setFieldValue('charityId', value ?? '')}
                />
              </Section>

              <Section title="Attendee messages">
                <Stack gap="md">
                  <Switch
                    label="Show a COVID safety notice"
                    description="Attendees read it in the cart and confirm it at checkout."
                    {...form.getInputProps('covidSafety', { type: 'checkbox' })}
                  />
                  <Collapse in={form.values.covidSafety}>
                    <Textarea
                      label="COVID safety notice"
                      placeholder="Masks are recommended indoors. Hand sanitiser is available at every entrance."
                      autosize
                      minRows={3}
                      maxRows={10}
                      {...form.getInputProps('covidSafetyText')}
                    />
                  </Collapse>
                  <Textarea
                    label="Ticket delivery wording"
                    description="Shown with the delivery option (Print At Home) and in the e-mail that carries the tickets."
                    placeholder="Your tickets arrive by e-mail as a PDF. Print them or show them on your phone at the door."
                    autosize
                    minRows={3}
                    maxRows={10}
                    {...form.getInputProps('emailDeliveryVerbiage')}
                  />
                </Stack>
              </Section>

              <Section title="Cover image" description="Shown at the top of the event page, in link previews and on the tickets.">
                <CoverImageField event={event} disabled={readOnly} />
              </Section>

              <Section title="Seat map" description="Shown at checkout; attendees can enlarge it.">
                <SeatMapField event={event} disabled={readOnly} />
              </Section>
            </Stack>
          </Grid.Col>
        </Grid>
      </fieldset>

      {!readOnly && (
        <Box
          pos={dirty || !event ? 'sticky' : 'static'}
          bottom={0}
          mt="lg"
          py="sm"
          style={{ zIndex: 3, background: 'linear-gradient(to bottom, transparent, var(--mantine-color-gray-0) 30%)' }}
        >
          <Paper withBorder shadow="sm" px="md" py="sm">
            <Group justify="space-between" gap="sm">
              <Text fz="sm" c="dimmed" visibleFrom="xs">
                {dirty ? 'You have unsaved changes.' : event ? 'All changes saved.' : 'Fill in the details, then create the event.'}
              </Text>
              <Group gap="sm" ml="auto">
                <Button variant="default" disabled={!dirty || form.submitting} onClick={() => form.reset()}>
                  Discard changes
                </Button>
                <Button type="submit" loading={form.submitting} disabled={!!event && !dirty} data-testid="save-event">
                  {submitLabel}
                </Button>
              </Group>
            </Group>
          </Paper>
        </Box>
      )}
    </form>
  );
}
