import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { M } from '@marquee/core';
import type { Deps } from '../../deps.js';
import { signTestWebhook, TEST_EXPIRE_JOB, TEST_SIGNATURE_HEADER } from '../../platform/payments/test-driver.js';
import { payPageCsp, renderPayPage, type PayPageView } from './pay-page.js';
import type { RefundJobPayload } from './refunds.js';
import {
  expireTestCheckout,
  findPaySession,
  payTestSession,
  receiveWebhook,
  refundPayment,
  REFUND_JOB,
  sessionState,
  TEST_WEBHOOK_JOB,
  type LegacyRefundJob,
  type TestSession,
} from './service.js';

const ZWebhookAnswer = z.object({ received: z.literal(true), outcome: z.string() });
const WEBHOOK_PATH = { test: '/api/payments/webhooks/test', stripe: '/api/payments/webhooks/stripe' } as const;

/** Payment webhooks (both drivers), the test gateway's hosted pay page, and the payment jobs. */
export function registerPaymentRoutes(app: FastifyInstance, deps: Deps) {
  // The test gateway delivers its webhooks through our own HTTP pipeline, signed like any other.
  deps.jobs.register(TEST_WEBHOOK_JOB, async ({ body }: { body: string }) => {
    const res = await app.inject({
      method: 'POST',
      url: WEBHOOK_PATH.test,
      headers: { 'content-type': 'application/json', [TEST_SIGNATURE_HEADER]: signTestWebhook(deps.config.secret, body) },
      payload: body,
    });
    if (res.statusCode !== 200) throw new Error(`test webhook answered ${res.statusCode}: ${res.body}`);
  });
  // A gateway sends its webhooks concurrently (Stripe's arrive as parallel HTTP requests): the test
  // gateway's run in a lane of their own, so that a sale's confirmations do not queue one by one
  // behind the main loop's PDFs and mails (bench/README.md "From payment to ticket mail").
  deps.jobs.lane([TEST_WEBHOOK_JOB], 4);
  deps.jobs.register(TEST_EXPIRE_JOB, async ({ tenantId, sessionId }: { tenantId: string; sessionId: string }) =>
    expireTestCheckout({ deps, tenantId, sessionId }),
  );
  deps.jobs.register(REFUND_JOB, async (job: RefundJobPayload | LegacyRefundJob, info) => refundPayment({ deps, job, attempt: info.attempt }));

  // Signatures are computed over the exact bytes received, so these routes get the raw body.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) => done(null, body));
    const r = scope.withTypeProvider<ZodTypeProvider>();
    for (const provider of ['test', 'stripe'] as const) {
      r.post(
        WEBHOOK_PATH[provider],
        {
          config: { access: { kind: 'public' } },
          schema: { tags: ['payments'], summary: `${provider} payment webhook`, response: { 200: ZWebhookAnswer } },
        },
        async (req) => {
          const header = req.headers[provider === 'stripe' ? 'stripe-signature' : TEST_SIGNATURE_HEADER];
          const { outcome } = await receiveWebhook({
            deps,
            provider,
            rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
            signature: typeof header === 'string' ? header : undefined,
          });
          return { received: true as const, outcome };
        },
      );
    }
  });

  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    const send = (reply: FastifyReply, status: number, view: PayPageView, session: TestSession | null) =>
      reply
        .status(status)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('content-security-policy', payPageCsp(session))
        .send(renderPayPage(view));

    const sessionOf = (req: FastifyRequest) =>
      findPaySession({ deps, host: req.headers.host ?? '', sessionId: (req.params as { sessionId: string }).sessionId });

    scope.get('/pay/:sessionId', { schema: { hide: true } }, async (req, reply) => {
      const session = await sessionOf(req);
      if (!session) return send(reply, 404, { kind: 'missing' }, null);
      const state = sessionState(session);
      if (state === 'expired') return send(reply, 410, { kind: 'expired', session }, session);
      if (state === 'complete') return send(reply, 200, { kind: 'complete', session }, session);
      return send(reply, 200, { kind: 'form', session }, session);
    });

    scope.post('/pay/:sessionId', { schema: { hide: true } }, async (req, reply) => {
      // The page has no session cookie to protect, but a cross-site post is still refused.
      const origin = req.headers.origin;
      if (origin && origin !== 'null' && safeHost(origin) !== req.headers.host) return send(reply, 403, { kind: 'missing' }, null);
      const session = await sessionOf(req);
      if (!session) return send(reply, 404, { kind: 'missing' }, null);
      const form = (req.body ?? {}) as Record<string, unknown>;
      const field = (name: string) => (typeof form[name] === 'string' ? (form[name] as string).slice(0, 64) : '');
      const result = await payTestSession({ deps, session, card: { number: field('cardNumber'), expiry: field('expiry'), cvc: field('cvc') } });
      switch (result.kind) {
        case 'paid':
        case 'complete':
          return reply.status(303).header('cache-control', 'no-store').redirect(result.session.successUrl, 303);
        case 'expired':
          return send(reply, 410, { kind: 'expired', session: result.session }, result.session);
        case 'declined':
          return send(reply, 402, { kind: 'form', session: result.session, message: M.cardDeclined }, result.session);
        case 'invalid':
          return send(reply, 400, { kind: 'form', session: result.session, message: result.message }, result.session);
      }
    });
  });
}

function safeHost(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return '';
  }
}
