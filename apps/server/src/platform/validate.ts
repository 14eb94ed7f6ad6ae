import { M } from '@marquee/core';
import type { z } from 'zod';
import { AppError } from './errors.js';

/**
 * Validates a value a route could not type up front (a body with two accepted shapes) and fails
 * exactly like route validation does: 400 {error:{code:'VALIDATION', message, fields}}.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  throw new AppError('VALIDATION', parsed.error.issues[0]?.message ?? M.inputValidationError, fields);
}
