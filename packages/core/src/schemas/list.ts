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

/** Parses "details.name=foo" (one filter) into its parts, or null. */
export function parseFilter(text: string): Filter | null {
  const m = FILTER_RE.exec(text.trim());
  if (!m) return null;
  return { field: m[1]!, op: m[2] as FilterOp, value: m[3]! };
}

/** Filters on the wire: one query parameter `filters`, repeated, or joined with `;`. */
export function encodeFilters(filters: Filter[]): string[] {
  return filters.map((f) => `${f.field}${f.op}${f.value}`);
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
  }),
});
export type TError = z.infer<typeof ZError>;
