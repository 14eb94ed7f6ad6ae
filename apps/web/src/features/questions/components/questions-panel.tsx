import { ActionIcon, Badge, Button, Card, Group, Paper, Progress, Select, Skeleton, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { isEventWritable, QUESTION_KIND_LABELS, type AttendeeFieldMode, type TEvent, type TQuestion } from '@marquee/core';
import { IconArrowDown, IconArrowUp, IconEdit, IconGripVertical, IconMessageQuestion, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useEventAccess } from '../../../shared/access';
import { errorMessage } from '../../../ui/api-client';
import { askConfirmDelete } from '../../../ui/confirm-delete';
import { EmptyState } from '../../../ui/empty-state';
import { notify } from '../../../ui/notify';
import { formatInZone } from '../../../ui/time';
import { useAnswersReport, useAttendeeSettings, useQuestions, useRemoveQuestion, useReorderQuestions, useSaveAttendeeSettings } from '../queries';
import { QuestionModal } from './question-modal';

const MODES: Array<{ value: AttendeeFieldMode; label: string }> = [
  { value: 'off', label: 'Not asked' },
  { value: 'optional', label: 'Optional' },
  { value: 'required', label: 'Required' },
];

export type QuestionsPanelProps = { event: TEvent };

/**
 * The event's "Questions" tab (issue 24): each ticket type's attendee name and e-mail, the buyers'
 * deadline for changes, the organiser's questions (ordered by drag or by the arrow buttons, which the
 * keyboard reaches), and the answers report with counts per choice.
 */
export function QuestionsPanel({ event }: QuestionsPanelProps) {
  const { canEditEvent } = useEventAccess(event.tenantId, event.id);
  const readOnly = !isEventWritable(event.details.status) || !canEditEvent;
  return (
    <Stack gap="lg">
      <AttendeeFieldsCard event={event} readOnly={readOnly} />
      <QuestionListCard event={event} readOnly={readOnly} />
      <AnswersReportCard eventId={event.id} />
    </Stack>
  );
}

function AttendeeFieldsCard({ event, readOnly }: { event: TEvent; readOnly: boolean }) {
  const settings = useAttendeeSettings(event.id);
  const save = useSaveAttendeeSettings(event.id);
  const [deadline, setDeadline] = useState('');
  useEffect(() => {
    const d = settings.data?.answersDeadline;
    setDeadline(d ? toLocalInput(d) : '');
  }, [settings.data?.answersDeadline]);

  const setMode = async (ticketTypeId: string, field: 'askName' | 'askEmail', mode: AttendeeFieldMode) => {
    const t = settings.data?.ticketTypes.find((x) => x.ticketTypeId === ticketTypeId);
    if (!t) return;
    try {
      await save.mutateAsync({ ticketTypes: [{ ticketTypeId, askName: t.askName, askEmail: t.askEmail, [field]: mode }] });
      notify.success('Attendee details saved');
    } catch (e) {
      notify.error('The setting could not be saved', errorMessage(e));
    }
  };
  const saveDeadline = async () => {
    try {
      await save.mutateAsync({ answersDeadline: deadline ? new Date(deadline).toISOString() : null });
      notify.success('Deadline saved');
    } catch (e) {
      notify.error('The deadline could not be saved', errorMessage(e));
    }
  };

  return (
    <Card withBorder padding="lg" radius="md">
      <Title order={3} fz="lg" mb={4}>
        Attendee details
      </Title>
      <Text fz="sm" c="dimmed" mb="md">
        Ask a name and an e-mail address for each ticket. The name is printed on the ticket and shown at the door.
      </Text>
      {!settings.data ? (
        <Skeleton h={80} />
      ) : settings.data.ticketTypes.length === 0 ? (
        <Text fz="sm">Add a ticket type first.</Text>
      ) : (
        <Stack gap="sm">
          {settings.data.ticketTypes.map((t) => (
            <Paper key={t.ticketTypeId} withBorder p="sm" radius="md">
              <Group gap="sm" align="flex-end" wrap="wrap">
                <Text fw={600} style={{ flex: '1 1 160px', alignSelf: 'center', overflowWrap: 'anywhere' }}>
                  {t.name}
                </Text>
                <Select
                  label="Name"
                  aria-label={`Name for ${t.name}`}
                  data={MODES}
                  value={t.askName}
                  allowDeselect={false}
                  disabled={readOnly}
                  onChange={(v) => v && void setMode(t.ticketTypeId, 'askName', v as AttendeeFieldMode)}
                  style={{ flex: '1 1 140px' }}
                  data-testid={`ask-name-${t.name}`}
                />
                <Select
                  label="E-mail"
                  aria-label={`E-mail for ${t.name}`}
                  data={MODES}
                  value={t.askEmail}
                  allowDeselect={false}
                  disabled={readOnly}
                  onChange={(v) => v && void setMode(t.ticketTypeId, 'askEmail', v as AttendeeFieldMode)}
                  style={{ flex: '1 1 140px' }}
                  data-testid={`ask-email-${t.name}`}
                />
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      <Group align="flex-end" mt="md" gap="sm" wrap="wrap">
        <TextInput
          type="datetime-local"
          label="Buyers may change their answers until"
          description={
            settings.data?.effectiveDeadline
              ? `Now: ${formatInZone(settings.data.effectiveDeadline, event.details.timeZone)}${settings.data.answersDeadline ? '' : ' (the event’s start)'}`
              : 'Empty: until the event starts.'
          }
          value={deadline}
          onChange={(e) => setDeadline(e.currentTarget.value)}
          disabled={readOnly}
          style={{ flex: '1 1 240px' }}
        />
        <Button variant="light" onClick={() => void saveDeadline()} disabled={readOnly} loading={save.isPending}>
          Save deadline
        </Button>
      </Group>
    </Card>
  );
}

/** An ISO instant as a datetime-local value in this browser's time. */
function toLocalInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function QuestionListCard({ event, readOnly }: { event: TEvent; readOnly: boolean }) {
  const list = useQuestions(event.id);
  const settings = useAttendeeSettings(event.id);
  const reorder = useReorderQuestions(event.id);
  const remove = useRemoveQuestion(event.id);
  const [editing, setEditing] = useState<TQuestion | null | undefined>(undefined);
  const [dragged, setDragged] = useState<string | null>(null);
  const questions = list.data?.result ?? [];
  const typeNames = new Map((settings.data?.ticketTypes ?? []).map((t) => [t.ticketTypeId, t.name]));

  const move = async (ids: string[]) => {
    try {
      await reorder.mutateAsync(ids);
    } catch (e) {
      notify.error('The order could not be saved', errorMessage(e));
    }
  };
  const moveBy = (i: number, by: -1 | 1) => {
    const ids = questions.map((q) => q.id);
    const j = i + by;
    if (j < 0 || j >= ids.length) return;
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    void move(ids);
  };
  const dropOn = (target: string) => {
    if (!dragged || dragged === target) return;
    const ids = questions.map((q) => q.id).filter((id) => id !== dragged);
    ids.splice(ids.indexOf(target) + (questions.findIndex((q) => q.id === dragged) < questions.findIndex((q) => q.id === target) ? 1 : 0), 0, dragged);
    setDragged(null);
    void move(ids);
  };
  const removeQuestion = async (q: TQuestion) => {
    const ok = await askConfirmDelete({
      title: 'Remove question',
      message: `Stop asking “${q.details.label}”? ${q.details.answerCount > 0 ? 'Its answers so far stay on the orders and in the exports.' : ''}`,
    });
    if (!ok) return;
    try {
      await remove.mutateAsync(q.id);
      notify.success('Question removed', q.details.label);
    } catch (e) {
      notify.error('The question could not be removed', errorMessage(e));
    }
  };

  return (
    <Card withBorder padding="lg" radius="md">
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <div>
          <Title order={3} fz="lg">
            Questions
          </Title>
          <Text fz="sm" c="dimmed">
            Asked at checkout, in this order. Drag a question, or use its arrows.
          </Text>
        </div>
        {!readOnly && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} data-testid="add-question">
            Add question
          </Button>
        )}
      </Group>
      {list.isPending ? (
        <Skeleton h={120} />
      ) : questions.length === 0 ? (
        <EmptyState icon={<IconMessageQuestion size={28} />} title="No questions yet" description="Ask about diets, T-shirt sizes, consent, or anything your event needs." />
      ) : (
        <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Questions">
          {questions.map((q, i) => (
            <Paper
              key={q.id}
              component="li"
              withBorder
              p="sm"
              radius="md"
              draggable={!readOnly}
              onDragStart={() => setDragged(q.id)}
              onDragOver={(e) => e.preventDefault()}
              onDrop={() => dropOn(q.id)}
              style={{ opacity: dragged === q.id ? 0.5 : 1 }}
              data-testid={`question-${i}`}
            >
              <Group wrap="wrap" align="flex-start" gap="sm" style={{ rowGap: 6 }}>
                {!readOnly && <IconGripVertical size={18} style={{ marginTop: 2, flex: 'none', cursor: 'grab', color: 'var(--mantine-color-dimmed)' }} aria-hidden />}
                <Stack gap={4} style={{ flex: '1 1 200px', minWidth: 0 }}>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {q.details.label}
                  </Text>
                  <Group gap={6} wrap="wrap">
                    <Badge variant="light">{QUESTION_KIND_LABELS[q.details.kind]}</Badge>
                    <Badge variant="outline" color="gray">
                      {q.details.scope === 'order' ? 'Once per order' : 'Each ticket'}
                    </Badge>
                    {q.details.required && (
                      <Badge variant="light" color="red">
                        Required
                      </Badge>
                    )}
                    {q.details.ticketTypeIds.length > 0 && (
                      <Badge variant="outline" color="gray" style={{ textTransform: 'none' }}>
                        {q.details.ticketTypeIds.map((id) => typeNames.get(id) ?? 'a ticket type').join(', ')}
                      </Badge>
                    )}
                  </Group>
                  {q.details.options.length > 0 && (
                    <Text fz="xs" c="dimmed">
                      {q.details.options.join(' · ')}
                    </Text>
                  )}
                </Stack>
                {!readOnly && (
                  <Group gap={2} wrap="nowrap" ml="auto">
                    <Tooltip label="Move up">
                      <ActionIcon variant="subtle" aria-label={`Move “${q.details.label}” up`} disabled={i === 0} onClick={() => moveBy(i, -1)}>
                        <IconArrowUp size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Move down">
                      <ActionIcon variant="subtle" aria-label={`Move “${q.details.label}” down`} disabled={i === questions.length - 1} onClick={() => moveBy(i, 1)}>
                        <IconArrowDown size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Edit">
                      <ActionIcon variant="subtle" aria-label={`Edit “${q.details.label}”`} onClick={() => setEditing(q)}>
                        <IconEdit size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Remove">
                      <ActionIcon variant="subtle" color="red" aria-label={`Remove “${q.details.label}”`} onClick={() => void removeQuestion(q)}>
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                )}
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      <QuestionModal
        eventId={event.id}
        question={editing}
        ticketTypes={(settings.data?.ticketTypes ?? []).map((t) => ({ value: t.ticketTypeId, label: t.name }))}
        onClose={() => setEditing(undefined)}
      />
    </Card>
  );
}

function AnswersReportCard({ eventId }: { eventId: string }) {
  const report = useAnswersReport(eventId);
  const questions = report.data?.questions ?? [];
  return (
    <Card withBorder padding="lg" radius="md" data-testid="answers-report">
      <Title order={3} fz="lg" mb={4}>
        Answers report
      </Title>
      <Text fz="sm" c="dimmed" mb="md">
        Paid orders’ answers. Every answer is also a column in the Tickets and Orders exports of this event.
      </Text>
      {report.isPending ? (
        <Skeleton h={80} />
      ) : questions.length === 0 ? (
        <Text fz="sm">No questions yet.</Text>
      ) : (
        <Stack gap="lg">
          {questions.map((q) => {
            const max = Math.max(1, ...q.choices.map((c) => c.count));
            return (
              <div key={q.questionId}>
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {q.label}
                    {q.removed && (
                      <Text span c="dimmed" fz="sm">
                        {' '}
                        (removed)
                      </Text>
                    )}
                  </Text>
                  <Text fz="sm" c="dimmed" style={{ flex: 'none' }}>
                    {q.answered} answer{q.answered === 1 ? '' : 's'}
                  </Text>
                </Group>
                {q.choices.length > 0 && (
                  <Stack gap={6} mt={6}>
                    {q.choices.map((c) => (
                      <div key={c.option}>
                        <Group justify="space-between" gap="xs" wrap="nowrap">
                          <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
                            {c.option}
                          </Text>
                          <Text fz="sm" fw={600}>
                            {c.count}
                          </Text>
                        </Group>
                        <Progress value={(c.count / max) * 100} size="sm" aria-label={`${c.option}: ${c.count}`} />
                      </div>
                    ))}
                  </Stack>
                )}
              </div>
            );
          })}
        </Stack>
      )}
    </Card>
  );
}
