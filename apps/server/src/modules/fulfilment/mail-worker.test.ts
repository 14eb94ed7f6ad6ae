import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenTenant, startServer, type TestServer } from '../../../test/harness.js';
import { smtpSink } from '../../../test/fixtures/smtp-sink.js';
import { closePdfWorkers, mailComposer, pdfWorkerStats, usePdfWorkers } from './pdf-workers.js';

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
