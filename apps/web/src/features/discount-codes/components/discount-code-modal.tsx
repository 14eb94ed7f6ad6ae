import { Alert, Button, Group, Input, MultiSelect, NumberInput, SegmentedControl, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import {
  discountCodeProblems,
  M,
  MAX_PRICE_CENTS,
  MAX_TICKET_QUANTITY,
  toCents,
  ZDiscountCodeFields,
  type DiscountKind,
  type TCreateDiscountCodeRequest,
  type TDiscountCode,
  type TDiscountCodeFields,
  type TEvent,
  type TTicketType,
} from '@marquee/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useRef } from 'react';
import { errorMessage, isApiError } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { useResetForm, zodValidate } from '../../../ui/zod-form';
import { DateTimeFields } from '../../../ui/date-time-fields';
import { instantOrInvalid, timeZoneName, toWall } from '../../../ui/time';
import { useCreateDiscountCode, useUpdateDiscountCode } from '../mutations';
import { FormModal } from '../../../ui/form-modal';

type Values = {
  code: string;
  kind: DiscountKind;
  /** A percentage, or dollars as typed (sent in cents). */
  value: number | string;
  /** '' for unlimited. */
  usageLimit: number | string;
  startDate: string | null;
  startTime: string;
  endDate: string | null;
  endTime: string;
  ticketTypeIds: string[];
  active: boolean;
};

function toValues(c: TDiscountCode | null, timeZone: string): Values {
  const d = c?.details;
  const start = toWall(d?.startsAt ?? null, timeZone);
  const end = toWall(d?.endsAt ?? null, timeZone);
  return {
    code: d?.code ?? '',
    kind: d?.kind ?? 'percent',
    value: d ? (d.kind === 'percent' ? d.value : d.value / 100) : '',
    usageLimit: d?.usageLimit ?? '',
    startDate: start.date,
    startTime: start.time,
    endDate: end.date,
    endTime: end.time,
    ticketTypeIds: d?.ticketTypeIds ?? [],
    active: d?.active ?? true,
  };
}

function toDetails(v: Values, timeZone: string): TCreateDiscountCodeRequest['details'] {
  const value = v.value === '' ? undefined : v.kind === 'percent' ? Number(v.value) : (toCents(Number(v.value).toFixed(2)) ?? undefined);
  return {
    code: v.code.trim().toUpperCase(),
    kind: v.kind,
    value: value as number,
    usageLimit: v.usageLimit === '' ? null : Number(v.usageLimit),
    startsAt: instantOrInvalid(v.startDate, v.startTime, timeZone),
    endsAt: instantOrInvalid(v.endDate, v.endTime, timeZone),
    ticketTypeIds: v.ticketTypeIds,
    active: v.active,
  };
}

function formField(key: string, v: Values): string {
  const k = key.replace(/^details\./, '');
  if (k === 'startsAt') return v.startDate ? 'startTime' : 'startDate';
  if (k === 'endsAt') return v.endDate ? 'endTime' : 'endDate';
  if (k.startsWith('ticketTypeIds')) return 'ticketTypeIds';
  return k;
}

function validator(timeZone: string) {
  const contract = zodValidate(ZDiscountCodeFields.partial().required({ code: true, kind: true, value: true }), (v: Values) => toDetails(v, timeZone));
  return (v: Values): FormErrors => {
    const errors: FormErrors = {};
    for (const [key, message] of Object.entries(contract(v))) errors[formField(key, v)] ??= message;
    if (v.value === '') errors.value = M.fieldRequired;
    const d = toDetails(v, timeZone);
    if (errors.value === undefined && errors.startDate === undefined && errors.endDate === undefined) {
      for (const [key, message] of Object.entries(discountCodeProblems(d as TDiscountCodeFields))) errors[formField(key, v)] ??= message;
    }
    return errors;
  };
}

export type DiscountCodeModalProps = {
  event: TEvent;
  /** undefined: closed; null: a new code. */
  code: TDiscountCode | null | undefined;
  ticketTypes: TTicketType[];
  onClose: () => void;
};

export function DiscountCodeModal({ event, code: requested, ticketTypes, onClose }: DiscountCodeModalProps) {
  const opened = requested !== undefined;
  // Keep showing what was open while the modal animates closed.
  const last = useRef<TDiscountCode | null>(null);
  if (opened) last.current = requested;
  const code = last.current;
  const zone = event.details.timeZone;
  const create = useCreateDiscountCode(event.id);
  const update = useUpdateDiscountCode(event.id);
  // The zone can change in the details tab while this stays mounted: validate with the current one.
  const zoneRef = useRef(zone);
  zoneRef.current = zone;
  const form = useForm<Values>({ initialValues: toValues(null, zone), validate: (v) => validator(zoneRef.current)(v) });

  useResetForm(form, opened ? (code?.id ?? 'new') : null, () => toValues(code ?? null, zone));

  const pending = create.isPending || update.isPending;
  const percent = form.values.kind === 'percent';

  const save = form.onSubmit(
    async (values) => {
      const details = toDetails(values, zone);
      try {
        if (code) await update.mutateAsync({ id: code.id, details });
        else await create.mutateAsync(details);
        notify.success(code ? 'Discount code saved' : 'Discount code added', `${details.code} is saved.`);
        onClose();
      } catch (e) {
        if (isApiError(e)) for (const [key, message] of Object.entries(e.fields)) form.setFieldError(formField(key, values), message);
        notify.error(code ? 'Could not save the discount code' : 'Could not add the discount code', errorMessage(e));
      }
    },
    () => notify.error(M.inputValidationError, undefined, { id: 'discount-invalid' }),
  );

  return (
    <FormModal dirty={form.isDirty()} busy={pending} opened={opened} onClose={onClose} title={code ? `Edit ${code.details.code}` : 'Add discount code'} size="lg" yOffset="6vh">
      <form onSubmit={save} noValidate aria-label="Discount code">
        <Stack gap="md">
          {code && (
            <Alert variant="light" color="brand" icon={<IconInfoCircle size={18} />} p="xs">
              <Text fz="sm">
                Used {code.details.usedCount.toLocaleString('en-US')} {code.details.usedCount === 1 ? 'time' : 'times'}
                {code.details.usageLimit !== null ? ` of ${code.details.usageLimit.toLocaleString('en-US')}` : ''}.
              </Text>
            </Alert>
          )}
          <TextInput
            label="Code"
            description="What attendees type at checkout; letters, numbers, hyphens and underscores."
            placeholder="EARLYBIRD"
            required
            data-autofocus
            maxLength={40}
            styles={{ input: { textTransform: 'uppercase', fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: 0.5 } }}
            {...form.getInputProps('code')}
            onChange={(e) => form.setFieldValue('code', e.currentTarget.value.toUpperCase())}
          />
          <Input.Wrapper label="Discount" required>
            <Group gap="sm" align="flex-start" wrap="wrap" mt={4}>
              <SegmentedControl
                aria-label="Discount type"
                value={form.values.kind}
                onChange={(v) => {
                  form.setFieldValue('kind', v as DiscountKind);
                  form.setFieldValue('value', '');
                }}
                data={[
                  { value: 'percent', label: 'Percentage' },
                  { value: 'amount', label: 'Fixed amount' },
                ]}
              />
              <NumberInput
                key={form.values.kind}
                aria-label={percent ? 'Percentage off' : 'Amount off'}
                placeholder={percent ? '10%' : '$5.00'}
                style={{ flex: '1 1 140px' }}
                suffix={percent ? '%' : undefined}
                prefix={percent ? undefined : '$'}
                decimalScale={2}
                fixedDecimalScale={!percent}
                thousandSeparator=","
                min={0}
                max={percent ? 100 : MAX_PRICE_CENTS / 100}
                allowNegative={false}
                {...form.getInputProps('value')}
              />
            </Group>
          </Input.Wrapper>
          <Text fz="xs" c="dimmed" mt={-8}>
            {percent ? 'Taken off the price of each ticket the code applies to.' : 'Taken off each ticket the code applies to, never below zero.'}
          </Text>
          <MultiSelect
            label="Applies to"
            description="Leave empty for every ticket type of this event."
            placeholder={form.values.ticketTypeIds.length ? undefined : 'All ticket types'}
            data={ticketTypes.map((t) => ({ value: t.id, label: t.details.name }))}
            clearable
            searchable
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('ticketTypeIds')}
          />
          <NumberInput
            label="Usage limit"
            description="How many times the code can be used in total. Leave empty for no limit."
            placeholder="No limit"
            min={1}
            max={MAX_TICKET_QUANTITY}
            allowDecimal={false}
            allowNegative={false}
            thousandSeparator=","
            {...form.getInputProps('usageLimit')}
          />
          <Stack gap={6}>
            <Text fz="sm" fw={500}>
              Valid
            </Text>
            <Text fz="xs" c="dimmed" mt={-4}>
              Optional; in the event's time zone, {timeZoneName(zone)}. Without dates the code works whenever tickets are on sale.
            </Text>
            <DateTimeFields label="From" timeZone={zone} date={form.getInputProps('startDate')} time={form.getInputProps('startTime')} />
            <DateTimeFields label="Until" timeZone={zone} date={form.getInputProps('endDate')} time={form.getInputProps('endTime')} />
          </Stack>
          <Switch label="Active" description="Switch off to stop the code working without deleting it." {...form.getInputProps('active', { type: 'checkbox' })} />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" loading={pending} data-testid="save-discount-code">
              {code ? 'Save' : 'Add discount code'}
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}
