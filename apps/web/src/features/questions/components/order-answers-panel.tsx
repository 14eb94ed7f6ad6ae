import { Badge, Button, Card, Checkbox, Group, Modal, MultiSelect, Radio, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { checkOrderAnswers, orderQuestions, ticketQuestions, type FormQuestion, type TAnswerValue, type TOrderAnswers } from '@marquee/core';
import { IconEdit } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage, isApiError, isBadInput } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { useOrderAnswers, useSaveOrderAnswers } from '../queries';

export type OrderAnswersPanelProps = { eventId: string; orderUID: string; canEdit: boolean };

/** The order page's attendees and answers (issue 24), with the organiser's edit. Hidden when the event asks nothing and nothing was answered. */
export function OrderAnswersPanel({ eventId, orderUID, canEdit }: OrderAnswersPanelProps) {
  const data = useOrderAnswers(eventId, orderUID);
  const [editing, setEditing] = useState(false);
  const a = data.data;
  if (!a) return null;
  const asks = a.form.questions.length > 0 || a.form.ticketTypes.some((t) => t.askName !== 'off' || t.askEmail !== 'off');
  if (!asks && a.answers.length === 0 && a.attendees.every((x) => x.answers.length === 0)) return null;
  return (
    <Card withBorder padding="lg" radius="md" mt="lg" data-testid="order-answers">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={3} fz="lg">
          Attendees and answers
        </Title>
        {canEdit && (
          <Button variant="light" leftSection={<IconEdit size={16} />} onClick={() => setEditing(true)} data-testid="edit-answers">
            Edit answers
          </Button>
        )}
      </Group>
      {a.answers.length > 0 && (
        <Stack gap={4} mb="md">
          {a.answers.map((x) => (
            <Text key={x.questionId} fz="sm">
              <b>{x.label}:</b> {x.text}
            </Text>
          ))}
        </Stack>
      )}
      <Stack gap={0} component="ul" aria-label="Attendees" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {a.attendees.map((t, i) => (
          <SimpleGrid
            key={`${t.ticketTypeId}:${t.position}`}
            component="li"
            cols={{ base: 1, sm: 3 }}
            spacing="xs"
            py="sm"
            style={{ borderTop: i === 0 ? undefined : '1px solid var(--mantine-color-gray-3)' }}
            data-testid="order-attendee"
          >
            <div>
              <Text fz="sm" fw={600}>
                {t.fullName || '–'}
              </Text>
              {t.email && (
                <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {t.email}
                </Text>
              )}
            </div>
            <div>
              <Text fz="sm">{t.ticketTypeName}</Text>
              {t.ticketUid && (
                <Text fz="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {t.ticketUid}
                </Text>
              )}
            </div>
            <div>
              {t.answers.map((x) => (
                <Text key={x.questionId} fz="sm" style={{ overflowWrap: 'anywhere' }}>
                  <Text span c="dimmed" fz="sm">
                    {x.label}:
                  </Text>{' '}
                  {x.text}
                </Text>
              ))}
            </div>
          </SimpleGrid>
        ))}
      </Stack>
      <Modal opened={editing} onClose={() => setEditing(false)} title="Edit answers" size="lg">
        {editing && <EditAnswers eventId={eventId} orderUID={orderUID} answers={a} onClose={() => setEditing(false)} />}
      </Modal>
    </Card>
  );
}

type Value = TAnswerValue | undefined;
type Values = { answers: Record<string, Value>; attendees: Array<{ ticketTypeId: string; fullName: string; email: string; answers: Record<string, Value> }> };

function initialValues(a: TOrderAnswers): Values {
  return {
    answers: Object.fromEntries(a.answers.map((x) => [x.questionId, x.value])),
    attendees: a.attendees.map((t) => ({ ticketTypeId: t.ticketTypeId, fullName: t.fullName, email: t.email, answers: Object.fromEntries(t.answers.map((x) => [x.questionId, x.value])) })),
  };
}

/** Lines (type, quantity) in the order the server lists the attendees. */
const linesOf = (a: TOrderAnswers) => {
  const lines: Array<{ ticketTypeId: string; quantity: number }> = [];
  for (const t of a.attendees) {
    const last = lines[lines.length - 1];
    if (last?.ticketTypeId === t.ticketTypeId) last.quantity += 1;
    else lines.push({ ticketTypeId: t.ticketTypeId, quantity: 1 });
  }
  return lines;
};

