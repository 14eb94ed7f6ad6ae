import { encodeFilters, REPORT_PATHS } from '@marquee/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenEvent, givenTenant, givenUser, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { csvHeader, csvRows, lfToCrlf } from './csv.js';
import { copyReportCsv, reportCsvQuery, rowsOf, streamReport } from './repository.js';
import type { ReportSource, Scope } from './report-source.js';
import { SOURCES, type SourceKind } from './sources.js';
import { givenSale, givenSubscriber } from '../../../test/fixtures/sales.js';

// The two CSV writers must give the same bytes: csv.ts over the rows (PGlite, and what the lists
// show) and PostgreSQL's COPY over csv-sql.ts's cells (exports on PostgreSQL). On PGlite, which has
// no COPY TO STDOUT for us, the SQL cells are read with a select and quoted by COPY's CSV rules.

let server: TestServer;
let organiser: Client;
let tenant: GivenTenant;
let gala: { id: string; name: string };
let fair: { id: string; name: string };

/** Cells a spreadsheet or a CSV reader could trip on. */
const HOSTILE = ['=HYPERLINK("http://x","y")', '+1+1', '-2', '@SUM(A1)', '\tTab', '\rCR', 'Doe, "J"', 'two\r\nlines', 'lf\nonly', "O'Brien", '\\.', 'back\\slash', '"', ','];

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenant(server, { name: 'Zoé, "Events"' });
  organiser = server.client();
  await organiser.login((await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } })).email);
  gala = await givenEvent(server, tenant.id, { name: 'Gala, "Big"\nNight — Zoé' });
  fair = await givenEvent(server, tenant.id, { name: '=Fair' });
  const at = (i: number) => new Date(Date.UTC(2026, 10, 1, 12, 0, i));
  for (const [i, text] of HOSTILE.entries()) {
    await givenSale(server, tenant.id, i % 2 ? gala.id : fair.id, {
      createdAt: at(i),
      email: `${text}@example.test`,
      firstName: text,
      lastName: i % 3 ? 'Ångström' : '',
      phone: i % 4 ? '+16175550123' : null,
      paymentMethod: i % 5 ? 'Card' : null,
      discount: i * 37,
      discountCode: i % 2 ? text : null,
      surcharge: 5,
      processingFee: i,
      vat: 123_456_789,
      donation: i % 3 ? 1000 : 0,
      donationFee: 1,
      tickets: [
        { price: 2500, used: i % 2 === 0, fullName: text, email: 'é@example.test', name: text },
        { price: 0, voided: true, name: 'Comp 🎟️' },
      ],
      refunds: i % 3 === 0 ? [{ amount: 100 + i, reason: text, ticketIndexes: [0, 1] }, { amount: 5, status: i % 2 ? 'pending' : 'failed', reason: '' }] : [],
    });
    await givenSubscriber(server, tenant.id, i % 2 ? gala.id : fair.id, `${text}@example.test`, at(i));
  }
  // Two orders in the same instant (the tie-break on id), microseconds that round up, an odd refund status.
  await givenSale(server, tenant.id, gala.id, { createdAt: at(0), firstName: 'Twin' });
  const db = server.app.deps.db;
  await db.execute(sql`update orders set created_at = created_at + interval '999 microseconds' where tenant_id = ${tenant.id}::uuid and first_name = '-2'`);
  await db.execute(sql`update tickets set created_at = created_at + interval '1999 microseconds' where tenant_id = ${tenant.id}::uuid`);
  await db.execute(sql`update refunds set status = 'requires_action#2' where tenant_id = ${tenant.id}::uuid and status = 'pending'`);
});
afterAll(async () => {
  await server.close();
});

/** csv.ts over the rows, a few at a time. */
async function rowsWriter(source: ReportSource<unknown>, scope: Scope, rawQuery: object): Promise<string> {
  let out = csvHeader(source.csv);
  await streamReport({ database: server.app.deps.database, source, scope, rawQuery, batch: 4, onRows: async (rows) => void (out += csvRows(source.csv, rows)) });
  return out;
}

