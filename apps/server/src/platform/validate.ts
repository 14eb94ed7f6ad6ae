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

/**
 * Whether a request's value holds any text findInvalidText would name: the same walk, without the
 * paths and arrays it builds. Every request's params, query and body are checked (app.ts); nearly
 * all are fine, so the path is only worked out for the few that are not (issue 23 perreq).
 */
export function hasInvalidText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return !isStorableText(value);
  if (!value || typeof value !== 'object' || Buffer.isBuffer(value) || value instanceof Readable) return false;
  // Deeper than any body a route takes: the exact walk decides (it has no recursion limit).
  if (depth > 64) return findInvalidText(value) !== null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (hasInvalidText(value[i], depth + 1)) return true;
    return false;
  }
  for (const k of Object.keys(value)) {
    if (!isStorableText(k) || hasInvalidText((value as Record<string, unknown>)[k], depth + 1)) return true;
  }
  return false;
}
