import { randomUUID } from 'node:crypto';
import { encodeFilters, type Filter } from '@marquee/core';
import { count, inArray, sql } from 'drizzle-orm';
import { boolean, date, integer, numeric, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenPlatformAdmin, givenUser, startServer, type Client, type TestServer } from '../../test/harness.js';
import { outbox } from '../db/schema/index.js';
import { compileList, type ListSpec } from './list-query.js';

// The one list implementation, through a real list route (the platform outbox) and, for the field
// types the outbox lacks, through compileList on a table made for this test.

let server: TestServer;
let admin: Client;

type Seeded = { id: string; to: string; subject: string; status: string; createdAt: Date };
const seeded: Seeded[] = [];
const base = Date.parse('2025-03-01T12:00:00.000Z');
const day = 86_400_000;

beforeAll(async () => {
  server = await startServer();
  const a = await givenPlatformAdmin(server);
  admin = server.client();
  await admin.login(a.email);
  // 30 messages over 10 days; three share each timestamp so the id must break ties; a few
  // timestamps carry microseconds, which must survive the cursor round trip.
  for (let i = 0; i < 30; i++) {
    const createdAt = new Date(base + Math.floor(i / 3) * day);
    seeded.push({
      id: randomUUID(),
      to: `${['alice', 'bob', 'carol'][i % 3]}-${i}@example.test`,
      subject: i === 0 ? '100% off' : i === 1 ? '1000 off' : i === 2 ? 'under_score' : `Message ${i}`,
      status: i % 2 ? 'kept' : 'sent',
      createdAt,
    });
  }
  await server.app.deps.db.insert(outbox).values(seeded.map((s) => ({ ...s, text: 'body' })));
  await server.app.deps.db.execute(sql`update outbox set created_at = created_at + interval '123 microseconds' where subject = 'Message 9'`);
});
afterAll(async () => {
  await server.close();
});

function query(params: Record<string, string | string[] | number | undefined>) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) q.append(k, String(one));
  }
  return `/api/platform/outbox?${q}`;
}