/** COPY's CSV: NULL as nothing; a cell with a comma, a quote, CR or LF, or an empty one, quoted. */
const copyCell = (v: unknown) => (v === null ? '' : /^$|[",\r\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));

/** PostgreSQL's cells: COPY on PostgreSQL (its chunks cut into 7-byte pieces), a select on PGlite. */
async function sqlWriter(source: ReportSource<unknown>, scope: Scope, rawQuery: object): Promise<string> {
  const { database } = server.app.deps;
  if (database.kind === 'postgres') {
    const crlf = lfToCrlf();
    const parts: Buffer[] = [Buffer.from(csvHeader(source.csv))];
    await copyReportCsv({
      database,
      source,
      scope,
      rawQuery,
      onChunk: async (chunk) => {
        for (let i = 0; i < chunk.length; i += 7) parts.push(crlf(chunk.subarray(i, i + 7)).bytes);
      },
    });
    return Buffer.concat(parts).toString('utf8');
  }
  const rows = await rowsOf(database.db, reportCsvQuery(source, scope, rawQuery));
  return csvHeader(source.csv) + rows.map((r) => `${source.csv.map((_, i) => copyCell(r[`c${i}`])).join(',')}\r\n`).join('');
}

describe('CSV export writers', () => {
  const cases: Array<[SourceKind, () => Scope, object]> = [
    ['orders', () => ({ tenantId: tenant.id }), {}],
    ['orders', () => ({ tenantId: tenant.id, eventId: gala.id }), { sort: 'details.email' }],
    ['orders', () => ({ tenantId: tenant.id }), { filters: "details.fullName=o'b" }],
    ['orders', () => ({ tenantId: tenant.id }), { filters: "details.search=o'brien" }],
    ['orders', () => ({ tenantId: tenant.id }), { filters: encodeFilters([{ field: 'details.search', op: '=', value: 'back\\slash' }]) }],
    ['tickets', () => ({ tenantId: tenant.id }), {}],
    ['tickets', () => ({ tenantId: tenant.id, eventId: fair.id }), { filters: 'details.used=yes' }],
    ['refunds', () => ({ tenantId: tenant.id }), {}],
    ['subscribers', () => ({ tenantId: tenant.id }), {}],
    ['event-list', () => ({ tenantId: tenant.id }), {}],
    ['tenant-list', () => ({ platform: true }), {}],
    ['taxes', () => ({ platform: true }), {}],
    ['donations', () => ({ platform: true }), {}],
  ];
  it.each(cases)('write the same bytes: %s %#', async (kind, scope, query) => {
    const source = SOURCES[kind] as ReportSource<unknown>;
    const expected = await rowsWriter(source, scope(), query);
    expect(expected.split('\r\n').length).toBeGreaterThan(2);
    expect(await sqlWriter(source, scope(), query)).toBe(expected);
  });

  it('keeps the hostile cells inert and whole', async () => {
    const text = await rowsWriter(SOURCES.orders as ReportSource<unknown>, { tenantId: tenant.id }, {});
    expect(text.startsWith('\uFEFFDate,Order ID,')).toBe(true);
    expect(text).toContain(`'=HYPERLINK(""http://x"",""y"")`);
    expect(text).toContain(`,'+1+1 Ångström,`);
    expect(text).toContain(`"two\r\nlines Ångström"`);
    expect(text).toContain(',1234567.89,');
    expect(text).toContain('.000Z,');
  });

  it('exports through the job and the signed URL with the same bytes', async () => {
    const started = await organiser.get(REPORT_PATHS.tenantOrdersDownload(tenant.id));
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await server.app.deps.jobs.drain();
    const file = await organiser.get(started.body.downloadUrl);
    expect(file.status).toBe(200);
    expect(file.raw.toString('utf8')).toBe(await rowsWriter(SOURCES.orders as ReportSource<unknown>, { tenantId: tenant.id }, {}));
  });
});

describe('lfToCrlf', () => {
  it('ends rows with CRLF, leaves line breaks inside quoted cells, and carries the quote across chunks', () => {
    const crlf = lfToCrlf();
    const input = 'a,"x\ny"\nb,"q""\n"\n';
    const out: Buffer[] = [];
    let rows = 0;
    for (const piece of ['a,"x', '\ny"\nb,"q"', '"\n"', '\n']) {
      const r = crlf(Buffer.from(piece));
      out.push(r.bytes);
      rows += r.rows;
    }
    expect(Buffer.concat(out).toString()).toBe('a,"x\ny"\r\nb,"q""\n"\r\n');
    expect(rows).toBe(2);
    expect(input.length + 2).toBe(Buffer.concat(out).length);
  });
});
