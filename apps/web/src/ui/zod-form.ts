import type { FormErrors } from '@mantine/form';
import { useEffect } from 'react';
import type { z } from 'zod';
import { isApiError } from './api-client';

/**
 * A @mantine/form `validate` function from a zod schema in @marquee/core, so every form shows the
 * spec's exact messages, written once. `prepare` maps form values to the schema's input (for
 * example '' to null) when they differ.
 */
export function zodValidate<V, S extends z.ZodType>(schema: S, prepare?: (values: V) => unknown) {
  return (values: V): FormErrors => {
    const result = schema.safeParse(prepare ? prepare(values) : values);
    if (result.success) return {};
    const errors: FormErrors = {};
    for (const issue of result.error.issues) {
      const key = issue.path.map(String).join('.');
      if (key && errors[key] === undefined) errors[key] = issue.message;
    }
    return errors;
  };
}

/**
 * Puts the server's field messages ({fields} of an API error) on the form's fields, for checks only
 * the server can make. `rename` maps a server field path to the form's where they differ.
 */
export function applyServerFields(form: { setFieldError: (path: string, error: string) => void }, error: unknown, rename: (path: string) => string = (p) => p) {
  if (!isApiError(error)) return;
  for (const [key, message] of Object.entries(error.fields)) form.setFieldError(rename(key), message);
}

/**
 * Makes `values()` the form's clean state (not dirty, no errors) each time `key` changes to
 * something, such as the id of the record a modal opens; a null or undefined key (closed) does nothing.
 */
export function useResetForm<V>(
  form: { setInitialValues: (v: V) => void; setValues: (v: V) => void; resetDirty: (v: V) => void; resetTouched: () => void; clearErrors: () => void },
  key: string | null | undefined,
  values: () => V,
) {
  useEffect(() => {
    if (key == null) return;
    const v = values();
    form.setInitialValues(v);
    form.setValues(v);
    // The form remembers which fields were edited before (isDirty() reads that first), so a
    // cancelled edit would otherwise leave the next record's Save enabled.
    form.resetDirty(v);
    form.resetTouched();
    form.clearErrors();
  }, [key]);
}
