import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../src/db/client.js';

// Creating and migrating a PGlite database costs seconds per test file; migrate one once and let
// every file start from its dump. (On PostgreSQL each file gets its own fresh database instead.)
export default async function setup() {
  if (process.env.TEST_DATABASE_URL) return;
  const database = await openDatabase({ dataDir: 'memory://' });
  await database.migrate();
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  const file = path.join(os.tmpdir(), `marquee-pglite-template-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  process.env.MARQUEE_PGLITE_TEMPLATE = file;
  return () => rmSync(file, { force: true });
}
