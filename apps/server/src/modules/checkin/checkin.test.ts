import { randomUUID, webcrypto } from 'node:crypto';
import { base64UrlDecode, CHECKIN_PATHS, M, parseTicketCode, REPORT_PATHS, type TCheckinManifest, type TCheckinScanAnswer } from '@marquee/core';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkinScans, memberships, sessions, tickets, users } from '../../db/schema/index.js';
import { givenEventActors, signedIn, type EventActors } from '../../../test/actors.js';
import { decodePdfQr, givenEvent, givenTenant, givenUser, inspectPdf, pdfQrModules, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { invalidateHostTenant } from '../../platform/auth/guard.js';
import { QR_MODULE_PT, ticketQrSymbol } from '../fulfilment/pdf.js';
import { givenSale } from '../../../test/fixtures/sales.js';
import { givenPaidTickets, type PaidTickets } from '../../../test/fixtures/paid-tickets.js';
import { checkinKeys, readTicketCode, readTicketCodeOffThread, signTicketCode } from './ticket-code.js';

let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let event: { id: string; name: string };
let otherEvent: { id: string; name: string };
let foreignEvent: { id: string; name: string };
let actors: EventActors;
let admin: Client;

const db = () => server.app.deps.db;
const secret = () => server.config.secret;
const code = (eventId: string, ticketUid: string) => signTicketCode(secret(), eventId, ticketUid);
const paths = (eventId = event.id, tenantId = tenant.id) => ({
  manifest: CHECKIN_PATHS.manifest(tenantId, eventId),
  scans: CHECKIN_PATHS.scans(tenantId, eventId),
  undo: (scanId: string) => CHECKIN_PATHS.undo(tenantId, eventId, scanId),
  sync: CHECKIN_PATHS.sync(tenantId, eventId),
  search: (q: string) => CHECKIN_PATHS.search(tenantId, eventId, q),
  counters: CHECKIN_PATHS.counters(tenantId, eventId),
});
const scanBody = (body: Record<string, unknown>) => ({ clientScanId: randomUUID(), deviceId: 'door-1', ...body });
const scan = (client: Client, body: Record<string, unknown>, eventId = event.id) => client.post<TCheckinScanAnswer>(paths(eventId).scans, scanBody(body));
const ticketUsed = async () => (await admin.get(REPORT_PATHS.eventDashboard(tenant.id, event.id))).body.ticket_used as number;
const scansOf = (ticketId: string) => db().select().from(checkinScans).where(and(eq(checkinScans.tenantId, tenant.id), eq(checkinScans.ticketId, ticketId)));

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenant(server, { name: 'Door Co' });
  other = await givenTenant(server);
  event = await givenEvent(server, tenant.id, { name: 'Door Night' });
  otherEvent = await givenEvent(server, tenant.id, { name: 'Other Night' });
  foreignEvent = await givenEvent(server, other.id, { name: 'Foreign Night' });
  actors = await givenEventActors(server, tenant, event.id, otherEvent.id);
  admin = actors.admin;
});
afterAll(async () => {
  await server.close();
});

