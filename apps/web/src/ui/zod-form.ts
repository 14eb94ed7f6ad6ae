import type { FormErrors } from '@mantine/form';
import type { z } from 'zod';

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

/** Maps server field errors ({fields}) onto a form, for checks only the server can make. */
export function applyServerFields(form: { setFieldError: (path: string, error: string) => void }, fields: Record<string, string>) {
  for (const [key, message] of Object.entries(fields)) form.setFieldError(key, message);
}