async function all(params: Record<string, string | string[] | number | undefined>) {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const res = await admin.get(query({ ...params, cursor }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages++;
    ids.push(...res.body.result.map((r: { id: string }) => r.id));
    if (!res.body.cursor) return { ids, pages, count: res.body.count as number };
    cursor = res.body.cursor;
    expect(pages).toBeLessThan(50);
  }
}

const byCreated = (a: Seeded, b: Seeded) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

describe('cursor pagination over the outbox', () => {
  it('returns every row exactly once, newest first by default', async () => {
    const { ids, pages, count: total } = await all({ limit: 7 });
    expect(total).toBe(30);
    expect(pages).toBe(5);
    expect(new Set(ids).size).toBe(30);
    expect(ids.sort()).toEqual(seeded.map((s) => s.id).sort());
    const first = await admin.get(query({ limit: 3 }));
    expect(first.body.result.map((r: { details: { subject: string } }) => r.details.subject)).toContain('Message 29');
  });

  it.each([
    ['details.dateCreated', 1],
    ['-details.dateCreated', -1],
  ])('sorted by %s the order is total and stable across pages', async (sort, dir) => {
    const { ids } = await all({ sort, limit: 4 });
    const expected = [...seeded].sort(byCreated).map((s) => s.id);
    // Message 9's microseconds move it after its two same-second siblings.
    const nine = seeded.find((s) => s.subject === 'Message 9')!;
    const withoutNine = expected.filter((id) => id !== nine.id);
    const lastOfDay = withoutNine.lastIndexOf(seeded.filter((s) => s.createdAt.getTime() === nine.createdAt.getTime() && s !== nine).sort(byCreated).at(-1)!.id);
    withoutNine.splice(lastOfDay + 1, 0, nine.id);
    expect(ids).toEqual(dir === 1 ? withoutNine : [...withoutNine].reverse());
  });

  it.each(['details.to', '-details.to', 'details.status', '-details.status', 'details.subject'])('sorted by %s every row comes once', async (sort) => {
    const { ids } = await all({ sort, limit: 6 });
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });

  it('pages filtered results exactly once and counts only the matches', async () => {
    const { ids, count: total } = await all({ filters: 'details.status=kept', limit: 4, sort: 'details.to' });
    const kept = seeded.filter((s) => s.status === 'kept').map((s) => s.id);
    expect(total).toBe(kept.length);
    expect(ids.sort()).toEqual(kept.sort());
  });

  it('answers a page of 100 and a last page with a null cursor', async () => {
    const res = await admin.get(query({ limit: 100 }));
    expect(res.status).toBe(200);
    expect(res.body.result).toHaveLength(30);
    expect(res.body.cursor).toBeNull();
    // Default page size 10 (spec: accounts §9 list default limit 10).
    const def = await admin.get(query({}));
    expect(def.body.result).toHaveLength(10);
    expect(def.body.cursor).toEqual(expect.any(String));
  });
});

describe('filters', () => {
  const ids = async (filters: string | string[]) => {
    const res = await admin.get(query({ filters, limit: 100 }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.count).toBe(res.body.result.length);
    return (res.body.result as Array<{ id: string }>).map((r) => r.id).sort();
  };
  const expectIds = (rows: Seeded[]) => rows.map((s) => s.id).sort();

  it('= on an exact field', async () => {
    expect(await ids('details.status=sent')).toEqual(expectIds(seeded.filter((s) => s.status === 'sent')));
  });

  it('= on a search field matches anywhere, in any case', async () => {
    expect(await ids('details.to=ALICE')).toEqual(expectIds(seeded.filter((s) => s.to.startsWith('alice'))));
  });

  it('treats % and _ in a search as themselves', async () => {
    expect(await ids('details.subject=100%')).toEqual(expectIds(seeded.filter((s) => s.subject === '100% off')));
    expect(await ids('details.subject=r_s')).toEqual(expectIds(seeded.filter((s) => s.subject === 'under_score')));
  });

  it('> and <= on a date', async () => {
    const cut = new Date(base + 4 * day).toISOString();
    expect(await ids(`details.dateCreated>${cut}`)).toEqual(expectIds(seeded.filter((s) => s.createdAt.getTime() > base + 4 * day)));
    expect(await ids(`details.dateCreated<=${cut}`)).toEqual(expectIds(seeded.filter((s) => s.createdAt.getTime() <= base + 4 * day)));
  });

  it('a date range as two filters, repeated or joined with ;', async () => {
    const from = new Date(base + 2 * day).toISOString();
    const to = new Date(base + 5 * day).toISOString();
    const expected = expectIds(seeded.filter((s) => s.createdAt.getTime() >= base + 2 * day && s.createdAt.getTime() <= base + 5 * day));
    expect(expected).toHaveLength(12);
    expect(await ids([`details.dateCreated>=${from}`, `details.dateCreated<=${to}`])).toEqual(expected);
    expect(await ids(`details.dateCreated>=${from};details.dateCreated<=${to}`)).toEqual(expected);
    // Epoch milliseconds work too.
    expect(await ids([`details.dateCreated>=${base + 2 * day}`, `details.dateCreated<=${base + 5 * day}`])).toEqual(expected);
  });

  it('combines filters with AND', async () => {
    expect(await ids(['details.to=bob', 'details.status=kept'])).toEqual(expectIds(seeded.filter((s) => s.to.startsWith('bob') && s.status === 'kept')));
  });

  it('passes values as data, never as SQL', async () => {
    expect(await ids("details.status=kept' or '1'='1")).toEqual([]);
    expect(await ids("details.to=x') or true --")).toEqual([]);
    // A ';' separates filters, so this one is not even a filter.
    const dropped = await admin.get(query({ filters: "details.to=x'); drop table outbox; --" }));
    expect(dropped.status).toBe(400);
    expect(dropped.body.error.message).toBe('Invalid filter:  drop table outbox');
    const [row] = await server.app.deps.db.select({ n: count() }).from(outbox);
    expect(row!.n).toBe(30);
  });
});

describe('bad list queries are 400, never 500', () => {
  const garbage = Buffer.from('not json').toString('base64url');
  const cursorOf = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  it.each([
    [{ filters: 'details.nope=1' }, 'Filtering on details.nope is not supported.'],
    [{ filters: 'details.html=x' }, 'Filtering on details.html is not supported.'],
    [{ filters: 'to=alice' }, 'Invalid filter: to=alice'],
    [{ filters: 'details.to~alice' }, 'Invalid filter: details.to~alice'],
    [{ filters: 'details.dateCreated>yesterday' }, 'Invalid filter value for details.dateCreated.'],
    [{ cursor: 'definitely not a cursor' }, 'Invalid cursor.'],
    [{ cursor: garbage }, 'Invalid cursor.'],
    [{ cursor: cursorOf({ a: 1 }) }, 'Invalid cursor.'],
    [{ cursor: cursorOf(['not a date', 'x']) }, 'Invalid cursor.'],
    [{ cursor: cursorOf([12, 'x']) }, 'Invalid cursor.'],
    [{ cursor: cursorOf([null, 'x']) }, 'Invalid cursor.'],
    [{ cursor: cursorOf(['2025-02-30 10:00:00+00', 'x']) }, 'Invalid cursor.'],
    [{ cursor: cursorOf(['2025-02-03 25:00:00+00', 'x']) }, 'Invalid cursor.'],
    [{ cursor: cursorOf([{ x: 1 }, 'x']), sort: 'details.to' }, 'Invalid cursor.'],
    [{ sort: 'details.nope' }, 'Sorting on details.nope is not supported.'],
    [{ sort: 'dateCreated' }, undefined],
    [{ limit: 101 }, undefined],
    [{ limit: 0 }, undefined],
    [{ limit: -5 }, undefined],
    [{ limit: 'ten' }, undefined],
    [{ limit: 2.5 }, undefined],
  ])('%o', async (params, message) => {
    const res = await admin.get(query(params as Record<string, string>));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.message).toEqual(expect.any(String));
    if (message) expect(res.body.error.message).toBe(message);
  });
});

describe('the outbox list is for platform staff', () => {
  it('is 401 without a session and 403 for a platform reports user', async () => {
    expect((await server.client().get(query({}))).status).toBe(401);
    const reporter = await givenUser(server, { platformRoles: ['platform_report'] });
    const c = server.client();
    await c.login(reporter.email);
    expect((await c.get(query({}))).status).toBe(403);
  });
});

// ---- the field types the outbox does not have -------------------------------------------------

const items = pgTable('lq_items', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  amount: integer('amount').notNull(),
  price: numeric('price', { precision: 10, scale: 2 }).notNull(),
  active: boolean('active').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
});

