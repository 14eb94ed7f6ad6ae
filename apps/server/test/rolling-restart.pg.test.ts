import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutPayload, Client, givenEventOnSale, givenTenantWithSettings, startServer, type GivenEventOnSale, type GivenTenant, type TestServer } from './harness.js';
import { freePort, startServerProcess, type Exit, type ServerProcess } from './server-process.js';

// Issue 26: three app nodes (the compiled server, as `npm start` runs it) on one PostgreSQL
// database and one shared files directory, behind HAProxy (Debian's package; the configuration is
// docs/deploy.md's), with a real SMTP receiver. Buyers place and pay orders through the proxy
// while the nodes are restarted one by one (SIGTERM, start again). Then: no order request failed
// (the only refusal is "sold out"), nothing was oversold, and every paid order is fulfilled (its
// tickets issued and its ticket mail, with the PDF, received over SMTP). PostgreSQL only.

const STOCK = 80;
const BUYERS = 8;
const SECRET = 'rolling-restart-secret-rolling-restart-01';
const HAPROXY = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy'].find(existsSync) ?? 'haproxy';

let fixtures: TestServer; // in-process, no job worker: writes the fixtures and reads the outcome
let tenant: GivenTenant;
let event: GivenEventOnSale;
let dataDir: string;
let proxy: ChildProcess | undefined;
let proxyLog = '';
let proxyPort = 0;
const nodes: ServerProcess[] = [];
const nodePorts: number[] = [];

// ---- a small SMTP receiver (enough of RFC 5321 for nodemailer without TLS or auth) -------------
type Mail = { to: string[]; data: string };
const mails: Mail[] = [];
const smtp = net.createServer((sock) => {
  sock.setEncoding('latin1');
  let buf = '';
  let data: string | null = null;
  let to: string[] = [];
  sock.write('220 marquee-test ESMTP\r\n');
  sock.on('error', () => {});
  sock.on('data', (chunk: string) => {
    buf += chunk;
    for (;;) {
      if (data !== null) {
        const end = buf.indexOf('\r\n.\r\n');
        if (end < 0) return;
        mails.push({ to, data: data + buf.slice(0, end) });
        buf = buf.slice(end + 5);
        data = null;
        to = [];
        sock.write('250 queued\r\n');
        continue;
      }
      const nl = buf.indexOf('\r\n');
      if (nl < 0) return;
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 2);
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === 'EHLO') sock.write('250-marquee-test\r\n250 8BITMIME\r\n');
      else if (verb === 'RCPT') {
        to.push(/<([^>]*)>/.exec(line)?.[1]?.toLowerCase() ?? '');
        sock.write('250 ok\r\n');
      } else if (verb === 'DATA') {
        data = '';
        sock.write('354 go on\r\n');
      } else if (verb === 'QUIT') sock.end('221 bye\r\n');
      else sock.write('250 ok\r\n'); // HELO, MAIL, RSET, NOOP
    }
  });
});

function haproxyConfig(port: number, servers: number[]) {
  // docs/deploy.md's sample, with the checks made fast for a test.
  return `global
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout check 5s
  option forwardfor
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response

frontend marquee
  bind 127.0.0.1:${port}
  default_backend app

backend app
  balance roundrobin
  option httpchk
  http-check send meth GET uri /api/health ver HTTP/1.1 hdr Host localhost
  http-check expect status 200
  default-server inter 500ms fall 3 rise 2
${servers.map((p, i) => `  server node${i + 1} 127.0.0.1:${p} check`).join('\n')}
`;
}

const nodeEnv = (i: number, smtpPort: number): Record<string, string> => ({
  DATABASE_URL: fixtures.config.databaseUrl!,
  DATA_DIR: dataDir, // one files directory for every node (docs/deploy.md: or one S3 bucket)
  SECRET,
  PUBLIC_PORT: String(proxyPort),
  SEED_DEMO: 'false',
  JOBS_POLL_MS: '100',
  JOBS_NODE_ID: `node-${i + 1}`,
  PAYMENT_DRIVER: 'test',
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  // The proxy checks every 500 ms and takes a node out after three 503s (a loaded machine's slow
  // answer must not take every node out at once); its retries cover the rest.
  SHUTDOWN_DELAY_MS: '2000',
  SHUTDOWN_TIMEOUT_MS: '15000',
  LOG_LEVEL: process.env.ROLLING_DEBUG ? 'info' : 'warn',
});

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('rolling-restart.pg.test.ts needs TEST_DATABASE_URL');
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.address() as net.AddressInfo).port;
  fixtures = await startServer();
  tenant = await givenTenantWithSettings(fixtures);
  event = await givenEventOnSale(fixtures, tenant.id, { capacity: STOCK, ticketTypes: [{ name: 'Flash', price: 2500, quantity: STOCK }] });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'marquee-rolling-'));
  proxyPort = await freePort();
  for (let i = 0; i < 3; i++) nodePorts.push(await freePort());
  nodes.push(...(await Promise.all(nodePorts.map((port, i) => startServerProcess({ name: `node-${i + 1}`, port, env: nodeEnv(i, smtpPort), startTimeoutMs: 90_000 })))));
  const cfg = path.join(dataDir, 'haproxy.cfg');
  writeFileSync(cfg, haproxyConfig(proxyPort, nodePorts));
  proxy = spawn(HAPROXY, ['-f', cfg, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  proxy.stdout!.on('data', (d: Buffer) => (proxyLog += d.toString()));
  proxy.stderr!.on('data', (d: Buffer) => (proxyLog += d.toString()));
  for (let i = 0; i < 100; i++) {
    const up = await new Client(proxyPort, `localhost:${proxyPort}`).get('/api/health').then((r) => r.status === 200, () => false);
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`haproxy did not start:\n${proxyLog}`);
}, 180_000);

