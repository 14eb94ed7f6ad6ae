import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Db } from './client.js';

// SQL functions live in one source file each (db/functions/*.sql, CREATE OR REPLACE), not pasted
// into migrations: applied after the migrations, and again only when the file changed (its hash is
// kept as the function's comment). An advisory lock keeps nodes starting together from racing.

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'functions');

/** Each function's source file and its signature (what COMMENT ON FUNCTION names). */
export const SQL_FUNCTIONS = [
  { file: 'mq-take-holds.sql', signature: 'mq_take_holds(jsonb)' },
  { file: 'mq-payout-line-ready.sql', signature: 'mq_payout_line_ready(text, text, boolean, uuid, timestamptz, timestamptz, timestamptz)' },
  { file: 'mq-sale-verdict.sql', signature: 'mq_sale_verdict(text, integer)' },
] as const;

const LOCK_KEY = 7_214_004_411;

type Rows = { rows: Array<Record<string, unknown>> };

/** Each function's name, source text and the hash its comment carries once applied. */
export function sqlFunctionSources() {
  return SQL_FUNCTIONS.map((f) => {
    const text = readFileSync(path.join(DIR, f.file), 'utf8');
    return { ...f, text, name: f.signature.slice(0, f.signature.indexOf('(')), hash: `sha256:${createHash('sha256').update(text).digest('hex')}` };
  });
}

export async function applySqlFunctions(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_KEY})`);
    for (const { text, hash, name, signature } of sqlFunctionSources()) {
      const found = (await tx.execute(
        sql`select obj_description(p.oid, 'pg_proc') as hash from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where n.nspname = current_schema() and p.proname = ${name}`,
      )) as unknown as Rows;
      if (found.rows.some((r) => r.hash === hash)) continue;
      await tx.execute(sql.raw(text));
      await tx.execute(sql.raw(`COMMENT ON FUNCTION ${signature} IS '${hash}'`));
    }
  });
}