function EditAnswers({ eventId, orderUID, answers, onClose }: { eventId: string; orderUID: string; answers: TOrderAnswers; onClose: () => void }) {
  const [values, setValues] = useState<Values>(() => initialValues(answers));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveOrderAnswers(eventId, orderUID);
  const lines = linesOf(answers);
  const form = answers.form;
  const known = (q: FormQuestion, v: Value) => v !== undefined && v !== null;
  const clean = (m: Record<string, Value>, qs: FormQuestion[]) => Object.fromEntries(qs.filter((q) => known(q, m[q.id])).map((q) => [q.id, m[q.id] as TAnswerValue]));
  const typeIds = lines.map((l) => l.ticketTypeId);

  const submit = async () => {
    const body = {
      answers: clean(values.answers, orderQuestions(form.questions, typeIds)),
      attendees: values.attendees.map((t) => ({ ...t, answers: clean(t.answers, ticketQuestions(form.questions, t.ticketTypeId)) })),
    };
    const checked = checkOrderAnswers(form, lines, body);
    if (!checked.ok) {
      setErrors(checked.fields);
      return;
    }
    try {
      await save.mutateAsync(body);
      notify.success('Answers saved', `Order ${orderUID}`);
      onClose();
    } catch (e) {
      if (isApiError(e) && isBadInput(e)) setErrors(e.fields);
      else notify.error('The answers could not be saved', errorMessage(e));
    }
  };

  return (
    <Stack gap="md">
      {orderQuestions(form.questions, typeIds).map((q) => (
        <ConsoleAnswerField key={q.id} q={q} value={values.answers[q.id]} error={errors[`answers.${q.id}`]} onValue={(v) => setValues((s) => ({ ...s, answers: { ...s.answers, [q.id]: v } }))} />
      ))}
      {values.attendees.map((t, i) => {
        const f = form.ticketTypes.find((x) => x.ticketTypeId === t.ticketTypeId);
        const qs = ticketQuestions(form.questions, t.ticketTypeId);
        const set = (patch: Partial<Values['attendees'][number]>) => setValues((s) => ({ ...s, attendees: s.attendees.map((x, j) => (j === i ? { ...x, ...patch } : x)) }));
        return (
          <Card key={i} withBorder padding="sm" radius="md">
            <Group gap="xs" mb="xs">
              <Badge variant="light">{answers.attendees[i]?.ticketTypeName}</Badge>
              <Text fz="xs" c="dimmed" ff="monospace">
                {answers.attendees[i]?.ticketUid ?? ''}
              </Text>
            </Group>
            <Stack gap="sm">
              {f?.askName !== 'off' && (
                <TextInput label="Attendee Name" required={f?.askName === 'required'} value={t.fullName} onChange={(e) => set({ fullName: e.currentTarget.value })} error={errors[`attendees.${i}.fullName`]} data-testid={`edit-name-${i}`} />
              )}
              {f?.askEmail !== 'off' && (
                <TextInput label="Attendee Email" required={f?.askEmail === 'required'} value={t.email} onChange={(e) => set({ email: e.currentTarget.value })} error={errors[`attendees.${i}.email`]} />
              )}
              {qs.map((q) => (
                <ConsoleAnswerField key={q.id} q={q} value={t.answers[q.id]} error={errors[`attendees.${i}.answers.${q.id}`]} onValue={(v) => set({ answers: { ...t.answers, [q.id]: v } })} />
              ))}
            </Stack>
          </Card>
        );
      })}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} loading={save.isPending} data-testid="save-answers">
          Save answers
        </Button>
      </Group>
    </Stack>
  );
}

function ConsoleAnswerField({ q, value, error, onValue }: { q: FormQuestion; value: Value; error?: string; onValue: (v: TAnswerValue) => void }) {
  const common = { label: q.label, description: q.helpText || undefined, error, required: q.required };
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  switch (q.kind) {
    case 'checkbox':
      return <Checkbox label={q.label} description={q.helpText || undefined} error={error} checked={value === true} onChange={(e) => onValue(e.currentTarget.checked)} />;
    case 'singleChoice':
      return (
        <Radio.Group {...common} value={text} onChange={(v) => onValue(v)}>
          <Group gap="md" mt={4}>
            {q.options.map((o) => (
              <Radio key={o} value={o} label={o} />
            ))}
          </Group>
        </Radio.Group>
      );
    case 'multipleChoice':
      return <MultiSelect {...common} data={q.options} value={Array.isArray(value) ? value : []} onChange={(v) => onValue(v)} />;
    case 'longText':
      return <Textarea {...common} value={text} onChange={(e) => onValue(e.currentTarget.value)} autosize minRows={2} />;
    default:
      return <TextInput {...common} type={q.kind === 'date' ? 'date' : q.kind === 'phone' ? 'tel' : 'text'} value={text} onChange={(e) => onValue(e.currentTarget.value)} />;
  }
}