afterAll(async () => {
  proxy?.kill('SIGKILL');
  await Promise.all(nodes.map((n) => n.kill()));
  await fixtures?.close();
  await new Promise((resolve) => smtp.close(resolve));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type Outcome = { email: string; placed?: string; paid?: boolean; soldOut?: boolean; failure?: string };

/** One buyer through the proxy: PLACE ORDER, then pays with the test card on the pay page. */
async function buyer(i: number): Promise<Outcome> {
  const email = `rolling-${i}@example.test`;
  const c = new Client(proxyPort, `${tenant.url}.localhost:${proxyPort}`);
  try {
    const res = await c.post(`/api/p/tenants/${tenant.id}/events/${event.id}/orders`, checkoutPayload([{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 1 }], { email }));
    if (res.status === 409 && res.body?.error?.domainCode === 'CART_CONFLICT') return { email, soldOut: true };
    if (res.status !== 201) return { email, failure: `order ${res.status} ${JSON.stringify(res.body).slice(0, 300)}` };
    const pay = await c.request('POST', new URL(res.body.message).pathname, Buffer.from('cardNumber=4242424242424242&expiry=11%2F39&cvc=999'), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    if (pay.status !== 303) return { email, placed: res.body.orderUID, failure: `pay ${pay.status} ${String(pay.body).slice(0, 300)}` };
    return { email, placed: res.body.orderUID, paid: true };
  } catch (err) {
    return { email, failure: `${(err as NodeJS.ErrnoException).code ?? ''} ${(err as Error).message}` };
  }
}

const q = async <T>(text: string) => ((await fixtures.app.deps.db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;

describe('three nodes behind HAProxy, restarted one by one during a sale (issue 26)', () => {
  it('fails no order, oversells nothing and fulfils every paid order', async () => {
    const startedAt = Date.now();
    const outcomes: Outcome[] = [];
    let selling = true;
    // While the nodes restart, each buyer comes back 1.5 s after its last purchase, so that the
    // sale lasts across all three restarts; then they go at full speed until it is sold out.
    let paced = true;
    let next = 0;
    const crowd = Array.from({ length: BUYERS }, async () => {
      while (selling) {
        outcomes.push(await buyer(next++));
        if (paced || outcomes.at(-1)!.soldOut) await new Promise((r) => setTimeout(r, paced ? 1_500 : 50));
      }
    });
    const paid = () => outcomes.filter((o) => o.paid).length;
    for (let t = 0; paid() < 10; t++) {
      if (t > 1500) throw new Error(`no sale through the proxy: ${JSON.stringify(outcomes.slice(-5))}\n${proxyLog.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 20));
    }

    // The rolling restart: each node in turn gets SIGTERM, exits, starts again; the next one goes
    // once the proxy has it back.
    const restarts: Array<Exit & { ms: number; node: string; paidBefore: number }> = [];
    for (let i = 0; i < nodes.length; i++) {
      const paidBefore = paid();
      const exit = await nodes[i]!.terminate();
      if (process.env.ROLLING_DEBUG) console.log(nodes[i]!.output().split('\n').filter((l) => /shut|"level":(40|50|60)/.test(l)).join('\n').slice(-3000));
      if (process.env.ROLLING_DEBUG) console.log(`${nodes[i]!.name} exit ${JSON.stringify(exit)} paid ${paid()} failures ${JSON.stringify(outcomes.filter((o) => o.failure).slice(0, 3))}`);
      restarts.push({ ...exit, node: nodes[i]!.name, paidBefore });
      nodes[i] = await startServerProcess({ name: `node-${i + 1}`, port: nodePorts[i]!, env: nodeEnv(i, (smtp.address() as net.AddressInfo).port), startTimeoutMs: 60_000 });
      await new Promise((r) => setTimeout(r, 1_500)); // rise 2 x inter 500 ms
    }
    // The rest of the sale on the restarted nodes, at full speed until it is sold out.
    paced = false;
    for (let t = 0; t < 800 && !outcomes.some((o) => o.soldOut); t++) await new Promise((r) => setTimeout(r, 50));
    selling = false;
    await Promise.all(crowd);
    const saleMs = Date.now() - startedAt;

    // Every paid order fulfilled: wait for the jobs (webhook of the test gateway, fulfilment, mail).
    const paidEmails = outcomes.filter((o) => o.paid).map((o) => o.email);
    const deadline = Date.now() + 90_000;
    let pending = -1;
    while (Date.now() < deadline) {
      const [row] = await q<{ n: number }>(
        `select (select count(*)::int from jobs where done_at is null and failed_at is null and run_at <= now()) as n`,
      );
      const mailed = new Set(mails.flatMap((m) => m.to));
      pending = row!.n + paidEmails.filter((e) => !mailed.has(e)).length;
      if (pending === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const fulfilledMs = Date.now() - startedAt;
    if (process.env.ROLLING_DEBUG) console.log(`sale ${saleMs} ms, fulfilled ${fulfilledMs} ms, pending ${pending}`);

    const failures = outcomes.filter((o) => o.failure);
    const [stock] = await q<{ remaining: number; capacity: number; taken: number; tickets: number }>(
      `select t.remaining, e.remaining_capacity as capacity,
              (select coalesce(sum(l.quantity), 0)::int from order_lines l join orders o on o.tenant_id = l.tenant_id and o.id = l.order_id
                where o.event_id = e.id and o.status in ('draft', 'processing', 'completed')) as taken,
              (select count(*)::int from tickets k where k.event_id = e.id) as tickets
         from ticket_types t join events e on e.id = t.event_id where t.id = '${event.ticketTypeIds[0]}'`,
    );
    const paidOrders = await q<{ order_uid: string; email: string; status: string; ticket_count: number; tickets: number }>(
      `select o.order_uid, o.email, o.status, o.ticket_count, (select count(*)::int from tickets t where t.order_id = o.id) as tickets
         from test_checkout_sessions s join orders o on o.tenant_id = s.tenant_id and o.id = s.order_id where s.status = 'complete'`,
    );
    const ticketMails = mails.filter((m) => /Content-Type: application\/pdf/i.test(m.data));
    const mailedWithPdf = new Set(ticketMails.flatMap((m) => m.to));
    console.log(
      [
        `rolling restart behind HAProxy: 3 nodes, ${outcomes.length} buyers in ${(saleMs / 1000).toFixed(1)} s`,
        `  orders placed ${outcomes.filter((o) => o.placed).length}, paid ${paidEmails.length}, refused sold out ${outcomes.filter((o) => o.soldOut).length}, failed ${failures.length}`,
        `  sold ${stock!.taken}/${STOCK} (tickets ${stock!.tickets}), paid orders fulfilled ${paidOrders.filter((p) => p.status === 'completed' && p.tickets === p.ticket_count).length}/${paidOrders.length}, ticket mails with PDF over SMTP ${mailedWithPdf.size}, all done ${(fulfilledMs / 1000).toFixed(1)} s after the sale began`,
        ...restarts.map((r) => `  ${r.node}: SIGTERM after ${r.paidBefore} paid orders, exit ${r.code} in ${r.ms} ms, restarted`),
      ].join('\n'),
    );

    expect(failures, proxyLog.slice(-2000)).toEqual([]);
    expect(restarts.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(restarts.every((r) => r.ms < 15_000)).toBe(true);
    expect(restarts.at(-1)!.paidBefore).toBeGreaterThan(restarts[0]!.paidBefore); // the sale went on across the restarts
    expect(pending).toBe(0);
    // 0 oversold, and it did sell out.
    expect(outcomes.some((o) => o.soldOut)).toBe(true);
    expect(stock!.taken).toBeLessThanOrEqual(STOCK);
    expect(stock!.remaining + stock!.taken).toBe(STOCK);
    expect(stock!.capacity + stock!.taken).toBe(STOCK);
    expect(stock!.tickets).toBeLessThanOrEqual(STOCK);
    // Every paid order fulfilled: completed, its tickets issued, its ticket mail received with the PDF.
    expect(paidOrders.map((p) => p.email).sort()).toEqual([...paidEmails].sort());
    expect(paidOrders.filter((p) => p.status !== 'completed' || p.tickets !== p.ticket_count)).toEqual([]);
    expect(paidEmails.filter((e) => !mailedWithPdf.has(e))).toEqual([]);
    expect(await q(`select name, last_error from jobs where failed_at is not null`)).toEqual([]);
  }, 240_000);
});
