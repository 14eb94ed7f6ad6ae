import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

// SQL copies of core's business rules (packages/core rules.ts), for queries that filter rows by
// them. Each is named after the rule it mirrors and held to the same answers by rules-sql.test.ts,
// as db/functions/*.sql are by their own parity tests.

/** core isEventPublic: published, or cancelled after it was published. */
export const isEventPublicSql = (status: SQLWrapper, publishedAt: SQLWrapper): SQL =>
  sql`(${status} = 'published' or (${status} = 'cancelled' and ${publishedAt} is not null))`;
