import { Alert, Button, Card, Checkbox, Group, MultiSelect, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import {
  ATTENDEE_MESSAGE_SUBJECT_MAX,
  M,
  SEND_MESSAGE_ERRORS,
  ZCreateAttendeeMessageRequest,
  assertNever,
  domainCodeAmong,
  type AttendeeMessageRecipients,
  type TEvent,
} from '@marquee/core';
import { IconAlertCircle, IconInfoCircle, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { domainCodeOf, errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { applyServerFields, zodValidate } from '../../../ui/zod-form';
import { RichTextField } from '../../policies/components/rich-text-field';
import { useAllTicketTypes } from '../../ticket-types/queries';
import { useAudience, useSendAttendeeMessage } from '../queries';

type Values = { subject: string; body: string; recipients: AttendeeMessageRecipients; ticketTypeIds: string[]; marketing: boolean };
const EMPTY: Values = { subject: '', body: '', recipients: 'all', ticketTypeIds: [], marketing: false };

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export type ComposeMessageProps = { event: TEvent };

/** The compose form: subject, rich-text message, recipients, the count they come to, and Send (issue 15). */
export function ComposeMessage({ event }: ComposeMessageProps) {
  const ticketTypes = useAllTicketTypes(event.id);
  const send = useSendAttendeeMessage(event.id);
  // Why the server refused the last send (one already on its way, the day's limit): it stays in the form, not only in a toast.
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<Values>({ initialValues: EMPTY, validate: zodValidate(ZCreateAttendeeMessageRequest.shape.details), validateInputOnBlur: ['subject'] });
  const v = form.values;
  const [choice] = useDebouncedValue({ recipients: v.recipients, ticketTypeIds: v.ticketTypeIds, marketing: v.marketing }, 250);
  const complete = choice.recipients === 'all' || choice.ticketTypeIds.length > 0;
  const audience = useAudience(event.id, complete ? choice : null);
  const count = complete ? audience.data?.recipients : undefined;

  const submit = form.onSubmit((values) => {
    if (count === undefined || count === 0) return;
    modals.openConfirmModal({
      title: 'Send this message?',
      centered: true,
      children: (
        <Text fz="sm">
          “{values.subject.trim()}” goes to {plural(count, 'address', 'addresses')} now. A sent message cannot be recalled.
        </Text>
      ),
      labels: { confirm: 'Send', cancel: 'Cancel' },
      confirmProps: { 'data-testid': 'confirm-send' } as Record<string, unknown>,
      onConfirm: () =>
        send.mutate(values, {
          onSuccess: () => {
            setRefusal(null);
            notify.success('Message queued', M.attendeeMessageQueued);
            form.setValues(EMPTY);
            form.resetDirty(EMPTY);
            form.resetTouched();
          },
          onError: (e) => {
            applyServerFields(form, e, (p) => p.replace(/^details\./, ''));
            notify.error('The message was not sent', errorMessage(e));
            const code = domainCodeAmong(domainCodeOf(e), SEND_MESSAGE_ERRORS);
            switch (code) {
              case 'NO_RECIPIENTS':
              case 'MESSAGE_IN_PROGRESS':
                // The audience may have changed since it was counted (it did, if nobody is left): count it again.
                void audience.refetch();
                setRefusal(errorMessage(e));
                return;
              case 'MESSAGE_LIMIT_REACHED':
                setRefusal(errorMessage(e));
                return;
              case null:
                setRefusal(null);
                return;
              default:
                return assertNever(code);
            }
          },
        }),
    });
  });

  const a = audience.data;
  return (
    <Card withBorder radius="md" padding="lg" mb="xl" component="section" aria-labelledby="compose-heading">
      <form onSubmit={submit} noValidate aria-label="E-mail attendees" data-testid="compose-message">
        <Stack gap="md">
          <Text id="compose-heading" fw={600}>
            New message
          </Text>
          <TextInput label="Subject" required maxLength={ATTENDEE_MESSAGE_SUBJECT_MAX} placeholder="Doors open at 7 PM" data-testid="message-subject" {...form.getInputProps('subject')} />
          <RichTextField label="Message" required minHeight={180} value={v.body} onChange={(html) => form.setFieldValue('body', html)} error={form.errors.body as string | undefined} />
          <Radio.Group
            label="Recipients"
            value={v.recipients}
            onChange={(value) => form.setFieldValue('recipients', value as AttendeeMessageRecipients)}
            error={form.errors.recipients}
          >
            <Stack gap="xs" mt={6}>
              <Radio value="all" label="All attendees" description="Every buyer and ticket holder with a paid ticket." data-testid="recipients-all" />
              <Radio value="ticket_types" label="Holders of some ticket types" description="Only buyers and holders of the ticket types you choose." data-testid="recipients-types" />
            </Stack>
          </Radio.Group>
          {v.recipients === 'ticket_types' && (
            <MultiSelect
              label="Ticket types"
              placeholder={v.ticketTypeIds.length ? undefined : 'Choose ticket types'}
              data={(ticketTypes.data ?? []).map((t) => ({ value: t.id, label: t.details.name }))}
              searchable
              clearable
              comboboxProps={{ withinPortal: true }}
              data-testid="message-ticket-types"
              {...form.getInputProps('ticketTypeIds')}
            />
          )}
          <Checkbox
            label="This is marketing"
            description="Send it only to buyers who asked at checkout to be kept posted about your events."
            data-testid="message-marketing"
            {...form.getInputProps('marketing', { type: 'checkbox' })}
          />
          <Alert variant="light" color={count === 0 ? 'orange' : 'brand'} icon={<IconInfoCircle size={18} />} aria-live="polite" data-testid="message-audience">
            {!complete ? (
              <Text fz="sm">Choose at least one ticket type to see who it goes to.</Text>
            ) : a === undefined ? (
              <Text fz="sm">Counting recipients…</Text>
            ) : (
              <Stack gap={2}>
                <Text fz="sm" fw={600}>
                  {a.recipients === 0 ? 'Nobody would receive this message.' : `Goes to ${plural(a.recipients, 'address', 'addresses')}.`}
                </Text>
                {a.optedOut > 0 && <Text fz="sm">{plural(a.optedOut, 'address has', 'addresses have')} unsubscribed from your messages and will not get it.</Text>}
                {a.notOptedIn > 0 && <Text fz="sm">{plural(a.notOptedIn, 'attendee did', 'attendees did')} not opt in to your news and will not get it.</Text>}
                <Text fz="xs" c="dimmed">
                  Each address gets one copy with an unsubscribe link. Replies go to your organisation’s contact e-mail.
                </Text>
              </Stack>
            )}
          </Alert>
          {refusal && (
            <Alert variant="light" color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="message-refused">
              <Text fz="sm">{refusal}</Text>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" leftSection={<IconSend size={16} />} loading={send.isPending} disabled={!count} data-testid="send-message">
              {count ? `Send to ${plural(count, 'address', 'addresses')}` : 'Send'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
