import { Alert, Button, Group, NumberInput, Radio, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import {
  DEFAULT_MAX_PER_ORDER,
  M,
  MAX_PER_ORDER_LIMIT,
  MAX_PRICE_CENTS,
  MAX_TICKET_QUANTITY,
  SALES_AVAILABILITY,
  SALES_AVAILABILITY_LABELS,
  TICKET_SOLD_AT,
  TICKET_SOLD_AT_LABELS,
  ticketTypeProblems,
  toCents,
  ZTicketTypeFields,
  type SalesAvailability,
  type TicketSoldAt,
  type TCreateTicketTypeRequest,
  type TEvent,
  type TTicketType,
  type TTicketTypeFields,
} from '@marquee/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useRef } from 'react';
import { errorMessage, isApiError } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { useResetForm, zodValidate } from '../../../ui/zod-form';
import { DateTimeFields } from '../../../ui/date-time-fields';
import { timeZoneName } from '../../../ui/time';
import { useCreateTicketType, useUpdateTicketType } from '../mutations';
import { FormModal } from '../../../ui/form-modal';

type Values = {
  name: string;
  details: string;
  /** Dollars as typed; sent in cents. */
  price: number | string;
  quantity: number | string;
  minTicketPerOrder: number | string;
  maxTicketPerOrder: number | string;
  salesAvailability: SalesAvailability;
  startDate: string | null;
  startTime: string;
  endDate: string | null;
  endTime: string;
  otherTicketTypeId: string | null;
  active: boolean;
  soldAt: TicketSoldAt;
};

const AVAILABILITY_HELP: Record<SalesAvailability, string> = {
  SALES_AVAILABILITY_OPT_1: 'On sale whenever the event is published, until it sells out.',
  SALES_AVAILABILITY_OPT_2: 'On sale only between a start and an end date and time, for example an early-bird price.',
  SALES_AVAILABILITY_OPT_3: 'On sale only while another ticket type still has tickets, for example the next price tier.',
};

function toValues(t: TTicketType | null): Values {
  const d = t?.details;
  return {
    name: d?.name ?? '',
    details: d?.details ?? '',
    price: d ? d.price / 100 : '',
    quantity: d?.quantity ?? '',
    minTicketPerOrder: d?.minTicketPerOrder ?? 1,
    maxTicketPerOrder: d?.maxTicketPerOrder ?? DEFAULT_MAX_PER_ORDER,
    salesAvailability: (d?.salesAvailability as SalesAvailability | undefined) ?? 'SALES_AVAILABILITY_OPT_1',
    startDate: d?.startDate ?? null,
    startTime: d?.startTime ?? '',
    endDate: d?.endDate ?? null,
    endTime: d?.endTime ?? '',
    otherTicketTypeId: d?.otherTicketTypeId ?? null,
    active: d?.active ?? true,
    soldAt: (d?.soldAt as TicketSoldAt | undefined) ?? 'BOTH',
  };
}

const num = (v: number | string): number | undefined => (v === '' || v === null ? undefined : Number(v));

/** The form as the ticket type contract reads it: price in cents, the window only for OPT_2. */
function toDetails(v: Values): TCreateTicketTypeRequest['details'] {
  const windowed = v.salesAvailability === 'SALES_AVAILABILITY_OPT_2';
  const price = v.price === '' ? null : toCents(Number(v.price).toFixed(2));
  return {
    name: v.name,
    details: v.details,
    price: price ?? (undefined as unknown as number),
    quantity: num(v.quantity) as number,
    minTicketPerOrder: num(v.minTicketPerOrder),
    maxTicketPerOrder: num(v.maxTicketPerOrder),
    salesAvailability: v.salesAvailability,
    startDate: windowed ? v.startDate || null : null,
    startTime: windowed ? v.startTime || null : null,
    endDate: windowed ? v.endDate || null : null,
    endTime: windowed ? v.endTime || null : null,
    otherTicketTypeId: v.salesAvailability === 'SALES_AVAILABILITY_OPT_3' ? v.otherTicketTypeId : null,
    active: v.active,
    soldAt: v.soldAt,
  };
}

const validateContract = zodValidate(ZTicketTypeFields.partial().required({ name: true, price: true, quantity: true }), toDetails);

function validate(v: Values): FormErrors {
  const errors = validateContract(v);
  if (v.price === '') errors.price = M.fieldRequired;
  if (v.quantity === '') errors.quantity = M.fieldRequired;
  const d = toDetails(v);
  if (d.minTicketPerOrder !== undefined && d.maxTicketPerOrder !== undefined) {
    for (const [key, message] of Object.entries(ticketTypeProblems(d as TTicketTypeFields))) errors[key] ??= message;
  }
  return errors;
}

export type TicketTypeModalProps = {
  event: TEvent;
  /** undefined: closed; null: a new ticket type. */
  ticketType: TTicketType | null | undefined;
  /** Every ticket type of the event, for the linked one (OPT_3). */
  siblings: TTicketType[];
  onClose: () => void;
};

export function TicketTypeModal({ event, ticketType: requested, siblings, onClose }: TicketTypeModalProps) {
  const opened = requested !== undefined;
  // Keep showing what was open while the modal animates closed.
  const last = useRef<TTicketType | null>(null);
  if (opened) last.current = requested;
  const ticketType = last.current;
  const create = useCreateTicketType(event.id);
  const update = useUpdateTicketType(event.id);
  const form = useForm<Values>({ initialValues: toValues(null), validate });

  useResetForm(form, opened ? (ticketType?.id ?? 'new') : null, () => toValues(ticketType ?? null));

  const zone = event.details.timeZone;
  const others = siblings.filter((t) => t.id !== ticketType?.id).map((t) => ({ value: t.id, label: t.details.name }));
  const pending = create.isPending || update.isPending;

  const save = form.onSubmit(
    async (values) => {
      const details = toDetails(values);
      try {
        if (ticketType) await update.mutateAsync({ id: ticketType.id, details });
        // A new ticket type goes last on the ticket menu.
        else await create.mutateAsync({ ...details, sortOrder: siblings.reduce((max, t) => Math.max(max, t.details.sortOrder + 1), 0) });
        notify.success(ticketType ? 'Ticket type saved' : 'Ticket type added', `${values.name.trim()} is saved.`);
        onClose();
      } catch (e) {
        if (isApiError(e)) for (const [key, message] of Object.entries(e.fields)) form.setFieldError(key.replace(/^details\./, ''), message);
        notify.error(ticketType ? 'Could not save the ticket type' : 'Could not add the ticket type', errorMessage(e));
      }
    },
    () => notify.error(M.inputValidationError, undefined, { id: 'ticket-type-invalid' }),
  );

  const t = ticketType?.details;
  return (
    <FormModal dirty={form.isDirty()} busy={pending} opened={opened} onClose={onClose} title={ticketType ? `Edit ${t?.name}` : 'Add ticket type'} size="lg" centered={false} yOffset="6vh">
      <form onSubmit={save} noValidate aria-label="Ticket type">
        <Stack gap="md">
          {t && (
            <Alert variant="light" color="brand" icon={<IconInfoCircle size={18} />} p="xs">
              <Text fz="sm">
                {t.sold.toLocaleString('en-US')} sold · {t.held.toLocaleString('en-US')} in checkouts · <b>{t.remainingQuantity.toLocaleString('en-US')} remaining</b> of{' '}
                {t.quantity.toLocaleString('en-US')}
              </Text>
            </Alert>
          )}
          <TextInput label="Name" placeholder="General Admission" required data-autofocus {...form.getInputProps('name')} />
          <Textarea label="Description" placeholder="What this ticket includes." autosize minRows={2} maxRows={6} {...form.getInputProps('details')} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <NumberInput
              label="Price"
              description="In US dollars; 0 for a free ticket."
              required
              prefix="$"
              placeholder="$0.00"
              decimalScale={2}
              fixedDecimalScale
              thousandSeparator=","
              min={0}
              max={MAX_PRICE_CENTS / 100}
              allowNegative={false}
              {...form.getInputProps('price')}
            />
            <NumberInput
              label="Quantity"
              description={t && t.soldOrHeld > 0 ? `At least ${t.soldOrHeld.toLocaleString('en-US')}, already sold or held.` : 'How many tickets of this type are for sale.'}
              required
              placeholder="100"
              min={t?.soldOrHeld ?? 0}
              max={MAX_TICKET_QUANTITY}
              allowDecimal={false}
              allowNegative={false}
              thousandSeparator=","
              {...form.getInputProps('quantity')}
            />
            <NumberInput
              label="Minimum per order"
              min={1}
              max={MAX_PER_ORDER_LIMIT}
              allowDecimal={false}
              allowNegative={false}
              {...form.getInputProps('minTicketPerOrder')}
            />
            <NumberInput
              label="Maximum per order"
              min={1}
              max={MAX_PER_ORDER_LIMIT}
              allowDecimal={false}
              allowNegative={false}
              {...form.getInputProps('maxTicketPerOrder')}
            />
          </SimpleGrid>

          <Select
            label="Sold"
            description="Where this ticket type is on sale: the event site, the box office at the door, or both."
            data={TICKET_SOLD_AT.map((value) => ({ value, label: TICKET_SOLD_AT_LABELS[value] }))}
            allowDeselect={false}
            data-testid="ticket-sold-at"
            {...form.getInputProps('soldAt')}
          />

          <Radio.Group label="Sales availability" {...form.getInputProps('salesAvailability')}>
            <Stack gap="xs" mt={6}>
              {SALES_AVAILABILITY.map((value) => (
                <Radio key={value} value={value} label={SALES_AVAILABILITY_LABELS[value]} description={AVAILABILITY_HELP[value]} />
              ))}
            </Stack>
          </Radio.Group>

          {form.values.salesAvailability === 'SALES_AVAILABILITY_OPT_2' && (
            <Stack gap="sm" pl={{ base: 0, xs: 32 }}>
              <Text fz="xs" c="dimmed">
                In the event's time zone, {timeZoneName(zone)}.
              </Text>
              <DateTimeFields
                label="Sales start"
                required
                timeZone={zone}
                date={form.getInputProps('startDate')}
                time={form.getInputProps('startTime')}
              />
              <DateTimeFields
                label="Sales end"
                required
                timeZone={zone}
                date={form.getInputProps('endDate')}
                time={form.getInputProps('endTime')}
              />
            </Stack>
          )}
          {form.values.salesAvailability === 'SALES_AVAILABILITY_OPT_3' && (
            <Select
              pl={{ base: 0, xs: 32 }}
              label="Available while this ticket type is available"
              placeholder={others.length ? 'Choose a ticket type' : 'Add another ticket type first'}
              required
              data={others}
              disabled={others.length === 0}
              comboboxProps={{ withinPortal: true }}
              {...form.getInputProps('otherTicketTypeId')}
            />
          )}

          <Switch
            label="On sale"
            description="Switch off to stop selling this ticket type without deleting it."
            {...form.getInputProps('active', { type: 'checkbox' })}
          />

          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" loading={pending} data-testid="save-ticket-type">
              {ticketType ? 'Save' : 'Add ticket type'}
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}
