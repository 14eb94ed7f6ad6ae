import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import tar from 'tar-stream';
import { z } from 'zod';
import { lockPgliteDir } from '../db/pglite-lock.js';
import { isSafeKey } from '../platform/storage.js';

// The embedded database's backup and restore (issue 26; docs/backups.md). A backup is one
// gzipped tar written while no server has the data directory open (the lock in db/pglite-lock.ts):
//   pglite.tar           PGlite's own dump of its data directory (dumpDataDir)
//   secret               DATA_DIR/secret when the secret was generated there (it signs tickets' QR codes)
//   files/<key>          the uploaded and generated files of the local storage driver (DATA_DIR/files)
//   marquee-backup.json  last: what it holds, each entry's size and SHA-256, the order and ticket counts
// Restore reads it into a new directory only, refuses any entry that is not a plain file at one of
// those names (absolute paths, "..", links, devices), stops past a size limit, checks every hash,
// opens the database and compares the counts before it moves the directory into place.

export class BackupError extends Error {}

export const MANIFEST = 'marquee-backup.json';
const DUMP = 'pglite.tar';
const SECRET = 'secret';
/** Past this many bytes unpacked a restore stops (a gzip bomb fills no disk); BACKUP_MAX_BYTES or --max-bytes raise it. */
export const DEFAULT_MAX_BYTES = 20 * 1024 ** 3;
const MAX_ENTRIES = 2_000_000;

const ZManifest = z.object({
  format: z.literal('marquee-backup'),
  version: z.literal(1),
  createdAt: z.string(),
  database: z.literal('pglite'),
  migrations: z.number().int().min(0),
  counts: z.object({ orders: z.number().int().min(0), tickets: z.number().int().min(0) }),
  storage: z.enum(['local', 's3']),
  entries: z.record(z.string(), z.object({ size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});
export type Manifest = z.infer<typeof ZManifest>;

export type BackupSummary = { file: string; bytes: number; orders: number; tickets: number; files: number; migrations: number; storage: 'local' | 's3'; secret: boolean };
export type RestoreSummary = { dataDir: string; orders: number; tickets: number; files: number; migrations: number; createdAt: string; storage: 'local' | 's3'; secret: boolean };

const pgliteDirOf = (dataDir: string) => path.join(dataDir, 'pglite');
const filesDirOf = (dataDir: string) => path.join(dataDir, 'files');

async function countsOf(pg: PGlite): Promise<{ orders: number; tickets: number; migrations: number }> {
  const one = async (text: string) => Number((await pg.query<{ n: number }>(text)).rows[0]?.n ?? 0);
  return {
    orders: await one('select count(*)::int as n from orders'),
    tickets: await one('select count(*)::int as n from tickets'),
    migrations: await one('select count(*)::int as n from drizzle.__drizzle_migrations'),
  };
}

/** Every stored object's file under the local storage root (a half-written upload's `.part` left out), as storage keys. */
async function storedFiles(root: string): Promise<string[]> {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = async (dir: string, prefix: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const key = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), key);
      else if (entry.isFile() && !entry.name.endsWith('.part') && isSafeKey(key)) out.push(key);
    }
  };
  await walk(root, '');
  return out.sort();
}

/** Writes one entry into the pack, hashing its bytes on the way. */
function addEntry(pack: tar.Pack, name: string, size: number, source: Readable | Buffer): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let seen = 0;
  return new Promise((resolve, reject) => {
    const done = (err?: Error | null) => (err ? reject(err) : seen !== size ? reject(new BackupError(`${name} changed while it was read`)) : resolve({ size, sha256: hash.digest('hex') }));
    if (Buffer.isBuffer(source)) {
      hash.update(source);
      seen = source.length;
      pack.entry({ name, size, mode: 0o600, mtime: new Date() }, source, done);
      return;
    }
    const sink = pack.entry({ name, size, mode: 0o600, mtime: new Date() }, done);
    source.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      seen += chunk.length;
    });
    source.on('error', reject);
    source.pipe(sink as unknown as Writable);
  });
}

/**
 * Backs up an embedded (PGlite) data directory into `file` (a .tar.gz, mode 0600: it holds personal
 * data and the secret). Refuses while a server has the directory open, and never overwrites a file.
 */
