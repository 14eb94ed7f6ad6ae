import { decodeFilters, type Filter, type TListQuery, ZListQuery, type ListResponse } from '@marquee/core';
import { and, type Column, type SQL, sql } from 'drizzle-orm';
import { badRequest } from './errors.js';

// The one list-query implementation (architecture rule 3): cursor, limit, sort and filters on
// details.* fields, parsed against a per-resource whitelist and compiled to SQL with keyset
// pagination. Values always travel as bound parameters.

export type FieldType = 'text' | 'number' | 'boolean' | 'timestamp' | 'date';

export type ListField = {
  /** A column or a non-null SQL expression. Sortable expressions must never be null. */
  expr: Column | SQL;
  type: FieldType;
  /** For text search boxes: '=' matches case-insensitively anywhere in the value. */
  match?: 'exact' | 'contains';
  sortable?: boolean;
  /**
   * A condition of its own instead of `expr op value` (the value parsed for `type`), for filters
   * that are not a comparison of one column: a search across several, a match in a child table.
   */
  where?: (value: string, op: Filter['op']) => SQL;
};

export type ListSpec = {
  /** Keyed by the wire name, e.g. 'details.name'. */
  fields: Record<string, ListField>;
  /** The unique tiebreaker, e.g. the table's id column. */
  id: Column | SQL;
  defaultSort: `${'' | '-'}details.${string}`;
};

export type CompiledList = {
  limit: number;
  /** The filters only: use it for the count. */
  where: SQL | undefined;
  /** Filters plus the keyset position: use it for the page. */
  pageWhere: SQL | undefined;
  orderBy: SQL[];
  /** Select these as _sort and _id so the next cursor can be built. */
  sortKey: SQL;
  idKey: SQL;
  page<Row extends { _sort: unknown; _id: unknown }, Out>(rows: Row[], count: number, map: (row: Row) => Out): ListResponse<Out>;
};

function castFor(type: FieldType): SQL {
  switch (type) {
    case 'text':
      return sql.raw('text');
    case 'number':
      return sql.raw('numeric');
    case 'boolean':
      return sql.raw('boolean');
    case 'timestamp':
      return sql.raw('timestamptz');
    case 'date':
      return sql.raw('date');
  }
}

function parseValue(field: string, type: FieldType, raw: string): string {
  const value = raw.trim();
  const bad = () => badRequest(`Invalid filter value for ${field}.`);
  switch (type) {
    case 'text':
      return value;
    case 'number':
      if (!/^-?\d+(\.\d+)?$/.test(value)) throw bad();
      return value;
    case 'boolean': {
      const v = value.toLowerCase();
      // spec: reports §5: Ticket Used search accepts yes or true, no or false
      if (v === 'true' || v === 'yes') return 'true';
      if (v === 'false' || v === 'no') return 'false';
      throw bad();
    }
    case 'timestamp':
    case 'date': {
      const date = /^\d+$/.test(value) ? new Date(Number(value)) : new Date(value);
      // JavaScript dates reach year 275760; PostgreSQL's casts take four-digit years only.
      if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) throw bad();
      return type === 'date' ? date.toISOString().slice(0, 10) : date.toISOString();
    }
  }
}

function encodeCursor(sortValue: unknown, id: unknown): string {
  const v = sortValue instanceof Date ? sortValue.toISOString() : sortValue;
  return Buffer.from(JSON.stringify([v, String(id)])).toString('base64url');
}

function decodeCursor(cursor: string): [unknown, string] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[1] === 'string') return [parsed[0], parsed[1]];
  } catch {
    // fall through
  }
  throw badRequest('Invalid cursor.');
}

const isCalendarDate = (y: number, m: number, d: number) => {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
};

const TIMESTAMP_TEXT = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2}){0,2})?$/;

/** A cursor comes back from the client: its sort value must fit the field, or the SQL cast fails. */
function cursorValueFits(type: FieldType, v: unknown): boolean {
  switch (type) {
    case 'text':
      return typeof v === 'string';
    case 'number':
      return (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v));
    case 'boolean':
      return typeof v === 'boolean';
    case 'timestamp': {
      const m = typeof v === 'string' ? TIMESTAMP_TEXT.exec(v) : null;
      return !!m && isCalendarDate(+m[1]!, +m[2]!, +m[3]!) && +m[4]! < 24 && +m[5]! < 60 && +m[6]! < 60;
    }
    case 'date': {
      const m = typeof v === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(v) : null;
      return !!m && isCalendarDate(+m[1]!, +m[2]!, +m[3]!);
    }
  }
}

/** Filter values arrive escaped (core's encodeFilters), so ';' and any other text in a search round-trip. */
function filterList(filters: TListQuery['filters']): Filter[] {
  const decoded = decodeFilters(filters);
  if ('invalid' in decoded) throw badRequest(`Invalid filter: ${decoded.invalid}`);
  return decoded.filters;
}

export function compileList(spec: ListSpec, rawQuery: unknown): CompiledList {
  const parsed = ZListQuery.safeParse(rawQuery ?? {});
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid list query.');
  const query = parsed.data;

  const conditions: SQL[] = [];
  for (const f of filterList(query.filters)) {
    const field = spec.fields[f.field];
    if (!field) throw badRequest(`Filtering on ${f.field} is not supported.`);
    const value = parseValue(f.field, field.type, f.value);
    if (field.where) {
      conditions.push(field.where(value, f.op));
      continue;
    }
    if (field.type === 'text' && field.match === 'contains' && f.op === '=') {
      const escaped = value.replace(/[\\%_]/g, (c) => `\\${c}`);
      conditions.push(sql`${field.expr}::text ilike ${`%${escaped}%`}`);
      continue;
    }
    const cast = castFor(field.type);
    conditions.push(sql`${field.expr} ${sql.raw(f.op)} ${value}::${cast}`);
  }
  const where = conditions.length ? and(...conditions) : undefined;

  const sortText = query.sort ?? spec.defaultSort;
  const desc = sortText.startsWith('-');
  const sortName = desc ? sortText.slice(1) : sortText;
  const sortField = spec.fields[sortName];
  if (!sortField || sortField.sortable === false) throw badRequest(`Sorting on ${sortName} is not supported.`);
  const sortExpr = sql`${sortField.expr}`;
  // Timestamps travel in the cursor as text so that microseconds survive the round trip.
  const sortKey = sortField.type === 'timestamp' ? sql`${sortField.expr}::text` : sortExpr;
  const idKey = sql`${spec.id}::text`;
  const dir = sql.raw(desc ? 'desc' : 'asc');
  const orderBy = [sql`${sortExpr} ${dir}`, sql`${idKey} ${dir}`];

  let pageWhere = where;
  if (query.cursor) {
    const [value, id] = decodeCursor(query.cursor);
    if (!cursorValueFits(sortField.type, value)) throw badRequest('Invalid cursor.');
    const cast = castFor(sortField.type);
    const cmp = sql.raw(desc ? '<' : '>');
    const after = sql`(${sortExpr}, ${idKey}) ${cmp} (${value}::${cast}, ${id}::text)`;
    pageWhere = where ? and(where, after) : after;
  }

  const limit = query.limit;
  return {
    limit,
    where,
    pageWhere,
    orderBy,
    sortKey,
    idKey,
    page(rows, count, map) {
      const hasMore = rows.length > limit;
      const pageRows = hasMore ? rows.slice(0, limit) : rows;
      const last = pageRows[pageRows.length - 1];
      return {
        result: pageRows.map(map),
        count,
        cursor: hasMore && last ? encodeCursor(last._sort, last._id) : null,
      };
    },
  };
}
