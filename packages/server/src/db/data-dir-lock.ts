/**
 * One process per embedded data directory: a lock file holding the owner's pid. A second process
 * fails at once with a clear message naming the first live pid; a lock whose pids are all dead
 * (killed processes; files of older versions may list a launcher's pid too) is recovered.
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

/** Whether process `pid` still runs: it answers signal 0 (or exists under another user) and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * Whether `pid` has exited but is not reaped yet (state Z in /proc/<pid>/stat, proc(5)): it still
 * answers signal 0 but holds no files — e.g. a killed service whose parent has not reaped it yet. False where /proc is not available.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) === 'Z';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
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
      const owner = readFileSync(path, 'utf8')
        .trim()
        .split(/\s+/)
        .map((text) => Number.parseInt(text, 10))
        .find((pid) => Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid));
      if (owner !== undefined) {
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
