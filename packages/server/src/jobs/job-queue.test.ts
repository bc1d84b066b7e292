/**
 * The job queue: bounded concurrency, and a stop that drops waiting jobs and kills the children
 * of running ones (spawned under the job's signal) instead of waiting for them.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { JobQueue, jobSpawnSignal } from './job-queue.js';

describe('JobQueue', () => {
  it('runs at most `concurrency` jobs at once and settles when all are done', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    const queue = new JobQueue<number>(async (job) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      done.push(job);
    }, 2);
    for (let i = 0; i < 6; i++) {
      queue.push(i);
    }
    await queue.settled();
    assert.equal(most, 2);
    assert.deepEqual(
      done.sort((a, b) => a - b),
      [0, 1, 2, 3, 4, 5],
    );
  });

  it('stop kills the running job’s child, drops the waiting jobs and refuses new ones', async () => {
    const started: number[] = [];
    const exits: (string | null)[] = [];
    let interrupted = false;
    const queue = new JobQueue<number>(async (job) => {
      started.push(job);
      const child = spawn('sleep', ['60'], { stdio: 'ignore', ...jobSpawnSignal() });
      child.on('error', () => undefined);
      exits.push(await new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal))));
      interrupted = queue.stopped;
    });
    queue.push(1);
    queue.push(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await queue.stop(), 2, 'one running and one waiting job were left undone');
    assert.deepEqual(started, [1], 'the waiting job never started');
    assert.deepEqual(exits, ['SIGTERM'], 'the running job’s child was killed');
    assert.ok(interrupted, 'the job saw the queue stopped');
    queue.push(3);
    await queue.settled();
    assert.deepEqual(started, [1], 'a job pushed after the stop does not run');
  });

  it('gives no signal outside a job', () => {
    assert.deepEqual(jobSpawnSignal(), {});
  });
});
