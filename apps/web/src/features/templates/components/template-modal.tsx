import { Anchor, Badge, Button, FileInput, Group, Image, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { M, TEMPLATE_REQUIRED_FILES, TEMPLATE_THUMBNAIL_MAX_BYTES, ZSiteTemplateFields, type TSiteTemplate } from '@marquee/core';
import { IconDownload, IconFileZip, IconPhoto } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { applyServerFields, useResetForm, zodValidate } from '../../../ui/zod-form';
import { templatesApi } from '../api';
import { TemplateFileRefused, useSaveTemplate } from '../mutations';
import { useTemplateVersions } from '../queries';
import { templateToast } from '../toasts';
import { FormModal } from '../../../ui/form-modal';

type Values = { name: string; description: string; thumbnail: File | null; zip: File | null };
const EMPTY: Values = { name: '', description: '', thumbnail: null, zip: null };

const isZipName = (f: File) => /\.zip$/i.test(f.name);

/** spec §5 Template: name, description; on create a thumbnail and a zip; the thumbnail an image of at most 20MB. */
function validate(mode: 'create' | 'edit') {
  const fields = zodValidate<Values, typeof ZSiteTemplateFields>(ZSiteTemplateFields, (v) => ({ name: v.name, description: v.description }));
  return (values: Values) => {
    const errors: Record<string, React.ReactNode> = { ...fields(values) };
    if (mode === 'create' && !values.thumbnail) errors.thumbnail = M.templateThumbnail;
    if (values.thumbnail && !values.thumbnail.type.startsWith('image/')) errors.thumbnail = M.templateImageType;
    else if (values.thumbnail && values.thumbnail.size > TEMPLATE_THUMBNAIL_MAX_BYTES) errors.thumbnail = M.templateImageSize;
    if (mode === 'create' && !values.zip) errors.zip = M.templateZip;
    if (values.zip && !isZipName(values.zip)) errors.zip = M.templateZip;
    return errors;
  };
}

async function download(templateId: string, version: string) {
  try {
    const url = await templatesApi.fetchUrl(templateId, version);
    const a = document.createElement('a');
    a.href = url;
    a.download = `template-${version}.zip`;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } catch (e) {
    notify.error('Download failed', errorMessage(e));
  }
}

export type TemplateModalProps = { mode: 'create' | 'edit' | null; template: TSiteTemplate | null; onClose: () => void };

/** spec: accounts §2 screen 18: the create/edit modal; §4 a new zip raises the version by one. */
export function TemplateModal({ mode, template, onClose }: TemplateModalProps) {
  const save = useSaveTemplate();
  // After a create whose file was refused the template exists: saving again updates it.
  const [createdId, setCreatedId] = useState<string | null>(null);
  const editingId = template?.id ?? createdId;
  const effectiveMode = mode === 'edit' || createdId ? 'edit' : 'create';
  const form = useForm<Values>({ initialValues: EMPTY, validate: validate(effectiveMode) });
  const versions = useTemplateVersions(mode === 'edit' ? (template?.id ?? null) : createdId);

  useResetForm(form, mode && `${mode}:${template?.id ?? ''}`, () => {
    setCreatedId(null);
    return mode === 'edit' && template ? { ...EMPTY, name: template.details.name, description: template.details.description } : EMPTY;
  });

  const submit = form.onSubmit(
    (values) => {
      const creating = effectiveMode === 'create';
      save.mutate(
        { templateId: editingId, fields: { name: values.name, description: values.description, version: template?.details.version ?? undefined }, zip: values.zip, thumbnail: values.thumbnail },
        {
          onSuccess: () => {
            if (creating) templateToast.uploaded();
            else templateToast.updated();
            onClose();
          },
          onError: (e) => {
            if (e instanceof TemplateFileRefused) {
              if (!editingId) setCreatedId(e.templateId);
              // The refused file is cleared first: changing a value clears its field's error.
              form.setFieldValue(e.step, null);
              form.setFieldError(e.step, errorMessage(e.cause));
              if (creating) templateToast.createFailed(e.cause);
              else templateToast.updateFailed(e.cause);
              return;
            }
            applyServerFields(form, e, (k) => k.replace(/^siteTemplateRequest\./, ''));
            if (creating) templateToast.createFailed(e);
            else templateToast.updateFailed(e);
          },
        },
      );
    },
    () => templateToast.invalid(),
  );

  const current = template?.details.version ?? (versions.data?.result[0]?.version ?? null);
  const next = current ? `v${Number(current.slice(1)) + 1}` : 'v1';
  const title = effectiveMode === 'create' ? 'Add Template' : 'Edit Template';
  const pending = save.isPending;

  return (
    <FormModal dirty={form.isDirty()} busy={pending} opened={mode !== null} onClose={onClose} title={title} size="lg" centered>
      <form onSubmit={submit} noValidate aria-label={title}>
        <Stack gap="md">
          <TextInput label="Template name" required data-autofocus {...form.getInputProps('name')} />
          <Textarea label="Description" required autosize minRows={2} maxRows={5} {...form.getInputProps('description')} />
          <Group align="flex-start" gap="md" wrap="nowrap">
            {template?.details.thumbnail && !form.values.thumbnail && (
              <Image src={template.details.thumbnail} alt="" w={72} h={72} radius="sm" fit="cover" style={{ flex: 'none' }} />
            )}
            <FileInput
              style={{ flex: 1 }}
              label="Thumbnail"
              description="An image, at most 20 MB."
              required={effectiveMode === 'create'}
              accept="image/*"
              clearable
              leftSection={<IconPhoto size={16} />}
              placeholder={effectiveMode === 'create' ? 'Choose an image' : 'Keep the current thumbnail'}
              {...form.getInputProps('thumbnail')}
            />
          </Group>
          <FileInput
            label="Template ZIP"
            description={
              current
                ? `Current version ${current}. Choosing a new ZIP makes ${next}; without one the version stays.`
                : `Must contain ${TEMPLATE_REQUIRED_FILES.join(', ')}.`
            }
            required={effectiveMode === 'create'}
            accept=".zip,application/zip"
            clearable
            leftSection={<IconFileZip size={16} />}
            placeholder="Choose a ZIP file"
            {...form.getInputProps('zip')}
          />
          {(versions.data?.result.length ?? 0) > 0 && editingId && (
            <Stack gap={4}>
              <Text fz="sm" fw={500}>
                Versions
              </Text>
              <Table withTableBorder verticalSpacing={6} fz="sm" aria-label="Versions">
                <Table.Tbody>
                  {versions.data!.result.map((v, i) => (
                    <Table.Tr key={v.version}>
                      <Table.Td>
                        <Group gap="xs">
                          <Text fz="sm" fw={600}>
                            {v.version}
                          </Text>
                          {i === 0 && (
                            <Badge size="xs" variant="light">
                              current
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td c="dimmed">{new Date(v.dateCreated).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}</Table.Td>
                      <Table.Td c="dimmed">{(v.size / 1024).toFixed(1)} KB</Table.Td>
                      <Table.Td ta="right">
                        <Anchor component="button" type="button" fz="sm" onClick={() => void download(editingId, v.version)} aria-label={`Download ${v.version}`}>
                          <Group gap={4}>
                            <IconDownload size={14} /> Download
                          </Group>
                        </Anchor>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          )}
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}
