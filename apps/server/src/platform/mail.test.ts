import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { givenTenant, startServer, type TestServer } from '../../test/harness.js';
import { outbox, tenants } from '../db/schema/index.js';
import { smtpSink } from '../../test/fixtures/smtp-sink.js';
import { createJobs } from './jobs.js';
import { createMailer, MAIL_JOB, MAIL_WORKERS, pooledSmtpUrl } from './mail.js';

let sink: Awaited<ReturnType<typeof smtpSink>>;
let server: TestServer;
beforeAll(async () => {
  sink = await smtpSink();
  server = await startServer({ smtpUrl: `smtp://127.0.0.1:${sink.port}` });
});
afterAll(async () => {
  await server.close();
  await sink.close();
});

describe('mail through SMTP (SMTP_URL set)', () => {
  it('delivers the message with its attachment, then keeps no copy of its body', async () => {
    const tenant = await givenTenant(server);
    await server.app.deps.storage.put('tickets/smtp-1.pdf', Buffer.from('%PDF-1.4 ticket'), 'application/pdf');
    const id = await server.app.deps.db.transaction((tx) =>
      server.app.deps.mailer.send(tx, {
        to: 'buyer@example.test',
        subject: 'Your code',
        text: 'Your code is 123456: http://localhost/verify?code=123456',
        tenantId: tenant.id,
        attachments: [{ filename: 'tickets.pdf', contentType: 'application/pdf', key: 'tickets/smtp-1.pdf' }],
      }),
    );
    await server.app.deps.jobs.drain();

    expect(sink.received).toHaveLength(1);
    const [mail] = sink.received;
    expect(mail!.to).toEqual(['RCPT TO:<buyer@example.test>']);
    expect(mail!.data).toContain('Subject: Your code');
    expect(mail!.data).toContain('Your code is 123456');
    expect(mail!.data).toContain('filename=tickets.pdf');

    const [row] = await server.app.deps.db.select().from(outbox).where(eq(outbox.id, id));
    expect(row!.status).toBe('sent');
    expect(row!.sentAt).toBeInstanceOf(Date);
    expect(row!.text).not.toContain('123456');
  });

  it('mail jobs run at once read their outbox rows together (issue 26 "mail4"): one read for the first, one for all the others', async () => {
    // A mailer on a worker of this test's own (its mail lane, MAIL_LANE at once), whose database calls are counted.
    const database = server.app.deps.db;
    const calls = { select: 0, update: 0 };
    const counted = new Proxy(database, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver);
        if ((prop === 'select' || prop === 'update') && typeof v === 'function')
          return (...a: unknown[]) => {
            calls[prop]++;
            return v.apply(target, a);
          };
        return v;
      },
    });
    const worker = createJobs(database, server.app.log, 60_000, { kinds: [MAIL_JOB] });
    const mailer = createMailer({ db: counted, jobs: worker, storage: server.app.deps.storage, log: server.app.log, smtpUrl: `smtp://127.0.0.1:${sink.port}`, from: 'tickets@example.test' });
    const ids = await database.transaction(async (tx) => {
      const out: string[] = [];
      for (let i = 0; i < 8; i++) out.push(await mailer.send(tx, { to: `lane${i}@example.test`, subject: `Mail ${i}`, text: `Hello ${i}` }));
      return out;
    });
    const before = sink.received.length;
    worker.start();
    try {
      for (let i = 0; i < 300 && (await database.select().from(outbox).where(inArray(outbox.id, ids))).some((r) => r.status !== 'sent'); i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await worker.stop();
      mailer.close();
    }
    const rows = await database.select().from(outbox).where(inArray(outbox.id, ids));
    expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'sent'));
    expect(sink.received.length - before).toBe(8);
    // Eight jobs started at once: two reads (one job's alone, then the seven others' together) where
    // each job read its own row before; their marks as sent in at most as many statements as jobs.
    expect(calls.select).toBe(2);
    expect(calls.update).toBeGreaterThanOrEqual(1);
    expect(calls.update).toBeLessThanOrEqual(8);
  });

  it("sets Reply-To to the tenant's contact e-mail on every mail sent on its behalf, and to none otherwise", async () => {
    const tenant = await givenTenant(server);
    const [t] = await server.app.deps.db.select({ email: tenants.email }).from(tenants).where(eq(tenants.id, tenant.id));
    const before = sink.received.length;
    await server.app.deps.db.transaction(async (tx) => {
      await server.app.deps.mailer.send(tx, { to: 'a@example.test', subject: 'From the organiser', text: 'Hello', tenantId: tenant.id });
      await server.app.deps.mailer.send(tx, { to: 'b@example.test', subject: 'Explicit', text: 'Hello', tenantId: tenant.id, replyTo: 'box@example.test' });
      await server.app.deps.mailer.send(tx, { to: 'c@example.test', subject: 'From the platform', text: 'Hello' });
    });
    await server.app.deps.jobs.drain();
    const got = sink.received.slice(before);
    const of = (to: string) => got.find((m) => m.to[0] === `RCPT TO:<${to}>`)!.data;
    expect(of('a@example.test')).toContain(`Reply-To: ${t!.email}`);
    expect(of('b@example.test')).toContain('Reply-To: box@example.test');
    expect(of('c@example.test')).not.toContain('Reply-To:');
  });
});

describe('the SMTP connection (issue 26)', () => {
  it('is a pool of at most MAIL_WORKERS open connections unless SMTP_URL says otherwise', () => {
    const pooled = new URL(pooledSmtpUrl('smtp://user:pw@mail.example.test:587'));
    expect(pooled.searchParams.get('pool')).toBe('true');
    expect(pooled.searchParams.get('maxConnections')).toBe(String(MAIL_WORKERS));
    expect(`${pooled.username}:${pooled.password}@${pooled.host}`).toBe('user:pw@mail.example.test:587');
    const own = new URL(pooledSmtpUrl('smtps://mail.example.test:465?pool=false&maxConnections=2'));
    expect(own.searchParams.get('pool')).toBe('false');
    expect(own.searchParams.get('maxConnections')).toBe('2');
  });
});
