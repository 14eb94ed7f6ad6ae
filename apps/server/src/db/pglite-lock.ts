import { readFileSync, rmSync, writeFileSync } from 'node:fs';

// PGlite is one process on its data directory and does not guard it: a second process opening the
// same directory (a second server, or a backup while the server runs) would corrupt it. The server,
// `npm run backup` and `npm run restore` take this lock file beside the directory
// (DATA_DIR/pglite.lock, holding the process id) while they have it open (docs/backups.md).
// A lock left by a process that is gone (a crash, a kill -9) is taken over.

export class DataDirBusyError extends Error {}

export const lockFileOf = (pgliteDir: string) => `${pgliteDir.replace(/\/+$/, '')}.lock`;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

type Holder = { pid: number; purpose: string; since: string };

function holderOf(file: string): Holder | null {
  try {
    const h = JSON.parse(readFileSync(file, 'utf8')) as Holder;
    return typeof h?.pid === 'number' ? h : null;
  } catch {
    return null;
  }
}

/** Takes the directory's lock for this process, or throws DataDirBusyError naming who holds it. Returns its release. */
export function lockPgliteDir(pgliteDir: string, purpose: string): () => void {
  const file = lockFileOf(pgliteDir);
  const mine: Holder = { pid: process.pid, purpose, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(mine), { flag: 'wx', mode: 0o600 });
      return () => {
        if (holderOf(file)?.pid === process.pid) rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = holderOf(file);
      // The same process (a container's pid 1 after a restart, or a test reopening a directory) or a gone one: take it over.
      if (holder && holder.pid !== process.pid && isAlive(holder.pid)) {
        throw new DataDirBusyError(
          `${pgliteDir} is in use by ${holder.purpose} (process ${holder.pid}, since ${holder.since}). Stop it first; if no such process is running Marquee, remove ${file}.`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataDirBusyError(`Could not take the lock ${file}: another process took it at the same time.`);
}
