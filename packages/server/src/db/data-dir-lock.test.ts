/**
 * The data-directory lock: a live owner refuses with a clear message, a dead owner's or a
 * garbled lock is recovered, release removes the file.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
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

test('a lock listing several pids holds while any of them lives', () => {
  const data = join(dir, 'several');
  const dead = spawnSync('true').pid;
  lockDataDir(data);
  writeFileSync(join(data, 'airwave.lock'), `${dead} ${sleeper.pid}\n`);
  assert.throws(
    () => lockDataDir(data),
    (error: unknown) => error instanceof DataDirLockedError && error.message.includes(`pid ${sleeper.pid}`),
  );
  writeFileSync(join(data, 'airwave.lock'), `${dead} ${dead}\n`);
  const recovered = lockDataDir(data);
  assert.equal(readFileSync(recovered.path, 'utf8').trim(), String(process.pid));
  recovered.release();
});

test('a lock whose owner exited but is not reaped yet (a zombie) is recovered', async () => {
  // `sh` forks a `sleep`, prints its pid and becomes `sleep` itself, which never reaps a child:
  // killing the first one leaves a zombie.
  const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const zombie = Number((await once(parent.stdout, 'data')).toString().trim());
    process.kill(zombie, 'SIGKILL');
    while (!readFileSync(`/proc/${zombie}/stat`, 'utf8').includes(') Z ')) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const data = join(dir, 'zombie');
    const first = lockDataDir(data);
    writeFileSync(first.path, `${zombie}\n`);
    const second = lockDataDir(data);
    assert.equal(readFileSync(second.path, 'utf8').trim(), String(process.pid));
    second.release();
  } finally {
    parent.kill('SIGKILL');
  }
});
