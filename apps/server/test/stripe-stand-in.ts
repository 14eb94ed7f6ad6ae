import { randomBytes } from 'node:crypto';
import http from 'node:http';

// A local stand-in for the Stripe API calls the stripe driver makes, so its tests run the real SDK
// over real HTTP with no network: POST /v1/checkout/sessions, POST /v1/checkout/sessions/{id}/expire
// and POST /v1/refunds (answering refundStatus, with the metadata sent). It records
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
  /** The next call to this path answers with this Stripe error (then behaves normally again). */
  failNext(path: string, status: number, error: { type: string; message: string; code?: string }): void;
  /** The status new refunds answer with ('succeeded' unless a test wants Stripe's asynchronous 'pending'). */
  refundStatus: 'succeeded' | 'pending' | 'failed';
  close(): Promise<void>;
};

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: StandInRequest[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  const refunds = new Map<string, Record<string, unknown>>();
  const byKey = new Map<string, { status: number; body: unknown }>();
  const failures = new Map<string, { status: number; error: unknown }>();
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
      const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
      if (req.method !== 'POST' || (path !== '/v1/checkout/sessions' && path !== '/v1/refunds' && !expire)) {
        return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` } });
      }
      if (!key) return send(400, { error: { type: 'invalid_request_error', message: 'An Idempotency-Key header is required by this stand-in.' } });
      if (replay) return send(replay.status, replay.body);
      const failure = failures.get(path);
      if (failure) {
        failures.delete(path);
        return send(failure.status, { error: failure.error });
      }

      let status = 200;
      let answer: unknown;
      if (expire) {
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
    failNext(path, status, error) {
      failures.set(path, { status, error });
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
