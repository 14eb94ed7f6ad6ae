import { isEventPublic } from '@marquee/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { isEventPublicSql } from './rules-sql.js';

// Each SQL copy of a core rule answers as the rule does for every combination of its inputs.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

type Rows = { rows: Array<{ n: number; yes: boolean }> };

describe('isEventPublicSql mirrors core isEventPublic', () => {
  it('answers as the TypeScript rule for every status, published before or never', async () => {
    const cases: Array<{ status: string; publishedAt: Date | null }> = [];
    for (const status of ['draft', 'published', 'cancelled'])
      for (const publishedAt of [null, new Date('2030-05-01T12:00:00.000Z')]) cases.push({ status, publishedAt });
    const values = sql.join(
      cases.map((c, n) => sql`(${n}::int, ${c.status}::text, ${c.publishedAt?.toISOString() ?? null}::timestamptz)`),
      sql`, `,
    );
    const result = (await server.app.deps.db.execute(sql`
      select n, ${isEventPublicSql(sql.raw('status'), sql.raw('published_at'))} as yes
      from (values ${values}) as c(n, status, published_at)
      order by n`)) as unknown as Rows;
    expect(result.rows).toHaveLength(cases.length);
    const sqlAnswers = result.rows.map((r) => r.yes);
    const tsAnswers = cases.map((c) => isEventPublic(c));
    expect(sqlAnswers).toEqual(tsAnswers);
    // Both answers are exercised: published (either way) and cancelled after publishing are public.
    expect(tsAnswers.filter(Boolean)).toHaveLength(3);
  });
});
