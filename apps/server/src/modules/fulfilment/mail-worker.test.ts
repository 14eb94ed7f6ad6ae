import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../db/schema/index.js';
import { givenHeldOrder, givenTenant, inspectPdf, startServer, type TestServer } from '../../../test/harness.js';
import { smtpSink } from '../../../test/fixtures/smtp-sink.js';
import { closePdfWorkers, mailComposer, pdfWorkerStats, usePdfWorkers } from './pdf-workers.js';
import { FULFIL_JOB } from './service.js';

// Issue 26 "mail2": a mail's MIME source (nodemailer's composing, the attachments' base64, the
// quoted-printable bodies) is built on the PDF worker threads, and the mail job only hands the
// finished bytes to the SMTP connection.

let sink: Awaited<ReturnType<typeof smtpSink>>;
let server: TestServer;
beforeAll(async () => {
  sink = await smtpSink();
  server = await startServer({ smtpUrl: `smtp://127.0.0.1:${sink.port}` });
});
afterAll(async () => {
  server.app.deps.mailer.composeWith(null);
  usePdfWorkers(0);
  await closePdfWorkers();
  await server.close();
  await sink.close();
});

describe('mails composed on the worker threads (issue 26 "mail2")', () => {
  it('are built on the pool when the process has PDF workers, and arrive as nodemailer builds them inline', async () => {
    const tenant = await givenTenant(server);
    const { deps } = server.app;
    await deps.storage.put('tickets/worker-1.pdf', Buffer.from('%PDF-1.4 ticket from the worker'), 'application/pdf');
    const send = (to: string) =>
      deps.db.transaction((tx) =>
        deps.mailer.send(tx, {
          to,
          subject: 'Your tickets for Summer Jam',
          text: 'Thank you for your order. Zoë’s tickets are attached.',
          html: '<p>Thank you for your order. <b>Zoë’s</b> tickets are attached.</p>',
          tenantId: tenant.id,
          attachments: [{ filename: 'tickets.pdf', contentType: 'application/pdf', key: 'tickets/worker-1.pdf' }],
        }),
      );

    // Inline (no workers): nodemailer composes on this thread.
    expect(mailComposer()).toBeNull();
    await send('inline@example.test');
    await deps.jobs.drain();

    usePdfWorkers(1);
    deps.mailer.composeWith(mailComposer());
    await send('worker@example.test');
    await deps.jobs.drain();
    // The message was built on the pool's thread (one task run there).
    expect(await pdfWorkerStats()).toEqual({ threads: 1, completed: 1 });

    const of = (to: string) => sink.received.find((m) => m.to[0] === `RCPT TO:<${to}>`)!.data;
    const inline = of('inline@example.test');
    const worker = of('worker@example.test');
    for (const data of [inline, worker]) {
      expect(data).toContain('Subject: Your tickets for Summer Jam');
      expect(data).toMatch(/Reply-To: \S+@/);
      expect(data).toContain('filename=tickets.pdf');
      expect(data).toContain(Buffer.from('%PDF-1.4 ticket from the worker').toString('base64'));
      expect(data).toMatch(/Message-ID: <[0-9a-f-]{36}@marquee>/);
    }
    // The same parts in the same order, whichever thread built them (the boundaries and ids differ).
    const parts = (data: string) => data.match(/Content-Type: [^;\r\n]+/g);
    expect(parts(worker)).toEqual(parts(inline));
  });
});

describe('the tickets mail composed with its PDF (issue 26 "mail3")', () => {
  it('is one worker task per order, and the mail job sends it without reading the attachments back; a job without it composes the same mail from the outbox', async () => {
    const tenant = await givenTenant(server);
    const { deps } = server.app;
    usePdfWorkers(1);
    deps.mailer.composeWith(mailComposer());
    const tasks0 = (await pdfWorkerStats())?.completed ?? 0;
    // Every storage read during the run (the mail job used to read the PDF and the .ics back).
    const reads: string[] = [];
    const get = deps.storage.get.bind(deps.storage);
    deps.storage.get = async (key) => {
      reads.push(key);
      return get(key);
    };
    try {
      const orders: Awaited<ReturnType<typeof givenHeldOrder>>[] = [];
      for (let i = 0; i < 3; i++) {
        const order = await givenHeldOrder(server, tenant.id, { status: 'processing' });
        await deps.jobs.enqueue(deps.db, FULFIL_JOB, { tenantId: tenant.id, orderId: order.orderId }, { dedupeKey: `fulfil:${order.orderId}` });
        orders.push(order);
      }
      // The last order's mail as a job on another node would find it: nothing composed ahead in this process.
      const fulfilled = await deps.jobs.runDue(3);
      expect(fulfilled).toBe(3);
      const [elsewhere] = await deps.db.select().from(outbox).where(eq(outbox.to, orders[2]!.email));
      deps.mailer.forget(elsewhere!.id);
      await deps.jobs.drain();

      // Three PDFs with their mails built in three tasks (it was two tasks an order), and one more for the mail composed from the outbox.
      expect(((await pdfWorkerStats())?.completed ?? 0) - tasks0).toBe(4);
      // Only that mail read its attachments back (the PDF and the .ics).
      expect(reads.filter((k) => k.startsWith('tickets/'))).toHaveLength(2);
      expect(reads.every((k) => k.includes(orders[2]!.orderId))).toBe(true);

      const of = (to: string) => sink.received.filter((m) => m.to[0] === `RCPT TO:<${to}>`).map((m) => m.data);
      const parts = (data: string) => data.match(/Content-Type: [^;\r\n]+/g);
      for (const order of orders) {
        const mails = of(order.email);
        expect(mails).toHaveLength(1);
        const data = mails[0]!;
        const [row] = await deps.db.select().from(outbox).where(eq(outbox.to, order.email));
        expect(row!.status).toBe('sent');
        expect(data).toMatch(/Subject: Your tickets for/);
        expect(data).toContain(`Message-ID: <${row!.id}@marquee>`);
        expect(data).toContain(`Reply-To: hello@${tenant.url}.test`);
        expect(data).toContain(`filename=tickets_${order.orderUid}.pdf`);
        expect(data).toContain('filename=invite.ics');
        // The PDF in the mail is the one stored for the order (the same bytes), with a page per ticket.
        const stored = (await get(row!.attachments[0]!.key))!.bytes;
        const pdfPart = data.split(`filename=tickets_${order.orderUid}.pdf`)[1]!.split(/\r\n\r\n/)[1]!.split('\r\n--')[0]!;
        expect(Buffer.from(pdfPart.replace(/\s+/g, ''), 'base64').equals(stored)).toBe(true);
        expect(inspectPdf(stored).pages).toHaveLength(order.seats);
        // The same parts in the same order as the mail composed from the outbox row.
        expect(parts(data)).toEqual(parts(of(orders[2]!.email)[0]!));
      }
    } finally {
      deps.storage.get = get;
      deps.mailer.composeWith(null);
      usePdfWorkers(0);
      await closePdfWorkers();
    }
  });
});
