import { sql } from 'drizzle-orm';
import type { TestServer } from './harness.js';

// The API as the OpenAPI document served at /api/docs/openapi.json describes it: the fuzz suite and
// the cross-tenant matrix both enumerate its operations, so a new route is in them without anyone
// adding it.

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  nullable?: boolean;
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
};

export type Param = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema: JsonSchema };

export type Operation = {
  method: string;
  /** The OpenAPI path, `{name}` for path parameters. */
  path: string;
  params: Param[];
  body?: { contentType: string; schema: JsonSchema };
};

export async function loadOperations(server: TestServer): Promise<Operation[]> {
  const res = await server.client().get('/api/docs/openapi.json');
  if (res.status !== 200) throw new Error(`openapi.json: ${res.status}`);
  const doc = res.body as { paths: Record<string, Record<string, { parameters?: Param[]; requestBody?: { content?: Record<string, { schema: JsonSchema }> } }>> };
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (method === 'head') continue;
      const content = Object.entries(op.requestBody?.content ?? {})[0];
      out.push({
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        body: content ? { contentType: content[0], schema: content[1].schema } : undefined,
      });
    }
  }
  return out;
}

export const pathParamsOf = (op: Operation) => [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** Percent-encodes; a lone surrogate (which UTF-8 cannot carry) goes as its ill-formed bytes ED A0 80. */
export function encode(v: string): string {
  return v.split(/([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/).map((part, i) => (i % 2 ? '%ED%A0%80' : encodeURIComponent(part))).join('');
}

export function urlOf(op: Operation, values: Record<string, string>, query: Array<[string, string]> = []) {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encode(values[name] ?? ''));
  const qs = query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
  return qs ? `${path}?${qs}` : path;
}

const UUID_SHAPE = /uuid|\[0-9a-f\]\{8\}/i;

/** A value the schema accepts (as far as a generator can tell): required properties, sizes, enums, formats. */
export function exampleOf(schema: JsonSchema | undefined, name = '', ids: Record<string, string> = {}, opts: { requiredOnly?: boolean } = {}): unknown {
  if (!schema) return {};
  if (schema.const !== undefined) return schema.const;
  if (NAMED[name] && !ids[name]) return NAMED[name];
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined && schema.type !== 'object') return schema.default;
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt?.length) return exampleOf(alt.find((s) => s.type !== 'null') ?? alt[0], name, ids, opts);
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map((s) => exampleOf(s, name, ids, opts)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, s] of Object.entries(schema.properties ?? {})) {
        if (opts.requiredOnly && !schema.required?.includes(k) && !(k in ids) && !(k in NAMED)) continue;
        out[k] = exampleOf(s, k, ids, opts);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(schema.minItems ?? 0, 1) }, () => exampleOf(schema.items, name, ids, opts));
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
      return Math.max(min, Math.min(schema.maximum ?? 1, 1));
    }
    case 'boolean':
      return false;
    case 'string':
      return stringExample(schema, name, ids);
    default:
      return null;
  }
}

/** Fields whose valid values a schema cannot say (checked in code): a value that passes. */
const NAMED: Record<string, string> = { timeZone: 'America/New_York', state: 'NY', firstName: 'Ada', lastName: 'Lovelace', phone: '+15551234567', country: 'USA' };

function stringExample(schema: JsonSchema, name: string, ids: Record<string, string>): string {
  if (ids[name]) return ids[name]!;
  if (NAMED[name]) return NAMED[name]!;
  const f = schema.format;
  if (f === 'uuid' || UUID_SHAPE.test(schema.pattern ?? '')) return '00000000-0000-4000-8000-000000000001';
  if (f === 'email' || /email/i.test(name) || /@/.test(schema.pattern ?? '')) return 'fuzz@example.test';
  if (f === 'uri' || /url$/i.test(name) && !/^url$/i.test(name)) return 'http://example.test/x';
  // Issue 28: a calendar date or a wall-clock time (the series' schedule) by their formats first.
  if (f === 'date') return '2030-01-01';
  if (f === 'time' || (schema.pattern ?? '').startsWith('^(?:[01]\\d|2[0-3]):')) return '10:00';
  if (f === 'date-time' || /date|At$/i.test(name)) return '2030-01-01T00:00:00.000Z';
  if (f === 'date' || /^(from|to)$/.test(name) || /\\d\{4\}-/.test(schema.pattern ?? '')) return '2030-01-01';
  if (/phone/i.test(name)) return '+15551234567';
  if (/zip/i.test(name)) return '10001';
  if (/password/i.test(name)) return 'Sup3r-secret!x';
  if (schema.pattern === '^\\d+$') return '1'.repeat(Math.max(schema.minLength ?? 1, 1));
  const base = 'fuzz';
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 40;
  return (base.length >= min ? base : base.padEnd(min, 'x')).slice(0, Math.max(max, min));
}

/**
 * Row counts of the tables a write changes (tenant-owned data, accounts, memberships, the catalogue
 * of charities and rules): a refused request must leave every one as it was. Sessions, jobs, the
 * outbox and the rate/failure counters are left out: a refused sign-in legitimately counts a failure.
 */
export const WRITE_TABLES = [
  'tenants', 'tenant_sites', 'tenant_former_urls', 'tenant_charities', 'payment_settings', 'ticket_settings', 'surcharge_rules',
  'events', 'ticket_types', 'discount_codes', 'orders', 'order_lines', 'tickets', 'refunds', 'order_actions', 'subscribers',
  'report_exports', 'memberships', 'invites', 'users', 'policies', 'charities', 'global_surcharge_rules', 'global_ticket_settings',
  'checkin_scans', 'payment_accounts', 'test_connect_accounts', 'test_account_links',
  'event_questions', 'ticket_type_attendee_fields', 'event_answer_settings', 'order_attendees', 'order_answers',
] as const;

export async function rowCounts(server: TestServer): Promise<Record<string, number>> {
  const q = WRITE_TABLES.map((t) => `select '${t}' as t, count(*)::int as n from ${t}`).join(' union all ');
  const res = (await server.app.deps.db.execute(sql.raw(q))) as unknown as { rows: Array<{ t: string; n: number }> };
  return Object.fromEntries(res.rows.map((r) => [r.t, Number(r.n)]));
}