export async function backupDataDir(opts: { dataDir: string; file: string; storage: 'local' | 's3' }): Promise<BackupSummary> {
  const dataDir = path.resolve(opts.dataDir);
  const file = path.resolve(opts.file);
  const pgliteDir = pgliteDirOf(dataDir);
  if (!existsSync(path.join(pgliteDir, 'PG_VERSION'))) throw new BackupError(`There is no embedded database in ${pgliteDir} (DATA_DIR). With DATABASE_URL, back up with pg_dump (docs/backups.md).`);
  if (existsSync(file)) throw new BackupError(`${file} already exists: give a new file name.`);
  if (!existsSync(path.dirname(file))) throw new BackupError(`The folder ${path.dirname(file)} does not exist.`);

  const unlock = lockPgliteDir(pgliteDir, 'a backup');
  const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;
  try {
    const pg = new PGlite(pgliteDir);
    let dump: Buffer;
    let counts: Awaited<ReturnType<typeof countsOf>>;
    try {
      await pg.waitReady;
      counts = await countsOf(pg);
      dump = Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer());
    } finally {
      await pg.close();
    }

    const keys = opts.storage === 'local' ? await storedFiles(filesDirOf(dataDir)) : [];
    const secretFile = path.join(dataDir, SECRET);
    const secret = existsSync(secretFile) ? await readFile(secretFile) : null;

    const pack = tar.pack();
    const out = createWriteStream(partial, { flags: 'wx', mode: 0o600 });
    const written = pipeline(pack, createGzip(), out);
    const entries: Manifest['entries'] = {};
    try {
      entries[DUMP] = await addEntry(pack, DUMP, dump.length, dump);
      if (secret) entries[SECRET] = await addEntry(pack, SECRET, secret.length, secret);
      for (const key of keys) {
        const full = path.join(filesDirOf(dataDir), key);
        const { size } = await stat(full);
        entries[`files/${key}`] = await addEntry(pack, `files/${key}`, size, createReadStream(full));
      }
      const manifest: Manifest = {
        format: 'marquee-backup',
        version: 1,
        createdAt: new Date().toISOString(),
        database: 'pglite',
        migrations: counts.migrations,
        counts: { orders: counts.orders, tickets: counts.tickets },
        storage: opts.storage,
        entries,
      };
      const body = Buffer.from(JSON.stringify(manifest, null, 2));
      await addEntry(pack, MANIFEST, body.length, body);
      pack.finalize();
      await written;
    } catch (err) {
      pack.destroy();
      await written.catch(() => {});
      throw err;
    }
    const handle = await open(partial, 'r');
    await handle.sync();
    await handle.close();
    await rename(partial, file);
    const { size: bytes } = await stat(file);
    return { file, bytes, ...counts, files: keys.filter((k) => !k.endsWith('.type')).length, storage: opts.storage, secret: !!secret };
  } finally {
    await rm(partial, { force: true });
    unlock();
  }
}

/** A tar entry's name when it is one a backup may hold, or null. Never absolute, never "..", only our names. */
export function entryNameOk(name: string): boolean {
  if (!name || name.length > 400 || /[\0\\]/.test(name) || name.startsWith('/') || /^[a-z]:/i.test(name)) return false;
  if (name === MANIFEST || name === DUMP || name === SECRET) return true;
  return name.startsWith('files/') && isSafeKey(name.slice('files/'.length));
}

/** Whether a name inside PGlite's own dump stays inside its data directory. */
function dumpNameOk(name: string): boolean {
  const rel = name.replace(/^\/+/, '');
  return rel.length < 1000 && !/[\0\\]/.test(rel) && !rel.split('/').some((part) => part === '..' || part === '.');
}

