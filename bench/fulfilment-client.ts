// The buyers' and the mail relay's side of bench/fulfilment.ts, in a child process of its own (issue 26
// "mail2"): the SMTP sink that receives the ticket mails, the payers that pay the test checkouts on a
// clock, and the same-run reference (bare mails through nodemailer to the same sink). Run in the
// server's process they shared its main thread, whose CPU per order is the figure the bench prints;
// here they use their own. Driven by bench/fulfilment.ts over the IPC channel:
//   -> { kind: 'listen' }                                   <- { kind: 'listening', port }
//   -> { kind: 'reference', count }                         <- { kind: 'reference', seconds }
//   -> { kind: 'pay', port, host, sessions, seconds, concurrency } <- { kind: 'paid', failed, seconds }
//   -> { kind: 'wait', count, timeoutMs }                   <- { kind: 'waited', received }  (once count mails arrived, or at the timeout)
//   -> { kind: 'mails' }                                    <- { kind: 'mails', mails }
//   -> { kind: 'close' }                                    (exits)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';

export type Mail = { at: number; to: string; pdf: boolean; ics: boolean; bytes: number };
export type ClientRequest =
  | { kind: 'listen' }
  | { kind: 'reference'; count: number }
  | { kind: 'pay'; port: number; host: string; sessions: string[]; seconds: number; concurrency: number }
  | { kind: 'wait'; count: number; timeoutMs: number }
  | { kind: 'mails' }
  | { kind: 'close' };
export type ClientAnswer =
  | { kind: 'listening'; port: number }
  | { kind: 'reference'; seconds: number }
  | { kind: 'paid'; failed: number; seconds: number }
  | { kind: 'waited'; received: number }
  | { kind: 'mails'; mails: Mail[] };

const mails: Mail[] = [];
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  // No reverse DNS lookup of each client (this machine has no resolver to ask: each one waited for its timeout).
  disableReverseLookup: true,
  size: 20 * 1024 * 1024,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('latin1');
      mails.push({
        at: Date.now(),
        to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()).join(','),
        pdf: /content-type:\s*application\/pdf/i.test(raw),
        ics: /content-type:\s*text\/calendar/i.test(raw),
        bytes: raw.length,
      });
      callback();
    });
  },
});
let smtpPort = 0;

function request(agent: http.Agent, port: number, host: string, urlPath: string, body: string) {
  return new Promise<number>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: urlPath, agent, headers: { host, 'content-type': 'application/x-www-form-urlencoded' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Payment i is made at i * seconds / n s (or as soon as one of the `concurrency` is free). */
async function pay(m: Extract<ClientRequest, { kind: 'pay' }>) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: m.concurrency });
  const start = Date.now();
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: m.concurrency }, async () => {
      while (next < m.sessions.length) {
        const i = next++;
        const wait = start + (i * m.seconds * 1000) / m.sessions.length - Date.now();
        if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
        const status = await request(agent, m.port, m.host, `/pay/${m.sessions[i]!}`, 'cardNumber=4242424242424242').catch(() => 0);
        if (status !== 303) failed++;
      }
    }),
  );
  agent.destroy();
  return { failed, seconds: (Date.now() - start) / 1000 };
}

/** Bare messages of a ticket mail's size through nodemailer's pool to the sink, 4 at a time; the sink then forgets them. */
async function reference(count: number) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true, pool: true, maxConnections: 4 });
  const pdfLike = Buffer.alloc(24_000, 7);
  const start = Date.now();
  let sent = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (sent < count) {
        sent++;
        await transport.sendMail({ from: 'bench@example.test', to: 'reference@example.test', subject: 'Reference', text: 'x', attachments: [{ filename: 'x.pdf', content: pdfLike }] });
      }
    }),
  );
  const seconds = (Date.now() - start) / 1000;
  transport.close();
  mails.splice(0);
  return seconds;
}

const answer = (a: ClientAnswer) => process.send!(a);

process.on('message', (m: ClientRequest) => {
  void (async () => {
    if (m.kind === 'listen') {
      await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', () => resolve()));
      smtpPort = (sink.server.address() as AddressInfo).port;
      answer({ kind: 'listening', port: smtpPort });
    } else if (m.kind === 'reference') answer({ kind: 'reference', seconds: await reference(m.count) });
    else if (m.kind === 'pay') answer({ kind: 'paid', ...(await pay(m)) });
    else if (m.kind === 'wait') {
      const until = Date.now() + m.timeoutMs;
      while (mails.length < m.count && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      answer({ kind: 'waited', received: mails.length });
    } else if (m.kind === 'mails') answer({ kind: 'mails', mails });
    else if (m.kind === 'close') sink.close(() => process.exit(0));
  })();
});
