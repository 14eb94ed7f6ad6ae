import path from 'node:path';
import { DataDirBusyError } from '../db/pglite-lock.js';
import { BackupError, backupDataDir, DEFAULT_MAX_BYTES, restoreDataDir } from './backup.js';

// `npm run backup -- <file>` and `npm run restore -- <file> <dataDir>` (docs/backups.md): the
// embedded database's data directory. Relative paths are the caller's, not npm's (INIT_CWD).
// Exit codes: 0 done, 1 refused or failed (the message says why), 2 wrong usage.

const USAGE = `Usage:
  npm run backup -- <file.tar.gz>                       back up DATA_DIR (the server must be stopped)
  npm run restore -- <file.tar.gz> <dataDir> [--max-bytes N]
                                                        restore into a new, empty directory`;

const cwd = process.env.INIT_CWD ?? process.cwd();
const here = (p: string) => path.resolve(cwd, p);
const [command, ...rest] = process.argv.slice(2);

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

async function main() {
  const args: string[] = [];
  let maxBytesFlag: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--max-bytes' && command === 'restore') maxBytesFlag = rest[++i] ?? '';
    else if (rest[i]!.startsWith('--')) fail(USAGE, 2);
    else args.push(rest[i]!);
  }
  if (command === 'backup') {
    if (args.length !== 1) fail(USAGE, 2);
    if (process.env.DATABASE_URL) fail('DATABASE_URL is set: back up PostgreSQL with pg_dump and the files beside it (docs/backups.md, "PostgreSQL").');
    const storage = process.env.STORAGE_DRIVER === 's3' ? 's3' : 'local';
    // DATA_DIR as the server reads it (config.ts): relative to where `npm start` runs, the repository's root.
    const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
    const s = await backupDataDir({ dataDir, file: here(args[0]!), storage });
    console.log(`Backed up ${dataDir} to ${s.file} (${s.bytes} bytes): ${s.orders} orders, ${s.tickets} tickets, ${s.files} files${s.secret ? ', the secret' : ''}.`);
    if (storage === 's3') console.log('Files live in the S3 bucket and are not in this backup: keep the bucket versioned or copied (docs/backups.md).');
    return;
  }
  if (command === 'restore') {
    if (args.length !== 2) fail(USAGE, 2);
    const given = maxBytesFlag ?? process.env.BACKUP_MAX_BYTES;
    const maxBytes = given === undefined ? DEFAULT_MAX_BYTES : /^\d+$/.test(given) ? Number(given) : NaN;
    if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) fail('--max-bytes (or BACKUP_MAX_BYTES) must be a whole number of bytes.', 2);
    const s = await restoreDataDir({ file: here(args[0]!), dataDir: here(args[1]!), maxBytes });
    console.log(`Restored the backup of ${s.createdAt} into ${s.dataDir}: ${s.orders} orders, ${s.tickets} tickets, ${s.files} files${s.secret ? ', the secret' : ''}.`);
    console.log(`Start the server on it with DATA_DIR=${s.dataDir}${s.secret ? '' : ' and the SECRET the old server used'}.`);
    if (s.storage === 's3') console.log('The backup was taken with STORAGE_DRIVER=s3: its files are in the bucket, not here.');
    return;
  }
  fail(USAGE, 2);
}

main().catch((err: unknown) => {
  if (err instanceof BackupError || err instanceof DataDirBusyError) fail(err.message);
  console.error(err);
  process.exit(1);
});
