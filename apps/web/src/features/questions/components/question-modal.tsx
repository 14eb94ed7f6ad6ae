import { Button, Group, Modal, MultiSelect, SegmentedControl, Select, Stack, Switch, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { CHOICE_KINDS, QUESTION_KIND_LABELS, QUESTION_KINDS, ZQuestionDetails, type QuestionKind, type QuestionScope, type TQuestion } from '@marquee/core';
import { useState } from 'react';
import { errorMessage, isApiError, isBadInput } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { useSaveQuestion } from '../queries';

export type QuestionModalProps = {
  eventId: string;
  /** null: a new question; undefined: closed. */
  question: TQuestion | null | undefined;
  ticketTypes: Array<{ value: string; label: string }>;
  onClose: () => void;
};

type Draft = { label: string; kind: QuestionKind; helpText: string; required: boolean; scope: QuestionScope; options: string[]; ticketTypeIds: string[] };
const EMPTY: Draft = { label: '', kind: 'shortText', helpText: '', required: false, scope: 'order', options: [], ticketTypeIds: [] };

/** Adds or edits a question (issue 24); checked by core's ZQuestionDetails, the server's schema. */
export function QuestionModal({ eventId, question, ticketTypes, onClose }: QuestionModalProps) {
  return (
    <Modal opened={question !== undefined} onClose={onClose} title={question ? 'Edit question' : 'Add question'} size="lg">
      {question !== undefined && <QuestionForm key={question?.id ?? 'new'} eventId={eventId} question={question} ticketTypes={ticketTypes} onClose={onClose} />}
    </Modal>
  );
}

function QuestionForm({ eventId, question, ticketTypes, onClose }: Omit<QuestionModalProps, 'question'> & { question: TQuestion | null }) {
  const [draft, setDraft] = useState<Draft>(question ? { ...question.details } : EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveQuestion(eventId);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const choice = CHOICE_KINDS.includes(draft.kind);
  const answered = question?.details.answerCount ?? 0;

  const submit = async () => {
    const parsed = ZQuestionDetails.safeParse(draft);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? 'label'), i.message])));
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ id: question?.id ?? null, details: parsed.data });
      notify.success(question ? 'Question saved' : 'Question added', parsed.data.label);
      onClose();
    } catch (e) {
      if (isApiError(e) && isBadInput(e)) setErrors(Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [k.replace(/^details\./, ''), v])));
      else notify.error('The question could not be saved', errorMessage(e));
    }
  };

  return (
    <Stack gap="md">
      {answered > 0 && (
        <Text fz="sm" c="dimmed">
          {answered} answer{answered === 1 ? '' : 's'} so far. They keep the wording they were given under; new buyers see your change.
        </Text>
      )}
      <TextInput label="Question" required value={draft.label} onChange={(e) => set('label', e.currentTarget.value)} error={errors.label} maxLength={200} data-autofocus data-testid="question-label" />
      <Select
        label="Answer type"
        data={QUESTION_KINDS.map((k) => ({ value: k, label: QUESTION_KIND_LABELS[k] }))}
        value={draft.kind}
        onChange={(v) => v && set('kind', v as QuestionKind)}
        allowDeselect={false}
        error={errors.kind}
        data-testid="question-kind"
      />
      {choice && (
        <TagsInput
          label="Options"
          description="Type an option and press Enter."
          value={draft.options}
          onChange={(v) => set('options', v)}
          error={errors.options}
          data-testid="question-options"
        />
      )}
      <Textarea label="Help text" description="Shown under the question." value={draft.helpText} onChange={(e) => set('helpText', e.currentTarget.value)} error={errors.helpText} maxLength={500} autosize minRows={2} />
      <Stack gap={4}>
        <Text fz="sm" fw={500} id="question-scope-label">
          Asked
        </Text>
        <SegmentedControl
          aria-labelledby="question-scope-label"
          value={draft.scope}
          onChange={(v) => set('scope', v as QuestionScope)}
          data={[
            { value: 'order', label: 'Once per order' },
            { value: 'ticket', label: 'For each ticket' },
          ]}
        />
      </Stack>
      <MultiSelect
        label="Ticket types"
        description="Leave empty to ask with every ticket type."
        data={ticketTypes}
        value={draft.ticketTypeIds}
        onChange={(v) => set('ticketTypeIds', v)}
        error={errors.ticketTypeIds}
        clearable
      />
      <Switch label={draft.kind === 'checkbox' ? 'Required (the buyer must tick it)' : 'Required'} checked={draft.required} onChange={(e) => set('required', e.currentTarget.checked)} data-testid="question-required" />
      <Group justify="flex-end" mt="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} loading={save.isPending} data-testid="question-save">
          {question ? 'Save' : 'Add question'}
        </Button>
      </Group>
    </Stack>
  );
}
