/**
 * One process per PGlite data directory: a lock file holding the owner's pid. A second process
 * fails at once with a clear message; a lock left by a killed process is recovered.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Thrown when another live process holds the data directory. */
export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
}

/** A held lock; release it on shutdown. */
export interface DataDirLock {
  readonly path: string;
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock of `dataDir`, recovering a stale one. */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'airwave.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return {
        path,
        release() {
          if (!released) {
            released = true;
            rmSync(path, { force: true });
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw error;
      }
      const owner = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new DataDirLockedError(
          `data directory ${dataDir} is in use by another Airwave process (pid ${owner}); ` +
            'stop it, or start this one with another AIRWAVE_DATA_DIR or a DATABASE_URL',
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new DataDirLockedError(`could not take the lock ${path}`);
}
