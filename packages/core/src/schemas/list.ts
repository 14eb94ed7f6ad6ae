import { z } from 'zod';

// spec: reports-payouts-checkout §7 and §9: lists take cursor, limit, sort, filters on details.*
// fields (equality, >, <=, date ranges as a >= and <= pair) and answer {result, count, cursor}.
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

export const FILTER_OPS = ['=', '>', '>=', '<', '<='] as const;
export type FilterOp = (typeof FILTER_OPS)[number];
export type Filter = { field: string; op: FilterOp; value: string };

const FILTER_RE = /^(details\.[A-Za-z_][A-Za-z0-9_]*)(<=|>=|=|>|<)(.*)$/s;

// A filter on the wire is `field op value`. Several filters travel as the repeated query
// parameter `filters` or joined with ';' in one. A value is escaped so that any text survives:
// '\' and ';' anywhere get a '\' in front, and so does a first character that is '=', '<' or '>'
// (`details.n<\=5` is "less than '=5'", not "<= 5"). An unescaped value still reads as itself
// when it holds none of those, so `filters=details.url=acme` from spec §7 keeps working.

/** Escapes a filter value for the wire (see above). */
export function escapeFilterValue(value: string): string {
  return value.replace(/[\\;]/g, (c) => `\\${c}`).replace(/^[=<>]/, (c) => `\\${c}`);
}

/** Undoes escapeFilterValue: '\x' reads as 'x'; a '\' at the very end stays as it is. */
export function unescapeFilterValue(text: string): string {
  return text.replace(/\\([\s\S])/g, '$1');
}

/** Splits one `filters` parameter at each ';' that is not escaped; empty parts are dropped. */
export function splitFilters(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      current += c + text[i + 1]!;
      i++;
    } else if (c === ';') {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts.filter((p) => p.trim() !== '');
}

/** Parses "details.name=foo" (one filter, value escaped as on the wire) into its parts, or null. */
export function parseFilter(text: string): Filter | null {
  const m = FILTER_RE.exec(text.trimStart());
  if (!m) return null;
  return { field: m[1]!, op: m[2] as FilterOp, value: unescapeFilterValue(m[3]!) };
}

/** Every filter of a `filters` query parameter (a string or the repeated parameter), or the first malformed part. */
export function decodeFilters(param: string | readonly string[] | undefined): { filters: Filter[] } | { invalid: string } {
  if (param === undefined) return { filters: [] };
  const filters: Filter[] = [];
  for (const text of (typeof param === 'string' ? [param] : param).flatMap(splitFilters)) {
    const f = parseFilter(text);
    if (!f) return { invalid: text };
    filters.push(f);
  }
  return { filters };
}

/** Filters on the wire: one `filters` value each, the value escaped, so any text round-trips. */
export function encodeFilters(filters: Filter[]): string[] {
  return filters.map((f) => `${f.field}${f.op}${escapeFilterValue(f.value)}`);
}

export const ZListQuery = z.object({
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  sort: z
    .string()
    .max(100)
    .regex(/^-?details\.[A-Za-z_][A-Za-z0-9_]*$/, 'sort must be details.<field> or -details.<field>')
    .optional(),
  filters: z.union([z.string(), z.array(z.string())]).optional(),
});
export type TListQuery = z.input<typeof ZListQuery>;

export const zListResponse = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ result: z.array(item), count: z.number().int(), cursor: z.string().nullable() });

export type ListResponse<T> = { result: T[]; count: number; cursor: string | null };

export const zResource = <T extends z.ZodTypeAny>(details: T) => z.object({ id: z.string(), details });

export const ZSuccess = z.object({ success: z.literal(true) });

export const ZError = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    /** packages/core errors.ts DOMAIN_ERRORS: what clients switch on. */
    domainCode: z.string().optional(),
  }),
});
export type TError = z.infer<typeof ZError>;