describe('the ticket code in the PDF', () => {
  it('is the signed code of the ticket: scanning what the buyer got admits that ticket', async () => {
    const sale = await givenPaidTickets(server, tenant.id, event.id, { lines: [{ name: 'GA', price: 2500, quantity: 1 }] });
    const [t] = sale.tickets;
    const pdf = await server.app.deps.storage.get(sale.pdfKey);
    const [page] = inspectPdf(pdf!.bytes).pages;
    const signed = code(event.id, t!.ticketUid);
    // The symbol drawn is exactly the QR of the signed code, and a real decoder reads it as that code;
    // the Ticket ID printed stays the uid.
    const drawn = pdfQrModules(page!, QR_MODULE_PT);
    const qr = ticketQrSymbol(signed);
    const expected = new Set<string>();
    for (let r = 0; r < qr.size; r++) for (let c = 0; c < qr.size; c++) if (qr.get(r, c)) expected.add(`${r},${c}`);
    expect(drawn).toEqual(expected);
    expect(await decodePdfQr(page!, QR_MODULE_PT)).toEqual([signed]);
    expect(page!.text).toContain(t!.ticketUid);
    expect(signed).not.toContain('Lovelace');

    const res = await scan(actors.checkin, { code: signed });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'admitted', ticket: { id: t!.id, ticketUid: t!.ticketUid, state: 'used', fullName: 'Ada Lovelace', ticketTypeName: 'GA' } });
  });

  it('is signed with a key derived from SECRET: another secret neither verifies it nor makes the same one', () => {
    const c = code(event.id, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    expect(readTicketCode(secret(), c)).toEqual({ ok: true, eventId: event.id, ticketUid: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' });
    expect(readTicketCode('another-secret-another-secret-another-1', c)).toEqual({ ok: false });
    expect(signTicketCode('another-secret-another-secret-another-1', event.id, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')).not.toBe(c);
    // Deterministic: every app node derives the same key from the same SECRET.
    expect(code(event.id, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')).toBe(c);
  });

  it("is checked off the event loop for a scan (issue 26, scan4): the same answers as readTicketCode, a code not seen before on the thread pool, a remembered one at once", async () => {
    const uid = `OFF${randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()}`;
    const c = code(event.id, uid);
    const [payload, sig] = [c.slice(0, c.lastIndexOf('.')), c.slice(c.lastIndexOf('.') + 1)];
    const otherSig = code(event.id, `${uid}X`).split('.')[3]!;
    const cases = [c, `${payload}.${otherSig}`, `${payload}.${sig.slice(0, -2)}AA`, signTicketCode('another-secret-another-secret-another-1', event.id, uid), 'MQ1.not-a-code', ''];
    // Each code's answer off the thread, before readTicketCode has seen (and remembered) it.
    const off = [];
    for (const k of cases) {
      const read = readTicketCodeOffThread(secret(), k);
      // A code that parses is not remembered yet: its signature is checked on the thread pool (a promise).
      if (k.startsWith('MQ1.') && k.split('.').length === 4) expect(read).toBeInstanceOf(Promise);
      off.push(await read);
    }
    expect(off).toEqual(cases.map((k) => readTicketCode(secret(), k)));
    expect(off.map((r) => r.ok)).toEqual([true, false, false, false, false, false]);
    // The good code is remembered now: answered without a promise.
    expect(readTicketCodeOffThread(secret(), c)).toEqual({ ok: true, eventId: event.id, ticketUid: uid });
  });
});

describe('GET …/checkin/manifest', () => {
  it("lists the event's tickets with their door state, the ticket types' counts, and a public key a browser verifies codes with", async () => {
    const e = await givenEvent(server, tenant.id);
    const sale = await givenPaidTickets(server, tenant.id, e.id, { firstName: 'Mona', lastName: 'Manifest' });
    // Written as the order page leaves them: a used ticket, a voided one, one a refund voided; and an unpaid hold.
    const done = await givenSale(server, tenant.id, e.id, {
      firstName: 'Rita',
      lastName: 'Refund',
      tickets: [{ price: 1000, used: true }, { price: 1000, voided: true }, { price: 1000, voided: true }],
      refunds: [{ amount: 1000, ticketIndexes: [2] }],
    });
    await givenSale(server, tenant.id, e.id, { status: 'draft', firstName: 'Hal', lastName: 'Hold', tickets: [{ price: 1000 }] });

    const res = await actors.staff.get<TCheckinManifest>(paths(e.id).manifest);
    expect(res.status).toBe(200);
    const m = res.body;
    expect(m.eventId).toBe(e.id);
    expect(Date.parse(m.generatedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(m.tickets.map((t) => t.fullName)).not.toContain('Hal Hold');
    expect(m.tickets).toHaveLength(sale.tickets.length + 3);
    const byId = new Map(m.tickets.map((t) => [t.id, t]));
    expect(byId.get(done.ticketIds[0]!)).toMatchObject({ state: 'used', orderId: done.orderUid, ticketUid: done.ticketUids[0], usedBy: null });
    expect(byId.get(done.ticketIds[1]!)?.state).toBe('voided');
    expect(byId.get(done.ticketIds[2]!)?.state).toBe('refunded');
    for (const t of sale.tickets)
      expect(byId.get(t.id)).toEqual({
        id: t.id, ticketUid: t.ticketUid, orderId: sale.orderUid, fullName: 'Mona Manifest', email: sale.email,
        ticketTypeId: t.ticketTypeId, ticketTypeName: t.ticketTypeName, state: 'valid', usedAt: null, usedBy: null, seat: null,
      });
    // Ticket types: the event's own in their order (givenHeldOrder made VIP x1 and General Admission x2,
    // both sort order 0, so by name), then the one only the seeded tickets name.
    expect(m.ticketTypes).toEqual([
      { id: sale.ticketTypeIds[1], name: 'General Admission', sold: 2, checkedIn: 0 },
      { id: sale.ticketTypeIds[0], name: 'VIP', sold: 1, checkedIn: 0 },
      { id: '00000000-0000-4000-8000-000000000001', name: 'General Admission', sold: 1, checkedIn: 1 },
    ]);

    // The browser's path: WebCrypto Ed25519 with the raw public key verifies a printed code.
    expect(base64UrlDecode(m.publicKey)).toHaveLength(32);
    expect(m.publicKey).toBe(checkinKeys(secret()).publicKeyRaw);
    const key = await webcrypto.subtle.importKey('raw', base64UrlDecode(m.publicKey)!, { name: 'Ed25519' }, false, ['verify']);
    const parsed = parseTicketCode(code(e.id, sale.tickets[0]!.ticketUid))!;
    expect(await webcrypto.subtle.verify({ name: 'Ed25519' }, key, parsed.signature, new TextEncoder().encode(parsed.signed))).toBe(true);
    const forged = parseTicketCode(code(e.id, sale.tickets[0]!.ticketUid).replace(sale.tickets[0]!.ticketUid, sale.tickets[1]!.ticketUid))!;
    expect(await webcrypto.subtle.verify({ name: 'Ed25519' }, key, forged.signature, new TextEncoder().encode(forged.signed))).toBe(false);
  });
});

describe('POST …/checkin/scans', () => {
  let sale: PaidTickets;
  beforeAll(async () => {
    sale = await givenPaidTickets(server, tenant.id, event.id, { firstName: 'Sam', lastName: 'Scan', lines: [{ name: 'Balcony', price: 4000, quantity: 3 }] });
  });

  it('admits once and records it; the second scan answers already used, when, on which device and by whom; the dashboard counts it', async () => {
    const t = sale.tickets[0]!;
    const before = await ticketUsed();
    const first = await scan(actors.checkin, { code: code(event.id, t.ticketUid), deviceId: 'door-north', scannedAt: '2030-05-01T19:00:00.000+02:00' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ result: 'admitted', previous: null, ticket: { id: t.id, state: 'used', usedBy: { deviceId: 'door-north', name: 'Test User' } } });
    expect(await ticketUsed()).toBe(before + 1);

    const second = await scan(actors.staff, { code: code(event.id, t.ticketUid), deviceId: 'door-south' });
    expect(second.status).toBe(200);
    expect(second.body.result).toBe('already_used');
    expect(second.body.previous).toEqual({ usedAt: first.body.ticket!.usedAt, deviceId: 'door-north', name: 'Test User' });
    expect(second.body.ticket).toMatchObject({ id: t.id, state: 'used' });
    expect(await ticketUsed()).toBe(before + 1);

    const [row] = await db().select().from(tickets).where(eq(tickets.id, t.id));
    expect(row).toMatchObject({ used: true, usedByDevice: 'door-north', usedByScan: first.body.scanId });
    const records = await scansOf(t.id);
    expect(records.map((r) => [r.kind, r.result, r.deviceId]).sort()).toEqual([['admit', 'admitted', 'door-north'], ['admit', 'already_used', 'door-south']]);
    const admitted = records.find((r) => r.result === 'admitted')!;
    expect(admitted.scannedAt.toISOString()).toBe('2030-05-01T17:00:00.000Z');
    expect(admitted.id).toBe(first.body.scanId);
  });

  it('answers the same clientScanId with the same answer and records it once', async () => {
    const t = sale.tickets[1]!;
    const body = scanBody({ code: code(event.id, t.ticketUid) });
    const first = await actors.checkin.post(paths().scans, body);
    const again = await actors.checkin.post(paths().scans, body);
    const both = await Promise.all([actors.checkin.post(paths().scans, body), actors.staff.post(paths().scans, body)]);
    expect(first.body.result).toBe('admitted');
    for (const res of [again, ...both]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual(first.body);
    }
    expect(await scansOf(t.id)).toHaveLength(1);
    // The same id for a scan at another event is not a retry: refused, and nothing of the first answered.
    const elsewhere = await actors.admin.post(paths(otherEvent.id).scans, body);
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.error.message).toBe(M.checkinScanIdReused);
    expect(elsewhere.raw.toString()).not.toContain(t.id);
  });

  it('checks in by the printed Ticket ID (any case) or the ticket uuid, for a lost phone or a paper ticket', async () => {
    const s = await givenPaidTickets(server, tenant.id, event.id, { lines: [{ name: 'Floor', price: 1000, quantity: 2 }] });
    const byUid = await scan(actors.eventManager, { ticketId: s.tickets[0]!.ticketUid.toLowerCase() });
    expect(byUid.body).toMatchObject({ result: 'admitted', ticket: { id: s.tickets[0]!.id } });
    const byId = await scan(actors.eventManager, { ticketId: s.tickets[1]!.id.toUpperCase() });
    expect(byId.body).toMatchObject({ result: 'admitted', ticket: { id: s.tickets[1]!.id } });
    const again = await scan(actors.eventManager, { ticketId: s.tickets[1]!.ticketUid });
    expect(again.body.result).toBe('already_used');
    const [record] = (await scansOf(s.tickets[0]!.id)).filter((r) => r.result === 'admitted');
    expect(JSON.parse(record!.details!)).toEqual({ via: 'ticketId' });
  });

  it('refuses, with the reason, a voided, a refunded, another event’s, an unknown and a forged ticket; all recorded, none admitted', async () => {
    const done = await givenSale(server, tenant.id, event.id, {
      tickets: [{ price: 1000, voided: true }, { price: 1000, voided: true }],
      refunds: [{ amount: 1000, ticketIndexes: [1] }],
    });
    const elsewhere = await givenPaidTickets(server, tenant.id, otherEvent.id, { lines: [{ name: 'GA', price: 1000, quantity: 1 }] });
    const foreign = await givenPaidTickets(server, other.id, foreignEvent.id, { email: 'foreign-secret@example.test', lines: [{ name: 'GA', price: 1000, quantity: 1 }] });
    const t = sale.tickets[2]!;
    const good = code(event.id, t.ticketUid);
    const sig = good.split('.')[3]!;
    const flipped = `${sig.slice(0, 10)}${sig[10] === 'A' ? 'B' : 'A'}${sig.slice(11)}`;
    const cases: Array<[string, Record<string, unknown>, string, string | null]> = [
      ['voided', { code: code(event.id, done.ticketUids[0]!) }, 'voided', done.ticketIds[0]!],
      ['refunded', { code: code(event.id, done.ticketUids[1]!) }, 'refunded', done.ticketIds[1]!],
      ['voided by id', { ticketId: done.ticketUids[0]! }, 'voided', done.ticketIds[0]!],
      ["this tenant's other event", { code: code(otherEvent.id, elsewhere.tickets[0]!.ticketUid) }, 'other_event', null],
      ["this tenant's other event, by id", { ticketId: elsewhere.tickets[0]!.ticketUid }, 'other_event', null],
      ["another tenant's ticket", { code: code(foreignEvent.id, foreign.tickets[0]!.ticketUid) }, 'other_event', null],
      ["another tenant's ticket, by id", { ticketId: foreign.tickets[0]!.ticketUid }, 'unknown', null],
      ['a signed code for a ticket that does not exist', { code: code(event.id, 'NOSUCHTICKET234567ABCDEFGH') }, 'unknown', null],
      ["a ticket id that does not exist", { ticketId: 'NOSUCHTICKET234567ABCDEFGH' }, 'unknown', null],
      ['a code naming this ticket with a changed signature', { code: good.replace(sig, flipped) }, 'forged', null],
      ["another ticket's signature on this ticket", { code: good.replace(sig, code(event.id, sale.tickets[0]!.ticketUid).split('.')[3]!) }, 'forged', null],
      ['the bare ticket uid', { code: t.ticketUid }, 'forged', null],
      ['a web address', { code: 'https://example.test/ticket' }, 'forged', null],
      ['a signature by another key', { code: signTicketCode('another-secret-another-secret-another-1', event.id, t.ticketUid) }, 'forged', null],
    ];
    for (const [name, body, result, ticketId] of cases) {
      const res = await scan(actors.checkin, body);
      expect(res.status, name).toBe(200);
      expect(res.body.result, name).toBe(result);
      expect(res.body.ticket?.id ?? null, name).toBe(ticketId);
      expect(res.raw.toString(), name).not.toContain('foreign-secret');
      const [record] = await db().select().from(checkinScans).where(eq(checkinScans.id, res.body.scanId));
      expect(record, name).toMatchObject({ result, ticketId, eventId: event.id, kind: 'admit' });
    }
    expect((await db().select().from(tickets).where(eq(tickets.id, t.id)))[0]!.used).toBe(false);
    expect((await db().select().from(tickets).where(eq(tickets.id, foreign.tickets[0]!.id)))[0]!.used).toBe(false);
  });

  it('refuses bad input with a clear 400', async () => {
    const t = sale.tickets[2]!;
    const c = code(event.id, t.ticketUid);
    const bad: Array<[unknown, string]> = [
      [scanBody({}), M.checkinCodeOrTicket],
      [scanBody({ code: c, ticketId: t.ticketUid }), M.checkinCodeOrTicket],
      [scanBody({ ticketId: '' }), M.checkinCodeOrTicket],
      [scanBody({ code: 'x'.repeat(1001) }), M.checkinCodeTooLong],
      [scanBody({ code: c, clientScanId: 'not-a-uuid' }), M.checkinClientScanId],
      [{ deviceId: 'door-1', code: c }, M.checkinClientScanId],
      [scanBody({ code: c, deviceId: '' }), M.checkinDeviceId],
      [scanBody({ code: c, deviceId: 'd'.repeat(101) }), M.checkinDeviceId],
      [scanBody({ code: c, scannedAt: 'yesterday' }), M.checkinScannedAt],
      [scanBody({ code: c, scannedAt: '2030-05-01T19:00:00' }), M.checkinScannedAt],
      [scanBody({ code: 42 }), M.checkinCodeOrTicket],
    ];
    for (const [body, message] of bad) {
      const res = await actors.checkin.post(paths().scans, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body).slice(0, 80)).toBe(message);
    }
    const junk = await actors.checkin.request('POST', paths().scans, Buffer.from('{"code":'), { 'content-type': 'application/json' });
    expect(junk.status).toBe(400);
    expect((await db().select().from(tickets).where(eq(tickets.id, t.id)))[0]!.used).toBe(false);
  });
});

describe('what a scan costs (issue 26)', () => {
  /** The statements sent to the database while `run` runs (PGlite's query, exec and transaction calls); `bound`: each query's number of values. */
  async function statementsDuring(run: () => Promise<unknown>, bound: number[] = []): Promise<number> {
    const client = (db() as unknown as { $client: Record<string, (...a: unknown[]) => unknown> }).$client;
    const originals = (['query', 'exec', 'transaction'] as const).map((name) => [name, client[name]!] as const);
    let n = 0;
    for (const [name, fn] of originals)
      client[name] = (...a: unknown[]) => {
        n++;
        // PostgreSQL's pool takes a config ({ text, values }), PGlite (text, values).
        const values = a[0] !== null && typeof a[0] === 'object' ? (a[0] as { values?: unknown[] }).values : a[1];
        if (name === 'query') bound.push(Array.isArray(values) ? values.length : 0);
        return fn.apply(client, a);
      };
    try {
      await run();
    } finally {
      for (const [name, fn] of originals) client[name] = fn;
    }
    return n;
  }

  it("is one statement on the tenant host: the session and the guard's check, the ticket's read with its admission, record and event (or its refusal's record)", async () => {
    const sale = await givenPaidTickets(server, tenant.id, event.id, { firstName: 'Cora', lastName: 'Cost', lines: [{ name: 'GA', price: 2500, quantity: 2 }] });
    const [first, second] = sale.tickets;
    // A first request warms the host's tenant entry (cached for 5 s from its read: read afresh here,
    // so that a slow machine does not see it expire between the two scans) and touches the session, as a door at work has.
    invalidateHostTenant(db(), tenant.id);
    expect((await scan(actors.checkin, { code: code(event.id, first!.ticketUid) })).body.result).toBe('admitted');
    let answer: TCheckinScanAnswer | undefined;
    const bound: number[] = [];
    const admitting = await statementsDuring(async () => {
      answer = (await scan(actors.checkin, { code: code(event.id, second!.ticketUid) })).body;
    }, bound);
    expect(answer!.result).toBe('admitted');
    expect(admitting).toBe(1);
    // Each of its placeholders is bound once per cast (scan5): 22 values, not drizzle's one per occurrence (50).
    expect(bound).toEqual([22]);
    const refusing = await statementsDuring(async () => {
      answer = (await scan(actors.checkin, { code: code(event.id, second!.ticketUid) })).body;
    });
    expect(answer!.result).toBe('already_used');
    expect(answer!.previous).toEqual({ usedAt: expect.any(String), deviceId: 'door-1', name: expect.any(String) });
    expect(refusing).toBe(1);
    // The admission's ticket.checked_in event was written in the same statement.
    const events = (await db().execute(sql`select data from domain_events where type = 'ticket.checked_in' and data->'ticket'->>'id' = ${second!.id}`)) as unknown as {
      rows: Array<{ data: { scan: { at: string; deviceId: string } } | string }>;
    };
    expect(events.rows).toHaveLength(1);
    // The scan's time as the text it was bound as (one value for its ::text use, another for its ::timestamptz ones).
    const data = events.rows[0]!.data;
    const checkedIn = typeof data === 'string' ? (JSON.parse(data) as Exclude<typeof data, string>) : data;
    expect(checkedIn.scan.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(checkedIn.scan.deviceId).toBe('door-1');
  });
});

describe("the guard's check in the scan's statement (issue 26)", () => {
  /** A door volunteer of the event, signed in on the tenant's host, and their user's id. */
  async function givenVolunteer() {
    const user = await givenUser(server, { event: { tenantId: tenant.id, eventId: event.id, roles: ['event_checkin'] } });
    return { user, client: await signedIn(server, user, tenant.url) };
  }
  const sessionOf = async (userId: string) => (await db().select().from(sessions).where(eq(sessions.userId, userId)))[0]!;

  it('refuses as the guard does (CSRF, signed out, idle, disabled, no role, another host), admitting and recording nothing; then credits the volunteer', async () => {
    const s = await givenPaidTickets(server, tenant.id, event.id, { lines: [{ name: 'GA', price: 1000, quantity: 1 }] });
    const t = s.tickets[0]!;
    const body = () => scanBody({ code: code(event.id, t.ticketUid) });
    const nothingDone = async () => {
      const [row] = await db().select().from(tickets).where(eq(tickets.id, t.id));
      expect(row!.used).toBe(false);
      expect(await scansOf(t.id)).toHaveLength(0);
    };
    const { user, client } = await givenVolunteer();

    // A CSRF header that is not the session's (and none at all): 403, as on every cookie write.
    let res = await client.post(paths().scans, body(), { 'x-csrf-token': 'not-the-token' });
    expect([res.status, res.body.error.domainCode]).toEqual([403, 'CSRF_INVALID']);
    const bare = server.client(tenant.url);
    bare.cookies = new Map(client.cookies);
    res = await bare.post(paths().scans, body());
    expect([res.status, res.body.error.domainCode]).toEqual([403, 'CSRF_INVALID']);
    // The same session sent to the platform host: not signed in there.
    const elsewhere = server.client();
    elsewhere.cookies = new Map(client.cookies);
    elsewhere.csrf = client.csrf;
    expect((await elsewhere.post(paths().scans, body())).status).toBe(401);
    // The role taken away: another tenant's resource to them, 404.
    await db().delete(memberships).where(eq(memberships.userId, user.id));
    expect((await client.post(paths().scans, body())).status).toBe(404);
    await db().insert(memberships).values({ id: randomUUID(), userId: user.id, groupId: tenant.id, tenantId: tenant.id, eventId: event.id, roles: ['event_checkin'] });
    // Disabled, then idle past the limit, then signed out: 401.
    await db().update(users).set({ status: 'DISABLED' }).where(eq(users.id, user.id));
    expect((await client.post(paths().scans, body())).status).toBe(401);
    await db().update(users).set({ status: 'ACTIVE' }).where(eq(users.id, user.id));
    const { lastSeenAt } = await sessionOf(user.id);
    await db().update(sessions).set({ lastSeenAt: new Date(Date.now() - (server.config.sessionIdleMinutes + 1) * 60_000) }).where(eq(sessions.userId, user.id));
    expect((await client.post(paths().scans, body())).status).toBe(401);
    await db().update(sessions).set({ lastSeenAt }).where(eq(sessions.userId, user.id));
    const other = await givenVolunteer();
    await db().delete(sessions).where(eq(sessions.userId, other.user.id));
    expect((await other.client.post(paths().scans, body())).status).toBe(401);
    await nothingDone();

    // Let in: admitted, credited to this volunteer, and a session last seen over a minute ago is touched.
    await db().update(sessions).set({ lastSeenAt: new Date(Date.now() - 5 * 60_000) }).where(eq(sessions.userId, user.id));
    res = await client.post<TCheckinScanAnswer>(paths().scans, body());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'admitted', ticket: { id: t.id, usedBy: { deviceId: 'door-1', name: 'Test User' } } });
    const [row] = await db().select().from(tickets).where(eq(tickets.id, t.id));
    expect(row!.usedByUser).toBe(user.id);
    const [record] = await scansOf(t.id);
    expect(record!.userId).toBe(user.id);
    expect(Date.now() - (await sessionOf(user.id)).lastSeenAt.getTime()).toBeLessThan(60_000);
  });

  it('takes a role change, an expiry and a sign-out into account at the very next scan of a door at work (no session kept between scans)', async () => {
    const s = await givenPaidTickets(server, tenant.id, event.id, { lines: [{ name: 'GA', price: 1000, quantity: 6 }] });
    const t = s.tickets;
    const { user, client } = await givenVolunteer();
    const scanOf = (c: Client, i: number) => c.post(paths().scans, scanBody({ code: code(event.id, t[i]!.ticketUid) }));
    const untouched = async (i: number) => {
      const [row] = await db().select().from(tickets).where(eq(tickets.id, t[i]!.id));
      expect(row!.used).toBe(false);
      expect(await scansOf(t[i]!.id)).toHaveLength(0);
    };
    expect((await scanOf(client, 0)).body.result).toBe('admitted');

    // The role changed to one without the door (still a member of the tenant): 403 at the next scan, then let in again.
    await db().update(memberships).set({ eventId: null, roles: ['tenant_box_office'] }).where(eq(memberships.userId, user.id));
    let res = await scanOf(client, 1);
    expect([res.status, res.body.error?.code]).toEqual([403, 'FORBIDDEN']);
    await untouched(1);
    await db().update(memberships).set({ eventId: event.id, roles: ['event_checkin'] }).where(eq(memberships.userId, user.id));
    expect((await scanOf(client, 1)).body.result).toBe('admitted');

    // The session expired: 401 at the next scan.
    const { expiresAt } = await sessionOf(user.id);
    await db().update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, user.id));
    res = await scanOf(client, 2);
    expect([res.status, res.body.error?.domainCode]).toEqual([401, 'NOT_SIGNED_IN']);
    await untouched(2);
    await db().update(sessions).set({ expiresAt }).where(eq(sessions.userId, user.id));
    expect((await scanOf(client, 2)).body.result).toBe('admitted');

    // Signed out (the sign-out route, from another tab of the same session): the device's next scan is 401.
    const tab = server.client(tenant.url);
    tab.cookies = new Map(client.cookies);
    tab.csrf = client.csrf;
    expect((await tab.post('/api/auth/logout')).status).toBeLessThan(300);
    res = await scanOf(client, 3);
    expect([res.status, res.body.error?.domainCode]).toEqual([401, 'NOT_SIGNED_IN']);
    await untouched(3);
  });
});

describe('POST …/checkin/scans/:scanId/undo', () => {
  it('takes an admission back (the dashboard too), recorded; a second undo, a refusal or a re-admitted ticket answer 409', async () => {
    const s = await givenPaidTickets(server, tenant.id, event.id, { lines: [{ name: 'GA', price: 1000, quantity: 1 }] });
    const t = s.tickets[0]!;
    const before = await ticketUsed();
    const admitted = await scan(actors.checkin, { code: code(event.id, t.ticketUid) });
    expect(await ticketUsed()).toBe(before + 1);

    const undo = await actors.checkin.post(paths().undo(admitted.body.scanId), { deviceId: 'door-2' });
    expect(undo.status).toBe(200);
    expect(undo.body).toEqual({ result: 'undone', ticket: expect.objectContaining({ id: t.id, state: 'valid', usedAt: null, usedBy: null }) });
    expect(await ticketUsed()).toBe(before);
    const records = await scansOf(t.id);
    expect(records.find((r) => r.kind === 'undo')).toMatchObject({ result: 'undone', undoneOf: admitted.body.scanId, deviceId: 'door-2', clientScanId: null });

    const twice = await actors.checkin.post(paths().undo(admitted.body.scanId), { deviceId: 'door-2' });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe(M.checkinUndoAlreadyUndone);

    const readmitted = await scan(actors.staff, { code: code(event.id, t.ticketUid) });
    expect(readmitted.body.result).toBe('admitted');
    const refused = await scan(actors.staff, { code: code(event.id, t.ticketUid) });
    const notAdmission = await actors.staff.post(paths().undo(refused.body.scanId), { deviceId: 'door-2' });
    expect(notAdmission.status).toBe(409);
    expect(notAdmission.body.error.message).toBe(M.checkinUndoNotAdmission);

    // Undone, then admitted again: the first admission's undo would take back the second one.
    const s2 = await givenPaidTickets(server, tenant.id, event.id, { lines: [{ name: 'GA', price: 1000, quantity: 1 }] });
    const t2 = s2.tickets[0]!;
    const a1 = await scan(actors.checkin, { code: code(event.id, t2.ticketUid) });
    await db().update(tickets).set({ used: false, usedByScan: null }).where(eq(tickets.id, t2.id));
    const a2 = await scan(actors.checkin, { code: code(event.id, t2.ticketUid) });
    expect(a2.body.result).toBe('admitted');
    const stale = await actors.checkin.post(paths().undo(a1.body.scanId), { deviceId: 'door-2' });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toBe(M.checkinUndoAdmittedSince);
    expect((await db().select().from(tickets).where(eq(tickets.id, t2.id)))[0]).toMatchObject({ used: true, usedByScan: a2.body.scanId });
    expect((await scansOf(t2.id)).filter((r) => r.kind === 'undo')).toHaveLength(0);
  });

  it("answers 404 for a scan that is not this event's, and 400 without a device", async () => {
    const s = await givenPaidTickets(server, tenant.id, otherEvent.id, { lines: [{ name: 'GA', price: 1000, quantity: 1 }] });
    const a = await scan(actors.admin, { code: code(otherEvent.id, s.tickets[0]!.ticketUid) }, otherEvent.id);
    expect(a.body.result).toBe('admitted');
    for (const id of [a.body.scanId, randomUUID(), 'not-a-scan']) {
      const res = await actors.admin.post(paths().undo(id), { deviceId: 'door-2' });
      expect(res.status).toBe(404);
    }
    const noDevice = await actors.admin.post(paths(otherEvent.id).undo(a.body.scanId), {});
    expect(noDevice.status).toBe(400);
    expect(noDevice.body.error.message).toBe(M.checkinDeviceId);
  });
});

describe('POST …/checkin/sync', () => {
  it('answers a queue of offline scans in order; a ticket another door admitted first is already used, with who and when', async () => {
    const s = await givenPaidTickets(server, tenant.id, event.id, { lines: [{ name: 'Sync', price: 1000, quantity: 3 }] });
    const [a, b, c] = s.tickets;
    // Door 1 admits ticket a online; door 2 admitted a and b offline, and c twice.
    const online = await scan(actors.checkin, { code: code(event.id, a!.ticketUid), deviceId: 'door-1' });
    const queue = [
      { clientScanId: randomUUID(), code: code(event.id, a!.ticketUid), scannedAt: '2030-05-01T19:00:00.000Z' },
      { clientScanId: randomUUID(), code: code(event.id, b!.ticketUid), scannedAt: '2030-05-01T19:00:05.000Z' },
      { clientScanId: randomUUID(), ticketId: c!.ticketUid, scannedAt: '2030-05-01T19:00:10.000Z' },
      { clientScanId: randomUUID(), code: code(event.id, c!.ticketUid), scannedAt: '2030-05-01T19:00:12.000Z' },
      { clientScanId: randomUUID(), code: 'garbage', scannedAt: '2030-05-01T19:00:14.000Z' },
    ];
    const res = await actors.staff.post(paths().sync, { deviceId: 'door-2', scans: queue });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: TCheckinScanAnswer) => r.result)).toEqual(['already_used', 'admitted', 'admitted', 'already_used', 'forged']);
    expect(res.body.results.map((r: TCheckinScanAnswer) => r.clientScanId)).toEqual(queue.map((q) => q.clientScanId));
    expect(res.body.results[0].previous).toEqual({ usedAt: online.body.ticket!.usedAt, deviceId: 'door-1', name: 'Test User' });
    expect(res.body.results[3].previous).toMatchObject({ deviceId: 'door-2' });
    // Sent again (the device did not hear the answer): the same answers, nothing recorded twice.
    const again = await actors.staff.post(paths().sync, { deviceId: 'door-2', scans: queue });
    expect(again.body).toEqual(res.body);
    expect(await scansOf(b!.id)).toHaveLength(1);
    const [rec] = await scansOf(b!.id);
    expect(rec!.scannedAt.toISOString()).toBe('2030-05-01T19:00:05.000Z');
  });

  it('credits the scans to who made them: the queue names the person, and only that person can send it (issue 21.13)', async () => {
    const s = await givenPaidTickets(server, tenant.id, event.id, { lines: [{ name: 'Who', price: 1000, quantity: 2 }] });
    const [a, b] = s.tickets;
    const idOf = async (c: Client) => ((await c.get('/api/auth/session')).body as { user: { id: string } }).user.id;
    const volunteer = await idOf(actors.checkin);
    const manager = await idOf(actors.eventManager);
    const queued = (ticketUid: string, scannedBy: string) => ({ clientScanId: randomUUID(), code: code(event.id, ticketUid), scannedAt: '2030-05-01T19:00:00.000Z', scannedBy });

    // The volunteer's own queue: admitted, and recorded as theirs.
    const mine = await actors.checkin.post(paths().sync, { deviceId: 'Door 3 · 77aa', scans: [queued(a!.ticketUid, volunteer.toUpperCase())] });
    expect(mine.status).toBe(200);
    expect(mine.body.results[0]).toMatchObject({ result: 'admitted', ticket: { usedBy: { deviceId: 'Door 3 · 77aa', name: 'Test User' } } });
    expect((await scansOf(a!.id))[0]).toMatchObject({ userId: volunteer, deviceId: 'Door 3 · 77aa', result: 'admitted' });

    // The same device, now signed in as someone else, sends a queue the volunteer made (or names
    // another person): refused whole, nothing admitted or recorded, whoever the caller is.
    for (const caller of [actors.eventManager, actors.admin]) {
      const res = await caller.post(paths().sync, { deviceId: 'Door 3 · 77aa', scans: [queued(b!.ticketUid, manager), queued(b!.ticketUid, volunteer)].slice(caller === actors.eventManager ? 1 : 0) });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', domainCode: 'CHECKIN_SCANNED_BY_OTHER', message: M.checkinScannedByOther });
    }
    expect(await scansOf(b!.id)).toHaveLength(0);
    expect((await db().select().from(tickets).where(eq(tickets.id, b!.id)))[0]!.used).toBe(false);

    // Not a person's id: a clear 400.
    const bad = await actors.checkin.post(paths().sync, { deviceId: 'Door 3', scans: [queued(b!.ticketUid, 'Door 3')] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(M.checkinScannedBy);
  });

  it('refuses an empty, an oversized or a malformed queue with a clear 400, admitting nothing', async () => {
    const s = await givenPaidTickets(server, tenant.id, event.id, { lines: [{ name: 'Sync', price: 1000, quantity: 1 }] });
    const ok = { clientScanId: randomUUID(), code: code(event.id, s.tickets[0]!.ticketUid), scannedAt: '2030-05-01T19:00:00.000Z' };
    const bad: Array<[unknown, string]> = [
      [{ deviceId: 'door-2', scans: [] }, M.checkinSyncSize],
      [{ deviceId: 'door-2', scans: Array.from({ length: 501 }, () => ({ ...ok, clientScanId: randomUUID() })) }, M.checkinSyncSize],
      [{ deviceId: 'door-2', scans: 'all of them' }, M.checkinSyncSize],
      [{ deviceId: 'door-2', scans: [ok, { clientScanId: randomUUID(), scannedAt: ok.scannedAt }] }, M.checkinCodeOrTicket],
      [{ deviceId: 'door-2', scans: [{ ...ok, scannedAt: undefined }] }, M.checkinScannedAt],
      [{ scans: [ok] }, M.checkinDeviceId],
    ];
    for (const [body, message] of bad) {
      const res = await actors.staff.post(paths().sync, body);
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect((await db().select().from(tickets).where(eq(tickets.id, s.tickets[0]!.id)))[0]!.used).toBe(false);
  });
});

describe('GET …/checkin/search and …/counters', () => {
  it('finds tickets by name, e-mail, Order ID or Ticket ID, at most 20, with the number found', async () => {
    const e = await givenEvent(server, tenant.id);
    const s = await givenPaidTickets(server, tenant.id, e.id, { firstName: 'Zelda', lastName: 'Quartz', email: 'zq@example.test', lines: [{ name: 'GA', price: 1000, quantity: 2 }] });
    const crowd = await givenPaidTickets(server, tenant.id, e.id, { firstName: 'Crowd', lastName: 'Member', lines: [{ name: 'GA', price: 1000, quantity: 25 }] });
    const ids = (body: { result: Array<{ id: string }> }) => body.result.map((t) => t.id).sort();
    const mine = s.tickets.map((t) => t.id).sort();
    for (const q of ['zelda', 'QUARTZ', 'lda qu', 'zq@example', s.orderUid.toLowerCase(), s.orderUid.slice(0, 5)]) {
      const res = await actors.staff.get(paths(e.id).search(q));
      expect(res.status, q).toBe(200);
      expect(ids(res.body), q).toEqual(mine);
      expect(res.body.count, q).toBe(2);
    }
    const one = await actors.staff.get(paths(e.id).search(s.tickets[1]!.ticketUid.toLowerCase()));
    expect(ids(one.body)).toEqual([s.tickets[1]!.id]);
    expect((await actors.staff.get(paths(e.id).search(s.tickets[0]!.id))).body.result[0].id).toBe(s.tickets[0]!.id);
    const many = await actors.staff.get(paths(e.id).search('crowd'));
    expect(many.body.result).toHaveLength(20);
    expect(many.body.count).toBe(crowd.tickets.length);
    // LIKE's wildcards are plain text here.
    expect((await actors.staff.get(paths(e.id).search('%%'))).body).toEqual({ result: [], count: 0 });
    expect((await actors.staff.get(paths(e.id).search('__'))).body).toEqual({ result: [], count: 0 });
    // Another event's tickets are not found from this one.
    expect((await actors.checkin.get(paths(event.id).search('zelda'))).body.count).toBe(0);

    for (const q of ['', 'z', ' z ', 'x'.repeat(101)]) {
      const res = await actors.staff.get(paths(e.id).search(q));
      expect(res.status, q).toBe(400);
      expect(res.body.error.message).toBe(q.length > 100 ? M.checkinSearchLong : M.checkinSearchShort);
    }
    expect((await actors.staff.get(`${CHECKIN_PATHS.base(tenant.id, e.id)}/search`)).status).toBe(400);
  });

  it('counts checked in and sold (paid, not voided or refunded), in all and per ticket type, moving with admissions and undos', async () => {
    const e = await givenEvent(server, tenant.id);
    const s = await givenPaidTickets(server, tenant.id, e.id, { lines: [{ name: 'VIP', price: 5000, quantity: 2 }, { name: 'Kids', price: 0, quantity: 1 }] });
    await givenSale(server, tenant.id, e.id, { tickets: [{ price: 1000, typeId: s.ticketTypeIds[0], name: 'VIP', voided: true }] });
    const counters = () => actors.staff.get(paths(e.id).counters).then((r) => r.body);
    expect(await counters()).toEqual({
      checkedIn: 0,
      sold: 3,
      byType: [
        { ticketTypeId: s.ticketTypeIds[1], name: 'Kids', checkedIn: 0, sold: 1 },
        { ticketTypeId: s.ticketTypeIds[0], name: 'VIP', checkedIn: 0, sold: 2 },
      ],
    });
    const vip = s.tickets.find((t) => t.ticketTypeName === 'VIP')!;
    const kid = s.tickets.find((t) => t.ticketTypeName === 'Kids')!;
    const a = await scan(actors.staff, { code: code(e.id, vip.ticketUid) }, e.id);
    await scan(actors.staff, { ticketId: kid.ticketUid }, e.id);
    expect(await counters()).toMatchObject({ checkedIn: 2, sold: 3, byType: [{ checkedIn: 1, sold: 1 }, { checkedIn: 1, sold: 2 }] });
    await actors.staff.post(paths(e.id).undo(a.body.scanId), { deviceId: 'door-1' });
    expect(await counters()).toMatchObject({ checkedIn: 1, byType: [{ checkedIn: 1 }, { checkedIn: 0 }] });
  });
});

describe('who may work the door', () => {
  it("lets the tenant's admins and staff and the event's check-in staff and manager in; nobody else, and another tenant's ids are 404", async () => {
    const s = await givenPaidTickets(server, tenant.id, event.id, { lines: [{ name: 'GA', price: 1000, quantity: 1 }] });
    const calls: Array<[string, (c: Client) => Promise<{ status: number }>]> = [
      ['manifest', (c) => c.get(paths().manifest)],
      ['counters', (c) => c.get(paths().counters)],
      ['search', (c) => c.get(paths().search('Lovelace'))],
      ['scan', (c) => c.post(paths().scans, scanBody({ ticketId: s.tickets[0]!.ticketUid }))],
      ['sync', (c) => c.post(paths().sync, { deviceId: 'd', scans: [{ clientScanId: randomUUID(), ticketId: s.tickets[0]!.ticketUid, scannedAt: new Date().toISOString() }] })],
      ['undo', (c) => c.post(paths().undo(randomUUID()), { deviceId: 'd' })],
    ];
    const expected: Record<keyof EventActors, number | 'ok'> = {
      admin: 'ok', staff: 'ok', eventManager: 'ok', checkin: 'ok',
      otherEventManager: 403, platformManager: 404, platformReport: 404, outsider: 404, outsiderHome: 404, anonymous: 401,
    };
    for (const [name, call] of calls) {
      for (const [who, want] of Object.entries(expected)) {
        const res = await call(actors[who as keyof EventActors]);
        // undo of a scan that does not exist is a 404 even for those allowed.
        const ok = name === 'undo' ? 404 : 200;
        expect(res.status, `${name} as ${who}`).toBe(want === 'ok' ? ok : want);
      }
    }
    // Another tenant's event under this tenant, a malformed event id, and this event under another tenant: 404, nothing recorded.
    const recorded = (await db().select().from(checkinScans)).length;
    expect((await actors.admin.get(paths(foreignEvent.id).manifest)).status).toBe(404);
    expect((await actors.admin.post(paths(foreignEvent.id).scans, scanBody({ code: 'x' }))).status).toBe(404);
    // Even with a body it would refuse: the event is not there, whatever was sent.
    expect((await actors.admin.post(paths(foreignEvent.id).scans, scanBody({}))).status).toBe(404);
    expect((await actors.admin.post(paths(foreignEvent.id).sync, { deviceId: 'd', scans: [{ clientScanId: randomUUID(), scannedAt: new Date().toISOString() }] })).status).toBe(404);
    expect((await actors.admin.get(paths('not-an-event').counters)).status).toBe(404);
    expect((await actors.admin.get(paths(event.id, other.id).manifest)).status).toBe(404);
    expect((await db().select().from(checkinScans)).length).toBe(recorded);
  });
});
