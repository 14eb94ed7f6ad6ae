import { Readable } from 'node:stream';
import { isStorableText, M } from '@marquee/core';
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

/**
 * Where the first U+0000 or lone surrogate sits in a request's params, query or parsed body
 * ('eventId', 'details.name', ...), or null. PostgreSQL text cannot hold U+0000, and a lone
 * surrogate is not Unicode at all (PostgreSQL's JSON refuses it): a value carrying either would
 * fail its statement (a 500) or be stored mangled instead of being refused as bad input.
 * Raw bodies (Buffers, and streams such as a template zip's upload) are not text.
 */
export function findInvalidText(value: unknown): string | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (!isStorableText(v)) return path || '_';
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v) && !(v instanceof Readable)) {
      // Pushed last to first, so the first offending value in document order is found first.
      for (const [k, child] of Object.entries(v).reverse()) {
        const at = path ? `${path}.${k}` : k;
        if (!isStorableText(k)) return at;
        stack.push([child, at]);
      }
    }
  }
  return null;
}