async function unpack(file: string, into: string, maxBytes: number): Promise<Map<string, { size: number; sha256: string }>> {
  const seen = new Map<string, { size: number; sha256: string }>();
  let total = 0;
  const extract = tar.extract();
  const reading = pipeline(createReadStream(file), createGunzip(), extract).catch((err: Error) => {
    throw err instanceof BackupError ? err : new BackupError(`${file} is not a readable Marquee backup (${err.message}).`);
  });
  try {
    for await (const entry of extract) {
      const { name, type, size = 0 } = entry.header;
      if (type !== 'file') throw new BackupError(`Refused: the backup holds "${name}", a ${type} (only plain files are restored).`);
      if (!entryNameOk(name)) throw new BackupError(`Refused: the backup holds a file named "${name}" (outside the backup's own names: no absolute paths, no "..").`);
      if (seen.has(name)) throw new BackupError(`Refused: the backup holds "${name}" twice.`);
      if (seen.size >= MAX_ENTRIES) throw new BackupError(`Refused: the backup holds more than ${MAX_ENTRIES} files.`);
      if (total + size > maxBytes) throw new BackupError(`Refused: the backup unpacks to more than ${maxBytes} bytes (set --max-bytes to allow more).`);
      const target = path.resolve(into, name);
      if (!target.startsWith(into + path.sep)) throw new BackupError(`Refused: "${name}" would be written outside the restore directory.`);
      await mkdir(path.dirname(target), { recursive: true });
      const hash = createHash('sha256');
      let bytes = 0;
      await pipeline(
        entry,
        // Counts what is really unpacked (not what the header claims) and stops past the limit.
        new Transform({
          transform(chunk: Buffer, _enc, cb) {
            bytes += chunk.length;
            total += chunk.length;
            if (total > maxBytes) return cb(new BackupError(`Refused: the backup unpacks to more than ${maxBytes} bytes (set --max-bytes to allow more).`));
            hash.update(chunk);
            cb(null, chunk);
          },
        }),
        createWriteStream(target, { flags: 'wx', mode: 0o600 }),
      );
      seen.set(name, { size: bytes, sha256: hash.digest('hex') });
    }
    await reading;
  } catch (err) {
    extract.destroy();
    await reading.catch(() => {});
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${file} is not a readable Marquee backup (${(err as Error).message}).`);
  }
  return seen;
}

/** Checks the names and kinds in PGlite's own dump before PGlite unpacks it. */
async function checkDump(dump: Buffer): Promise<void> {
  const extract = tar.extract();
  const reading = pipeline(Readable.from([dump]), extract);
  try {
    for await (const entry of extract) {
      const { name, type } = entry.header;
      if ((type !== 'file' && type !== 'directory') || !dumpNameOk(name)) throw new BackupError(`Refused: the database dump holds "${name}" (${type}).`);
      entry.resume();
    }
    await reading;
  } catch (err) {
    extract.destroy();
    await reading.catch(() => {});
    throw err instanceof BackupError ? err : new BackupError(`The database dump in the backup is not readable (${(err as Error).message}).`);
  }
}

/**
 * Restores a backup into `dataDir`, which must not exist or be empty: the old directory is never
 * overwritten (move it aside first). Everything is unpacked and checked in a directory beside it,
 * which becomes `dataDir` only when the database opened with the counts the backup recorded.
 */
export async function restoreDataDir(opts: { file: string; dataDir: string; maxBytes?: number }): Promise<RestoreSummary> {
  const file = path.resolve(opts.file);
  const dataDir = path.resolve(opts.dataDir);
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  if (!existsSync(file)) throw new BackupError(`${file} does not exist.`);
  if (existsSync(dataDir)) {
    if (!(await stat(dataDir)).isDirectory()) throw new BackupError(`${dataDir} is not a directory.`);
    if ((await readdir(dataDir)).length > 0) throw new BackupError(`${dataDir} is not empty: restore into a new directory (move the old one aside first).`);
  }
  await mkdir(path.dirname(dataDir), { recursive: true });
  const staging = await mkdtemp(path.join(path.dirname(dataDir), `.${path.basename(dataDir)}.restoring-`));
  try {
    const seen = await unpack(file, staging, maxBytes);
    const manifestEntry = seen.get(MANIFEST);
    if (!manifestEntry) throw new BackupError(`${file} has no ${MANIFEST}: it is not a complete Marquee backup.`);
    const parsed = ZManifest.safeParse(JSON.parse(await readFile(path.join(staging, MANIFEST), 'utf8').catch(() => 'null')));
    if (!parsed.success) throw new BackupError(`${MANIFEST} in ${file} is not one this version reads.`);
    const manifest = parsed.data;
    for (const [name, want] of Object.entries(manifest.entries)) {
      const got = seen.get(name);
      if (!got) throw new BackupError(`The backup is incomplete: ${name} is missing.`);
      if (got.size !== want.size || got.sha256 !== want.sha256) throw new BackupError(`The backup is damaged: ${name} does not match its checksum.`);
    }
    for (const name of seen.keys()) if (name !== MANIFEST && !manifest.entries[name]) throw new BackupError(`The backup holds ${name}, which its manifest does not list.`);
    if (!seen.has(DUMP)) throw new BackupError(`The backup holds no database (${DUMP}).`);

    const dumpFile = path.join(staging, DUMP);
    const dump = await readFile(dumpFile);
    await checkDump(dump);
    const pgliteDir = pgliteDirOf(staging);
    const unlock = lockPgliteDir(pgliteDir, 'a restore');
    let counts: Awaited<ReturnType<typeof countsOf>>;
    try {
      const pg = new PGlite(pgliteDir, { loadDataDir: new Blob([dump], { type: 'application/x-tar' }) });
      try {
        await pg.waitReady;
        counts = await countsOf(pg);
      } finally {
        await pg.close();
      }
    } finally {
      unlock();
    }
    if (counts.orders !== manifest.counts.orders || counts.tickets !== manifest.counts.tickets || counts.migrations !== manifest.migrations) {
      throw new BackupError(`The restored database does not hold what the backup recorded (orders ${counts.orders} of ${manifest.counts.orders}, tickets ${counts.tickets} of ${manifest.counts.tickets}).`);
    }
    await rm(dumpFile);
    await rm(path.join(staging, MANIFEST));
    if (existsSync(dataDir)) await rmdir(dataDir);
    await rename(staging, dataDir);
    const files = [...seen.keys()].filter((n) => n.startsWith('files/') && !n.endsWith('.type')).length;
    return { dataDir, ...counts, files, createdAt: manifest.createdAt, storage: manifest.storage, secret: seen.has(SECRET) };
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
}
