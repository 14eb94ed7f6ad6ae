import { FACILITATORS, PAYOUT_LINE_KINDS, payoutLineReady, type PayoutLineFacts } from '@marquee/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';

// "This payout line is ready" is written once in TypeScript (core payoutLineReady) and mirrored in
// SQL as mq_payout_line_ready (db/functions/mq-payout-line-ready.sql) for the queries that pick
// lines. This test holds the two to the same answer for every combination of their inputs.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

type Rows = { rows: Array<{ n: number; ready: boolean }> };
const AT = new Date('2030-05-01T12:00:00.000Z');
const PAYOUT = '00000000-0000-4000-8000-000000000001';

describe('mq_payout_line_ready mirrors core payoutLineReady', () => {
  it('answers as the TypeScript rule for every kind, facilitator, hold, payout state and available date', async () => {
    const cases: Array<PayoutLineFacts & { payoutId: string | null; payoutCompletedAt: Date | null }> = [];
    for (const kind of PAYOUT_LINE_KINDS)
      for (const facilitator of FACILITATORS)
        for (const onHold of [false, true])
          // Open, claimed by a payout being sent, paid out (a completed line always has its payout).
          for (const state of ['open', 'sending', 'completed'] as const)
            for (const availableMs of [-86_400_000, -1, 0, 1, 86_400_000]) {
              const payoutId = state === 'open' ? null : PAYOUT;
              const payoutCompletedAt = state === 'completed' ? new Date(AT.getTime() - 3_600_000) : null;
              cases.push({
                kind,
                facilitator,
                onHold,
                payoutCompleted: payoutCompletedAt !== null,
                inPayout: payoutId !== null && payoutCompletedAt === null,
                balanceAvailableOn: new Date(AT.getTime() + availableMs),
                payoutId,
                payoutCompletedAt,
              });
            }
    const values = sql.join(
      cases.map(
        (c, n) =>
          sql`(${n}::int, ${c.kind}::text, ${c.facilitator}::text, ${c.onHold}::boolean, ${c.payoutId}::uuid, ${c.payoutCompletedAt?.toISOString() ?? null}::timestamptz, ${(c.balanceAvailableOn as Date).toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    const result = (await server.app.deps.db.execute(sql`
      select n, mq_payout_line_ready(kind, facilitator, on_hold, payout_id, payout_completed_at, available_on, ${AT.toISOString()}::timestamptz) as ready
      from (values ${values}) as c(n, kind, facilitator, on_hold, payout_id, payout_completed_at, available_on)
      order by n`)) as unknown as Rows;
    expect(result.rows).toHaveLength(cases.length);
    const sqlAnswers = result.rows.map((r) => r.ready);
    const tsAnswers = cases.map((c) => payoutLineReady(c, AT));
    expect(sqlAnswers).toEqual(tsAnswers);
    // Both answers are exercised: a platform sale, open, unheld and available is the only ready line.
    expect(tsAnswers.filter(Boolean)).toHaveLength(3);
  });
});
