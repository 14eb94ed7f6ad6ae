import { type SQL, sql } from 'drizzle-orm';

// The CSV cells of csv.ts computed by PostgreSQL, for `COPY (…) TO STDOUT WITH (FORMAT csv)`:
// each expression gives a cell's text exactly as csv.ts's `cell` writes it before quoting, and an
// empty cell as NULL (COPY writes an empty string as "" but NULL as nothing). COPY then quotes a
// cell that holds a comma, a quote or a line break and doubles its quotes, as csv.ts's `quote`
// does. csv-sql.test.ts compares both writers byte for byte.

const raw = (expr: string | SQL): SQL => (typeof expr === 'string' ? sql.raw(expr) : expr);

/** A constant text as an SQL literal (our own labels, never user input). */
export const literal = (text: string): SQL => sql.raw(`'${text.replace(/'/g, "''")}'`);

/** csv.ts `escapeCell`: text that starts with = + - @, a tab or a carriage return gets a leading apostrophe. */
export function textSql(expr: string | SQL): SQL {
  const x = raw(expr);
  // ascii() is the first character's code point (0 for ''): = + - @ tab CR. Three times faster than left(…, 1) in (…).
  return sql`(case when ascii(${x}) in (61, 43, 45, 64, 9, 13) then '''' || ${x} else ${x} end)`;
}

/** csv.ts `moneyCell`: cents as plain dollars, 123456 -> 1234.56, -250 -> -2.50 (a missing figure is 0). */
export function moneySql(expr: string | SQL): SQL {
  // An integer times 0.01 is a numeric of scale 2, which prints as 1234.56, 0.05, -2.50: exact, and
  // faster than building the text from the quotient and the remainder.
  return sql`(coalesce(${raw(expr)}, 0) * 0.01)::text`;
}

/** A count, as String(number) writes it. */
export const numberSql = (expr: string | SQL): SQL => sql`coalesce(${raw(expr)}, 0)::bigint::text`;

/** A timestamp as Date.toISOString() writes it: UTC, milliseconds truncated from the microseconds. */
export const isoSql = (expr: string | SQL): SQL => sql`to_char(${raw(expr)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** One of two labels after a boolean (a NULL reads as false, as the list's `bool` does). */
export const labelSql = (expr: string | SQL, yes: string, no: string): SQL => sql`(case when ${raw(expr)} then ${literal(yes)} else ${literal(no)} end)`;

/** `[first, last].filter(Boolean).join(' ')`. */
export const fullNameSql = (first: string, last: string): SQL => sql`concat_ws(' ', nullif(${raw(first)}, ''), nullif(${raw(last)}, ''))`;

/**
 * packages/core refundStatusLabel: the part before '#', underscores as spaces, each word's first
 * letter upper-cased (statuses are our own lower-case ASCII words).
 */
export const refundStatusSql = (expr: string): SQL =>
  sql`array_to_string(array(select upper(left(w, 1)) || substr(w, 2)
    from unnest(string_to_array(replace(split_part(${raw(expr)}, '#', 1), '_', ' '), ' ')) with ordinality as u(w, i) order by i), ' ')`;