const ITEMS: ListSpec = {
  fields: {
    'details.name': { expr: items.name, type: 'text' },
    'details.amount': { expr: items.amount, type: 'number' },
    'details.price': { expr: items.price, type: 'number' },
    'details.active': { expr: items.active, type: 'boolean' },
    'details.day': { expr: items.day, type: 'date' },
  },
  id: items.id,
  defaultSort: 'details.name',
};

describe('compileList on number, boolean and date fields', () => {
  type Item = typeof items.$inferSelect;
  const rows: Item[] = [];
  beforeAll(async () => {
    await server.app.deps.db.execute(
      sql`create table lq_items (id uuid primary key, name text not null, amount integer not null, price numeric(10,2) not null, active boolean not null, day date not null)`,
    );
    for (let i = 0; i < 23; i++) {
      rows.push({
        id: randomUUID(),
        name: `item ${i % 5}`,
        amount: (i * 7) % 11,
        price: `${(i % 4) * 2.5 + 0.99}`.replace(/^(\d+\.\d)$/, '$10'),
        active: i % 3 === 0,
        day: `2025-0${1 + (i % 3)}-${String(10 + (i % 7)).padStart(2, '0')}`,
      });
    }
    await server.app.deps.db.insert(items).values(rows);
  });

  async function list(raw: Record<string, unknown>) {
    const db = server.app.deps.db;
    const out: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 30; page++) {
      const q = compileList(ITEMS, { ...raw, cursor });
      const got = await db.select({ id: items.id, _sort: q.sortKey, _id: q.idKey }).from(items).where(q.pageWhere).orderBy(...q.orderBy).limit(q.limit + 1);
      const [total] = await db.select({ n: count() }).from(items).where(q.where);
      const res = q.page(got, total!.n, (r) => r.id);
      out.push(...res.result);
      if (!res.cursor) return { ids: out, count: res.count };
      cursor = res.cursor;
    }
    throw new Error('too many pages');
  }

  it.each(['details.amount', '-details.amount', 'details.price', '-details.price', 'details.active', '-details.active', 'details.day', '-details.day'])(
    'pages by %s with every row once, in order',
    async (sort) => {
      const { ids } = await list({ sort, limit: 4 });
      expect(new Set(ids).size).toBe(23);
      const field = sort.replace(/^-?details\./, '') as 'amount' | 'price' | 'active' | 'day';
      const key = (r: Item) => (field === 'price' ? Number(r.price) : field === 'active' ? Number(r.active) : r[field]);
      const values = ids.map((id) => key(rows.find((r) => r.id === id)!));
      const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(values).toEqual(sort.startsWith('-') ? sorted.reverse() : sorted);
    },
  );

  it('filters numbers with >, <= and =', async () => {
    const gt = await list({ filters: 'details.amount>5', limit: 100 });
    expect(gt.ids.sort()).toEqual(rows.filter((r) => r.amount > 5).map((r) => r.id).sort());
    const le = await list({ filters: 'details.price<=3.49', limit: 100 });
    expect(le.ids.sort()).toEqual(rows.filter((r) => Number(r.price) <= 3.49).map((r) => r.id).sort());
    const eq = await list({ filters: 'details.amount=0', limit: 100 });
    expect(eq.count).toBe(rows.filter((r) => r.amount === 0).length);
  });

  it('filters booleans with yes/no and true/false', async () => {
    const active = rows.filter((r) => r.active).map((r) => r.id).sort();
    expect((await list({ filters: 'details.active=yes', limit: 100 })).ids.sort()).toEqual(active);
    expect((await list({ filters: 'details.active=TRUE', limit: 100 })).ids.sort()).toEqual(active);
    expect((await list({ filters: 'details.active=no', limit: 100 })).count).toBe(23 - active.length);
  });

  it('filters a date range', async () => {
    const { ids } = await list({ filters: ['details.day>=2025-02-01', 'details.day<=2025-02-28'], limit: 100 });
    expect(ids.sort()).toEqual(rows.filter((r) => r.day.startsWith('2025-02')).map((r) => r.id).sort());
  });

  it.each([
    ['details.amount>many', 'Invalid filter value for details.amount.'],
    ['details.active=maybe', 'Invalid filter value for details.active.'],
    ['details.day<=someday', 'Invalid filter value for details.day.'],
  ])('refuses %s', (filters, message) => {
    expect(() => compileList(ITEMS, { filters })).toThrow(message);
  });

  it('refuses a cursor whose value does not fit the sort field', () => {
    const c = (v: unknown) => Buffer.from(JSON.stringify([v, randomUUID()])).toString('base64url');
    expect(() => compileList(ITEMS, { sort: 'details.amount', cursor: c('lots') })).toThrow('Invalid cursor.');
    expect(() => compileList(ITEMS, { sort: 'details.active', cursor: c('yes please') })).toThrow('Invalid cursor.');
    expect(() => compileList(ITEMS, { sort: 'details.day', cursor: c('2025-99-99') })).toThrow('Invalid cursor.');
    expect(() => compileList(ITEMS, { sort: 'details.amount', cursor: c(5) })).not.toThrow();
    expect(() => compileList(ITEMS, { sort: 'details.price', cursor: c('2.50') })).not.toThrow();
    expect(() => compileList(ITEMS, { sort: 'details.day', cursor: c('2025-02-10') })).not.toThrow();
  });
});

