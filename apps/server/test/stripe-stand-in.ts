import { randomBytes } from 'node:crypto';
import http from 'node:http';

// A local stand-in for the Stripe API calls the stripe driver makes, so its tests run the real SDK
// over real HTTP with no network: POST /v1/checkout/sessions, POST /v1/checkout/sessions/{id}/expire
// and POST /v1/refunds (answering refundStatus, with the metadata sent); for Connect onboarding,
// POST /v1/accounts, GET /v1/accounts/{id} and POST /v1/account_links. It records
// every request, insists on an Idempotency-Key like our driver promises, and replays the first
// answer for a repeated key, as Stripe does.

export type StandInRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The form body as Stripe's bracket keys, e.g. body['metadata[orderId]']. */
  body: Record<string, string>;
  idempotencyKey: string | undefined;
  replayed: boolean;
};

export type StripeStandIn = {
  url: string;
  requests: StandInRequest[];
  sessions: Map<string, Record<string, unknown>>;
  refunds: Map<string, Record<string, unknown>>;
  /** Connected accounts made through POST /v1/accounts; a test sets details_submitted / payouts_enabled as Stripe's onboarding would. */
  accounts: Map<string, Record<string, unknown>>;
  /** The next call (or `times` calls) to this path answers with this Stripe error (then behaves normally again). */
  failNext(path: string, status: number, error: { type: string; message: string; code?: string }, times?: number): void;
  /** The status new refunds answer with ('succeeded' unless a test wants Stripe's asynchronous 'pending'). */
  refundStatus: 'succeeded' | 'pending' | 'failed';
  close(): Promise<void>;
};

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: StandInRequest[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  const refunds = new Map<string, Record<string, unknown>>();
  const accounts = new Map<string, Record<string, unknown>>();
  const byKey = new Map<string, { status: number; body: unknown }>();
  const failures = new Map<string, { status: number; error: unknown; times: number }>();
  const stand = { refundStatus: 'succeeded' as StripeStandIn['refundStatus'] };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const path = (req.url ?? '').split('?')[0]!;
      const key = req.headers['idempotency-key'] as string | undefined;
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
        res.end(JSON.stringify(payload));
      };
      const replay = key ? byKey.get(`${path}|${key}`) : undefined;
      requests.push({ method: req.method ?? '', path, headers: req.headers, body, idempotencyKey: key, replayed: !!replay });

      if (!/^Bearer sk_test_\w+/.test(req.headers.authorization ?? '')) {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      const formOf = (prefix: string) =>
        Object.fromEntries(
          Object.entries(body)
            .filter(([k]) => k.startsWith(`${prefix}[`) && k.endsWith(']'))
            .map(([k, v]) => [k.slice(prefix.length + 1, -1), v]),
        );
      const noSuchAccount = (accountId: string) => ({
        error: { type: 'invalid_request_error', code: 'resource_missing', param: 'account', message: `No such account: '${accountId}'` },
      });
      const read = /^\/v1\/accounts\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && read) {
        const account = accounts.get(decodeURIComponent(read[1]!));
        return account ? send(200, account) : send(404, noSuchAccount(decodeURIComponent(read[1]!)));
      }
      const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
      const connect = path === '/v1/accounts' || path === '/v1/account_links';
      if (req.method !== 'POST' || (path !== '/v1/checkout/sessions' && path !== '/v1/refunds' && !expire && !connect)) {
        return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` } });
      }
      if (!key) return send(400, { error: { type: 'invalid_request_error', message: 'An Idempotency-Key header is required by this stand-in.' } });
      if (replay) return send(replay.status, replay.body);
      const failure = failures.get(path);
      if (failure) {
        if (--failure.times <= 0) failures.delete(path);
        return send(failure.status, { error: failure.error });
      }

      let status = 200;
      let answer: unknown;
      if (path === '/v1/accounts') {
        const account = {
          id: id('acct'),
          object: 'account',
          type: body.type,
          country: body.country,
          email: body.email ?? null,
          business_profile: { name: body['business_profile[name]'] ?? null },
          capabilities: Object.fromEntries(Object.keys(formOf('capabilities')).map((k) => [k.split('][')[0], 'inactive'])),
          metadata: formOf('metadata'),
          details_submitted: false,
          payouts_enabled: false,
          charges_enabled: false,
        };
        accounts.set(account.id, account);
        answer = account;
      } else if (path === '/v1/account_links') {
        if (!body.account || !accounts.has(body.account)) {
          status = 400;
          answer = noSuchAccount(body.account ?? '');
        } else if (!['account_onboarding', 'account_update'].includes(body.type ?? '') || !body.return_url || !body.refresh_url) {
          status = 400;
          answer = { error: { type: 'invalid_request_error', message: 'type, return_url and refresh_url are required by this stand-in.' } };
        } else {
          const created = Math.floor(Date.now() / 1000);
          answer = { object: 'account_link', created, expires_at: created + 300, url: `https://connect.stripe.com/setup/e/${body.account}/${id('link')}` };
        }
      } else if (expire) {
        const session = sessions.get(decodeURIComponent(expire[1]!));
        if (!session) {
          status = 404;
          answer = { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such checkout.session: '${expire[1]}'` } };
        } else if (session.status !== 'open') {
          status = 400;
          answer = { error: { type: 'invalid_request_error', message: 'Only Checkout Sessions with a status of `open` can be expired.' } };
        } else {
          session.status = 'expired';
          answer = session;
        }
      } else if (path === '/v1/checkout/sessions') {
        const amount = Number(body['line_items[0][price_data][unit_amount]']);
        const quantity = Number(body['line_items[0][quantity]'] ?? 1);
        const sessionId = id('cs_test');
        const metadata = Object.fromEntries(
          Object.entries(body)
            .filter(([k]) => /^metadata\[[^\]]+\]$/.test(k))
            .map(([k, v]) => [k.slice('metadata['.length, -1), v]),
        );
        const session = {
          id: sessionId,
          object: 'checkout.session',
          mode: body.mode,
          status: 'open',
          payment_status: 'unpaid',
          amount_total: amount * quantity,
          currency: body['line_items[0][price_data][currency]'],
          customer_email: body.customer_email ?? null,
          client_reference_id: body.client_reference_id ?? null,
          success_url: body.success_url,
          cancel_url: body.cancel_url,
          expires_at: Number(body.expires_at),
          metadata,
          payment_intent: null,
          url: `https://checkout.stripe.com/c/pay/${sessionId}`,
          livemode: false,
        };
        sessions.set(sessionId, session);
        answer = session;
      } else {
        const target = body.payment_intent ?? body.charge;
        if (!target) {
          status = 400;
          answer = { error: { type: 'invalid_request_error', message: 'One of charge or payment_intent is required.' } };
        } else {
          const refund = {
            id: id('re'),
            object: 'refund',
            amount: Number(body.amount),
            currency: 'usd',
            payment_intent: body.payment_intent ?? null,
            charge: body.charge ?? null,
            status: stand.refundStatus,
            metadata: Object.fromEntries(
              Object.entries(body)
                .filter(([k]) => /^metadata\[[^\]]+\]$/.test(k))
                .map(([k, v]) => [k.slice('metadata['.length, -1), v]),
            ),
          };
          refunds.set(refund.id, refund);
          answer = refund;
        }
      }
      byKey.set(`${path}|${key}`, { status, body: answer });
      send(status, answer);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    refunds,
    accounts,
    failNext(path, status, error, times = 1) {
      failures.set(path, { status, error, times });
    },
    get refundStatus() {
      return stand.refundStatus;
    },
    set refundStatus(value) {
      stand.refundStatus = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
