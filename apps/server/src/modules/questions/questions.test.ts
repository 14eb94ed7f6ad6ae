import { randomUUID } from 'node:crypto';
import { CHECKIN_PATHS, QM } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventAnswerSettings, orderAnswers, orderAttendees, orders, outbox, tickets } from '../../db/schema/index.js';
import {
  checkoutPayload,
  givenEventOnSale,
  inspectPdf,
  notFoundError,
  startServer,
  type Client,
  type GivenEventOnSale,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { givenTwoTenants } from '../../../test/fixtures/two-tenants.js';

let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let admin: Client;
let otherAdmin: Client;
let event: GivenEventOnSale;
let otherEvent: GivenEventOnSale;

beforeAll(async () => {
  server = await startServer();
  const types = [
    { name: 'Conference', price: 4500, quantity: 50 },
    { name: 'Dinner', price: 3000, quantity: 50 },
  ];
  const discounts = [{ code: 'ALLFREE', kind: 'percent' as const, value: 100 }];
  ({ tenant, other, admin, otherAdmin, event, otherEvent } = await givenTwoTenants(server, { event: { ticketTypes: types, discounts } }));
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.deps.db;
const base = (e: GivenEventOnSale = event, t: GivenTenant = tenant) => `/api/tenants/${t.id}/events/${e.id}`;
const site = () => server.client(tenant.url);
const [CONF, DINNER] = [0, 1];
const tt = (i: number, e: GivenEventOnSale = event) => e.ticketTypeIds[i]!;

async function newEvent() {
  return givenEventOnSale(server, tenant.id, {
    ticketTypes: [
      { name: 'Conference', price: 4500, quantity: 50 },
      { name: 'Dinner', price: 3000, quantity: 50 },
    ],
    discounts: [{ code: 'ALLFREE', kind: 'percent', value: 100 }],
  });
}

async function askQuestions(e: GivenEventOnSale) {
  const put = await admin.put(`${base(e)}/attendee-settings`, {
    ticketTypes: [
      { ticketTypeId: tt(CONF, e), askName: 'required', askEmail: 'optional' },
      { ticketTypeId: tt(DINNER, e), askName: 'optional', askEmail: 'off' },
    ],
  });
  expect(put.status).toBe(200);
  const diet = await admin.post(`${base(e)}/questions`, {
    details: { label: 'Diet', kind: 'singleChoice', options: ['None', 'Vegetarian', 'Vegan'], required: true, scope: 'ticket', helpText: 'For the dinner.' },
  });
  const workshops = await admin.post(`${base(e)}/questions`, {
    details: { label: 'Workshops', kind: 'multipleChoice', options: ['A', 'B', 'C'], scope: 'ticket', ticketTypeIds: [tt(CONF, e)] },
  });
  const company = await admin.post(`${base(e)}/questions`, { details: { label: 'Company', kind: 'shortText', scope: 'order' } });
  expect([diet.status, workshops.status, company.status]).toEqual([201, 201, 201]);
  return { diet: diet.body.id as string, workshops: workshops.body.id as string, company: company.body.id as string };
}

const orderCount = async (e: GivenEventOnSale) => (await db().select().from(orders).where(eq(orders.eventId, e.id))).length;

async function placeFree(e: GivenEventOnSale, body: Record<string, unknown>, lines = [{ ticketTypeId: tt(CONF, e), quantity: 2 }]) {
  return site().post(`/api/p/tenants/${tenant.id}/events/${e.id}/orders`, { ...checkoutPayload(lines, { discountCode: 'ALLFREE', email: 'buyer@answers.test' }), ...body });
}

describe('the organiser’s questions', () => {
  it('adds each kind, lists them in order, reorders, edits and removes; bad input is a 400 naming the field, nothing written', async () => {
    const e = await newEvent();
    const kinds = ['shortText', 'longText', 'singleChoice', 'multipleChoice', 'checkbox', 'number', 'date', 'phone'] as const;
    const ids: string[] = [];
    for (const kind of kinds) {
      const res = await admin.post(`${base(e)}/questions`, { details: { label: `Q ${kind}`, kind, options: kind.endsWith('Choice') ? ['x', 'y'] : ['ignored'] } });
      expect(res.status, kind).toBe(201);
      expect(res.body.details).toMatchObject({ kind, options: kind.endsWith('Choice') ? ['x', 'y'] : [], scope: 'order', required: false });
      ids.push(res.body.id);
    }
    const bad = [
      [{ label: '', kind: 'shortText' }, 'details.label', QM.labelRequired],
      [{ label: 'x'.repeat(201), kind: 'shortText' }, 'details.label', QM.labelTooLong],
      [{ label: 'Pick', kind: 'singleChoice', options: ['only'] }, 'details.options', QM.optionsRequired],
      [{ label: 'Pick', kind: 'singleChoice', options: ['a', 'A'] }, 'details.options', QM.optionsDuplicate],
      [{ label: 'Pick', kind: 'colour' }, 'details.kind', undefined],
      [{ label: 'Other event', kind: 'shortText', ticketTypeIds: [tt(CONF, otherEvent)] }, 'details.ticketTypeIds', QM.ticketTypeUnknown],
    ] as const;
    for (const [details, field, message] of bad) {
      const res = await admin.post(`${base(e)}/questions`, { details });
      expect(res.status, JSON.stringify(details)).toBe(400);
      expect(Object.keys(res.body.error.fields ?? {}), JSON.stringify(res.body)).toContain(field);
      if (message) expect(res.body.error.fields[field]).toBe(message);
    }
    let list = await admin.get(`${base(e)}/questions`);
    expect(list.body.result.map((q: { id: string }) => q.id)).toEqual(ids);

    const reversed = [...ids].reverse();
    const reordered = await admin.post(`${base(e)}/questions/reorder`, { ids: reversed });
    expect(reordered.status).toBe(200);
    expect(reordered.body.result.map((q: { id: string }) => q.id)).toEqual(reversed);
    expect((await admin.post(`${base(e)}/questions/reorder`, { ids: reversed.slice(1) })).status).toBe(400);
    expect((await admin.post(`${base(e)}/questions/reorder`, { ids: [...reversed.slice(1), randomUUID()] })).status).toBe(400);

    const edited = await admin.put(`${base(e)}/questions/${ids[0]}`, { details: { label: 'Your job', kind: 'shortText', required: true, helpText: 'As on your badge' } });
    expect(edited.body.details).toMatchObject({ label: 'Your job', required: true, helpText: 'As on your badge' });
    expect((await admin.delete(`${base(e)}/questions/${ids[1]}`)).status).toBe(200);
    list = await admin.get(`${base(e)}/questions`);
    expect(list.body.count).toBe(7);
    expect((await admin.delete(`${base(e)}/questions/${ids[1]}`)).status).toBe(404);
  });

  it('another tenant’s admin, or this tenant’s admin with another tenant’s event or question, gets 404 and changes nothing', async () => {
    const e = await newEvent();
    const q = await admin.post(`${base(e)}/questions`, { details: { label: 'Company', kind: 'shortText' } });
    const theirs = await otherAdmin.post(`${base(otherEvent, other)}/questions`, { details: { label: 'Theirs', kind: 'shortText' } });
    expect(theirs.status).toBe(201);
    // The other tenant's admin on our paths (their own host's session): 404.
    for (const call of [
      () => otherAdmin.get(`${base(e)}/questions`),
      () => otherAdmin.post(`${base(e)}/questions`, { details: { label: 'x', kind: 'shortText' } }),
      () => otherAdmin.get(`${base(e)}/attendee-settings`),
      () => otherAdmin.get(`${base(e)}/answers-report`),
    ]) {
      expect([403, 404]).toContain((await call()).status);
    }
    // Our admin, with the other tenant's event or question under our tenant: 404.
    expect(await admin.get(`/api/tenants/${tenant.id}/events/${otherEvent.id}/questions`)).toMatchObject({ status: 404, body: notFoundError });
    expect((await admin.put(`${base(e)}/questions/${theirs.body.id}`, { details: { label: 'x', kind: 'shortText' } })).status).toBe(404);
    expect((await admin.delete(`${base(e)}/questions/${theirs.body.id}`)).status).toBe(404);
    expect((await admin.put(`${base(e)}/attendee-settings`, { ticketTypes: [{ ticketTypeId: tt(CONF, otherEvent), askName: 'required', askEmail: 'off' }] })).status).toBe(400);
    expect((await admin.get(`/api/tenants/${tenant.id}/events/${otherEvent.id}/orders/XXXXXXXXXXXX/answers`)).status).toBe(404);
    expect((await admin.get(`${base(e)}/questions`)).body.result.map((x: { id: string }) => x.id)).toEqual([q.body.id]);
    // The public form of another tenant's event on our host: 404.
    expect((await site().get(`/api/p/tenants/${tenant.id}/events/${otherEvent.id}/attendee-form`)).status).toBe(404);
  });
});

describe('answers at checkout', () => {
  it('refuses a missing required name or answer, a wrong type, a choice not in the list, a long answer, another event’s question: 400 with the field’s own message, no order', async () => {
    const e = await newEvent();
    const q = await askQuestions(e);
    const theirs = (await otherAdmin.post(`${base(otherEvent, other)}/questions`, { details: { label: 'Theirs', kind: 'shortText' } })).body.id as string;
    const good = (i: number) => ({ ticketTypeId: tt(CONF, e), fullName: `Person ${i}`, answers: { [q.diet]: 'Vegan' } });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ attendees: [good(1), { ticketTypeId: tt(CONF, e), answers: { [q.diet]: 'None' } }] }, 'attendees.1.fullName', QM.nameRequired],
      [{ attendees: [good(1), { ...good(2), answers: {} }] }, `attendees.1.answers.${q.diet}`, QM.required('Diet')],
      [{ attendees: [good(1), { ...good(2), answers: { [q.diet]: 'Steak' } }] }, `attendees.1.answers.${q.diet}`, QM.notChoice('Diet')],
      [{ attendees: [good(1), { ...good(2), answers: { [q.diet]: 'None', [q.workshops]: 'A' } }] }, `attendees.1.answers.${q.workshops}`, QM.notChoices('Workshops')],
      [{ attendees: [good(1), good(2)], answers: { [q.company]: 'x'.repeat(201) } }, `answers.${q.company}`, QM.tooLong('Company', 200)],
      [{ attendees: [good(1), good(2)], answers: { [q.company]: 42 } }, `answers.${q.company}`, QM.notText('Company')],
      [{ attendees: [good(1), good(2)], answers: { [theirs]: 'hi' } }, `answers.${theirs}`, QM.unknownQuestion],
      [{ attendees: [good(1), { ...good(2), email: 'not-an-email' }] }, 'attendees.1.email', QM.emailInvalid],
      [{ attendees: [{ ...good(1), ticketTypeId: tt(DINNER, e) }, good(2)] }, 'attendees', QM.attendeesMismatch],
    ];
    for (const [body, field, message] of cases) {
      const res = await placeFree(e, body);
      expect(res.status, field).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION');
      expect(res.body.error.fields[field], JSON.stringify(res.body)).toBe(message);
    }
    // The shape itself (an answer that is an object): also a 400.
    expect((await placeFree(e, { answers: { [q.company]: { x: 1 } } })).status).toBe(400);
    expect(await orderCount(e)).toBe(0);
    expect(await db().select().from(orderAnswers).where(eq(orderAnswers.eventId, e.id))).toHaveLength(0);
  });

  it('a buyer’s names and answers: on the tickets, the PDF, the door, the order page and the order link; the report counts each choice', async () => {
    const e = await newEvent();
    const q = await askQuestions(e);
    const form = await site().get(`/api/p/tenants/${tenant.id}/events/${e.id}/attendee-form`);
    expect(form.status).toBe(200);
    expect(form.body.questions.map((x: { label: string }) => x.label)).toEqual(['Diet', 'Workshops', 'Company']);
    const placed = await placeFree(
      e,
      {
        answers: { [q.company]: 'Acme' },
        attendees: [
          { ticketTypeId: tt(CONF, e), fullName: 'Grace Hopper', email: 'grace@navy.test', answers: { [q.diet]: 'Vegan', [q.workshops]: ['C', 'A'] } },
          { ticketTypeId: tt(CONF, e), fullName: 'Alan Turing', answers: { [q.diet]: 'None' } },
          { ticketTypeId: tt(DINNER, e), answers: { [q.diet]: 'Vegan' } },
        ],
      },
      [
        { ticketTypeId: tt(CONF, e), quantity: 2 },
        { ticketTypeId: tt(DINNER, e), quantity: 1 },
      ],
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    await server.app.deps.jobs.drain();
    const [order] = await db().select().from(orders).where(eq(orders.orderUid, placed.body.orderUID));
    expect(order!.status).toBe('completed');
    const issued = await db().select().from(tickets).where(eq(tickets.orderId, order!.id));
    expect(issued.map((t) => [t.ticketTypeName, t.fullName, t.email]).sort()).toEqual([
      ['Conference', 'Alan Turing', 'buyer@answers.test'],
      ['Conference', 'Grace Hopper', 'grace@navy.test'],
      // No name given for the dinner: the buyer's.
      ['Dinner', 'Ada Lovelace', 'buyer@answers.test'],
    ]);

    // The PDF.
    const mail = (await db().select().from(outbox).where(eq(outbox.to, 'buyer@answers.test'))).find((m) => m.text.includes(order!.orderUid));
    const token = /\/orders\/([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    const pdf = await site().post(`/api/p/order-links/${token}/download`);
    expect(pdf.status).toBe(200);
    const text = inspectPdf(pdf.raw).pages.map((p) => p.text).join('\n');
    expect(text).toContain('Grace Hopper');
    expect(text).toContain('Alan Turing');

    // The order link: the tickets' names, and the answers.
    const page = await site().get(`/api/p/order-links/${token}`);
    expect(page.body.tickets.map((t: { fullName: string }) => t.fullName).sort()).toEqual(['Ada Lovelace', 'Alan Turing', 'Grace Hopper']);
    const linkAnswers = await site().get(`/api/p/order-links/${token}/answers`);
    expect(linkAnswers.body).toMatchObject({ editable: true, answers: [{ label: 'Company', text: 'Acme' }] });
    expect(linkAnswers.body.attendees.map((a: { fullName: string; answers: Array<{ text: string }> }) => [a.fullName, a.answers.map((x) => x.text)])).toEqual([
      ['Grace Hopper', ['Vegan', 'A; C']],
      ['Alan Turing', ['None']],
      ['Ada Lovelace', ['Vegan']],
    ]);

    // The door: the attendee's name in the scan's result.
    const grace = issued.find((t) => t.fullName === 'Grace Hopper')!;
    const { signTicketCode } = await import('../checkin/ticket-code.js');
    const scan = await admin.post(CHECKIN_PATHS.scans(tenant.id, e.id), { clientScanId: randomUUID(), deviceId: 'door-1', code: signTicketCode(server.config.secret, e.id, grace.ticketUid) });
    expect(scan.body).toMatchObject({ result: 'admitted', ticket: { fullName: 'Grace Hopper' } });

    // The organiser's order page.
    const detail = await admin.get(`${base(e)}/orders/${order!.orderUid}/answers`);
    expect(detail.status).toBe(200);
    expect(detail.body.attendees[0]).toMatchObject({ fullName: 'Grace Hopper', email: 'grace@navy.test', ticketUid: grace.ticketUid });

    // The report: counts per choice (paid orders).
    const report = await admin.get(`${base(e)}/answers-report`);
    const diet = report.body.questions.find((x: { label: string }) => x.label === 'Diet');
    expect(diet).toMatchObject({ answered: 3, choices: [{ option: 'None', count: 1 }, { option: 'Vegetarian', count: 0 }, { option: 'Vegan', count: 2 }] });
    const ws = report.body.questions.find((x: { label: string }) => x.label === 'Workshops');
    expect(ws.choices).toEqual([{ option: 'A', count: 1 }, { option: 'B', count: 0 }, { option: 'C', count: 1 }]);

    // An edit of the question after the sale keeps the earlier answers as they were given.
    await admin.put(`${base(e)}/questions/${q.company}`, { details: { label: 'Organisation', kind: 'shortText' } });
    const after = await admin.get(`${base(e)}/orders/${order!.orderUid}/answers`);
    expect(after.body.answers).toEqual([expect.objectContaining({ label: 'Company', text: 'Acme' })]);
  });
});

describe('changing answers after the sale', () => {
  async function givenAnsweredOrder() {
    const e = await newEvent();
    const q = await askQuestions(e);
    const placed = await placeFree(e, {
      attendees: [
        { ticketTypeId: tt(CONF, e), fullName: 'Grace Hopper', answers: { [q.diet]: 'Vegan' } },
        { ticketTypeId: tt(CONF, e), fullName: 'Alan Turing', answers: { [q.diet]: 'None' } },
      ],
    });
    expect(placed.status).toBe(201);
    await server.app.deps.jobs.drain();
    const [order] = await db().select().from(orders).where(eq(orders.orderUid, placed.body.orderUID));
    const mail = (await db().select().from(outbox).where(eq(outbox.to, 'buyer@answers.test'))).find((m) => m.text.includes(order!.orderUid));
    return { e, q, order: order!, token: /\/orders\/([A-Za-z0-9_-]+)/.exec(mail!.text)![1]! };
  }
  const edit = (e: GivenEventOnSale, q: Awaited<ReturnType<typeof askQuestions>>, second: string) => ({
    attendees: [
      { ticketTypeId: tt(CONF, e), fullName: 'Grace Hopper', answers: { [q.diet]: 'Vegan' } },
      { ticketTypeId: tt(CONF, e), fullName: second, answers: { [q.diet]: 'Vegetarian' } },
    ],
  });

  it('the organiser changes a name from the order page: the ticket carries it; bad input is a 400, nothing written', async () => {
    const { e, q, order } = await givenAnsweredOrder();
    const res = await admin.put(`${base(e)}/orders/${order.orderUid}/answers`, edit(e, q, 'Joan Clarke'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.attendees.map((a: { fullName: string }) => a.fullName)).toEqual(['Grace Hopper', 'Joan Clarke']);
    const names = (await db().select().from(tickets).where(eq(tickets.orderId, order.id))).map((t) => t.fullName).sort();
    expect(names).toEqual(['Grace Hopper', 'Joan Clarke']);
    const bad = await admin.put(`${base(e)}/orders/${order.orderUid}/answers`, { attendees: [edit(e, q, 'X').attendees[0], { ticketTypeId: tt(CONF, e), fullName: '', answers: { [q.diet]: 'None' } }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields['attendees.1.fullName']).toBe(QM.nameRequired);
    expect((await db().select().from(orderAttendees).where(eq(orderAttendees.orderId, order.id))).map((a) => a.fullName).sort()).toEqual(['Grace Hopper', 'Joan Clarke']);
    // Another tenant's admin: 404 (or 403 off their tenant), nothing written.
    expect([403, 404]).toContain((await otherAdmin.put(`${base(e)}/orders/${order.orderUid}/answers`, edit(e, q, 'Mallory'))).status);
  });

  it('the buyer changes them from the order link until the deadline; after it a 409 ANSWERS_LOCKED and nothing written', async () => {
    const { e, q, order, token } = await givenAnsweredOrder();
    const ok = await site().put(`/api/p/order-links/${token}/answers`, edit(e, q, 'Joan Clarke'));
    expect(ok.status).toBe(200);
    expect(ok.body.editable).toBe(true);
    const past = new Date(Date.now() - 60_000).toISOString();
    const settings = await admin.put(`${base(e)}/attendee-settings`, { answersDeadline: past });
    expect(settings.body.answersDeadline).toBe(past);
    expect((await site().get(`/api/p/order-links/${token}/answers`)).body.editable).toBe(false);
    const late = await site().put(`/api/p/order-links/${token}/answers`, edit(e, q, 'Too Late'));
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: 'CONFLICT', domainCode: 'ANSWERS_LOCKED', message: QM.answersLocked });
    expect((await db().select().from(tickets).where(eq(tickets.orderId, order.id))).map((t) => t.fullName).sort()).toEqual(['Grace Hopper', 'Joan Clarke']);
    // The organiser still may.
    expect((await admin.put(`${base(e)}/orders/${order.orderUid}/answers`, edit(e, q, 'Late Fix'))).status).toBe(200);
    // Without a deadline of its own the event's start counts (in 30 days here).
    await admin.put(`${base(e)}/attendee-settings`, { answersDeadline: null });
    expect(await db().select().from(eventAnswerSettings).where(eq(eventAnswerSettings.eventId, e.id))).toEqual([expect.objectContaining({ answersDeadline: null })]);
    expect((await site().get(`/api/p/order-links/${token}/answers`)).body.editable).toBe(true);
    // A wrong link, or the link on another tenant's host: 404.
    expect((await site().put(`/api/p/order-links/${'A'.repeat(43)}/answers`, edit(e, q, 'X'))).status).toBe(404);
    expect((await server.client(other.url).get(`/api/p/order-links/${token}/answers`)).status).toBe(404);
  });
});

describe('answers in the exports', () => {
  it('the event’s tickets and orders exports have one column per question, cells escaped', async () => {
    const { parseCsv } = await import('../../../test/fixtures/sales.js');
    const e = await newEvent();
    const q = await askQuestions(e);
    // A label and an answer a spreadsheet would run as a formula, and one with a comma and quotes.
    const formula = (await admin.post(`${base(e)}/questions`, { details: { label: '=Notes', kind: 'longText', scope: 'order' } })).body.id as string;
    const placed = await placeFree(e, {
      answers: { [q.company]: 'Acme, "Inc"', [formula]: '=1+1' },
      attendees: [
        { ticketTypeId: tt(CONF, e), fullName: 'Grace Hopper', answers: { [q.diet]: 'Vegan', [q.workshops]: ['A', 'B'] } },
        { ticketTypeId: tt(CONF, e), fullName: 'Alan Turing', answers: { [q.diet]: 'None' } },
      ],
    });
    expect(placed.status).toBe(201);
    await server.app.deps.jobs.drain();
    const exportCsv = async (path: string) => {
      const started = await admin.get(`${base(e)}/${path}/download`);
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      await server.app.deps.jobs.drain();
      const file = await admin.get(started.body.downloadUrl);
      expect(file.status).toBe(200);
      return file.raw.toString('utf8');
    };
    const ticketsCsv = await exportCsv('reports/tickets');
    expect(ticketsCsv.split('\r\n')[0]).toContain(`,Diet,Workshops,Company,'=Notes`);
    expect(ticketsCsv).toContain(`"Acme, ""Inc""",'=1+1`);
    const rows = parseCsv(ticketsCsv);
    const byName = Object.fromEntries(rows.map((r) => [r.Name, r]));
    expect(byName['Grace Hopper']).toMatchObject({ Diet: 'Vegan', Workshops: 'A; B', Company: 'Acme, "Inc"' });
    expect(byName['Alan Turing']).toMatchObject({ Diet: 'None', Workshops: '', Company: 'Acme, "Inc"' });

    const ordersCsv = parseCsv(await exportCsv('reports/order-list'));
    expect(ordersCsv).toHaveLength(1);
    expect(ordersCsv[0]).toMatchObject({ Company: 'Acme, "Inc"', Workshops: 'A; B' });
    expect(ordersCsv[0]!.Diet!.split(' | ').sort()).toEqual(['None', 'Vegan']);
  });
});
