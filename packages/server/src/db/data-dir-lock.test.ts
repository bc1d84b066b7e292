/**
 * The data-directory lock: a live owner refuses with a clear message, a dead owner's or a
 * garbled lock is recovered, release removes the file.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.js';

let dir: string;
let sleeper: ChildProcess;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'airwave-lock-'));
  sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
});

after(() => {
  if (sleeper.pid !== undefined && sleeper.exitCode === null) {
    process.kill(sleeper.pid, 'SIGKILL');
  }
  rmSync(dir, { recursive: true, force: true });
});

test('a lock held by a live process refuses at once, naming the directory, the pid and the way out', () => {
  const data = join(dir, 'live');
  const lock = lockDataDir(data);
  writeFileSync(lock.path, `${sleeper.pid}\n`);
  assert.throws(
    () => lockDataDir(data),
    (error: unknown) =>
      error instanceof DataDirLockedError &&
      error.message.includes(data) &&
      error.message.includes(`pid ${sleeper.pid}`) &&
      /another AIRWAVE_DATA_DIR or a DATABASE_URL/.test(error.message),
  );
  assert.equal(readFileSync(lock.path, 'utf8').trim(), String(sleeper.pid), 'the owner keeps its lock');
});

test('a lock left by a dead process is recovered', () => {
  const data = join(dir, 'stale');
  const first = lockDataDir(data);
  const dead = spawnSync('true').pid;
  writeFileSync(first.path, `${dead}\n`);
  const second = lockDataDir(data);
  assert.equal(readFileSync(second.path, 'utf8').trim(), String(process.pid));
  second.release();
  assert.equal(existsSync(second.path), false, 'release removes the lock file');
});

test('a garbled lock file is recovered', () => {
  const data = join(dir, 'garbled');
  const first = lockDataDir(data);
  writeFileSync(first.path, 'not a pid');
  const second = lockDataDir(data);
  assert.equal(readFileSync(second.path, 'utf8').trim(), String(process.pid));
  second.release();
});