// ---- any text round-trips (exploratory findings #3: a search holding ';' broke every list) ------

describe('a filter value is literal text, separators included', () => {
  // Runs last: the outbox tests above count exactly the 30 seeded messages.
  const odd = ['a=b;c', 'semi;colon', 'back\\slash', 'slash\\;semi', '=equals first', '<=less', '>more', 'x;details.status=sent', '100%;_', 'amp&hash#plus+', 'tail\\'];
  const rows = odd.map((v, i) => ({ id: randomUUID(), to: `literal-${i}@example.test`, subject: `lit ${v} end`, status: 'literal', text: 'body', createdAt: new Date() }));
  beforeAll(async () => {
    await server.app.deps.db.insert(outbox).values(rows);
  });
  afterAll(async () => {
    await server.app.deps.db.delete(outbox).where(inArray(outbox.id, rows.map((r) => r.id)));
  });

  // Sent as the web sends it: encodeFilters, then URLSearchParams (ui/api-client.ts withQuery).
  const search = async (filters: Filter[], joined = false) => {
    const wire = encodeFilters(filters);
    const res = await admin.get(query({ filters: joined ? wire.join(';') : wire, limit: 100 }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.result as Array<{ id: string }>).map((r) => r.id).sort();
  };
  const containing = (v: string) => rows.filter((r) => r.subject.toLowerCase().includes(v.toLowerCase())).map((r) => r.id).sort();

  it.each(odd)('a search for %j finds exactly the subjects holding it', async (v) => {
    const expected = containing(v);
    expect(expected.length).toBeGreaterThan(0);
    expect(await search([{ field: 'details.subject', op: '=', value: v }])).toEqual(expected);
    // Together with a second filter, repeated or joined with ';' in one parameter.
    const both: Filter[] = [
      { field: 'details.subject', op: '=', value: v },
      { field: 'details.status', op: '=', value: 'literal' },
    ];
    expect(await search(both)).toEqual(expected);
    expect(await search(both, true)).toEqual(expected);
  });

  it('a search that matches nothing is an empty page, not a 400', async () => {
    expect(await search([{ field: 'details.subject', op: '=', value: 'a=b;c;d\\e' }])).toEqual([]);
    expect(await search([{ field: 'details.to', op: '=', value: ';' }])).toEqual([]);
  });

  it('an escaped operator character stays in the value', async () => {
    // "status > '=literal'" holds for every status ('=' sorts before letters); read unescaped, the
    // same text would be "status >= 'literal'", which leaves out 'kept'.
    const total = seeded.length + rows.length;
    const escaped = await admin.get(query({ filters: encodeFilters([{ field: 'details.status', op: '>', value: '=literal' }]) }));
    expect(escaped.body.count).toBe(total);
    const plain = await admin.get(query({ filters: 'details.status>=literal' }));
    expect(plain.body.count).toBe(total - seeded.filter((x) => x.status === 'kept').length);
  });
});
