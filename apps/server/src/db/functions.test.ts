import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { MIGRATIONS_DIR } from './client.js';
import { applySqlFunctions, SQL_FUNCTIONS } from './functions.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

type Rows = { rows: Array<Record<string, unknown>> };
const comment = async () =>
  ((await server.app.deps.db.execute(sql`select obj_description('mq_take_holds(jsonb)'::regprocedure, 'pg_proc') as c`)) as unknown as Rows).rows[0]?.c;

describe('SQL functions (src/db/functions/*.sql)', () => {
  it('are applied after the migrations, marked with their source hash, and again only when that changed', async () => {
    const applied = await comment();
    expect(applied).toMatch(/^sha256:[0-9a-f]{64}$/);
    await applySqlFunctions(server.app.deps.db);
    expect(await comment()).toBe(applied);
    await server.app.deps.db.execute(sql`comment on function mq_take_holds(jsonb) is 'stale'`);
    await applySqlFunctions(server.app.deps.db);
    expect(await comment()).toBe(applied);
  });

  it('a start on a current database skips the migrator, and one whose functions are stale applies them again', async () => {
    const { database } = server.app.deps;
    const applied = await comment();
    const newest = async () => ((await database.db.execute(sql`select max(created_at)::text as n from drizzle.__drizzle_migrations`)) as unknown as Rows).rows[0]?.n;
    const before = await newest();
    await database.migrate();
    expect({ comment: await comment(), newest: await newest() }).toEqual({ comment: applied, newest: before });
    await database.db.execute(sql`comment on function mq_take_holds(jsonb) is 'stale'`);
    await database.migrate();
    expect(await comment()).toBe(applied);
  });

  it('are defined once: no migration carries a copy', () => {
    for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql'))) {
      const text = readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
      for (const f of SQL_FUNCTIONS) expect({ file, defines: new RegExp(`create\\s+(or\\s+replace\\s+)?function\\s+"?${f.signature.split('(')[0]}`, 'i').test(text) }).toEqual({ file, defines: false });
    }
  });
});
