import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventQueue, QueueOverflowError } from './event-queue.js';

describe('EventQueue', () => {
  it('hands out pushed items in order, waiting when empty', async () => {
    const queue = new EventQueue<number>(10, () => undefined);
    queue.push(1);
    const first = await queue.next();
    const pending = queue.next();
    queue.push(2);
    assert.deepEqual(first, { value: 1, done: false });
    assert.deepEqual(await pending, { value: 2, done: false });
  });

  it('fails with QueueOverflowError instead of holding more than its limit, and cleans up once', async () => {
    let cleanups = 0;
    const queue = new EventQueue<number>(3, () => cleanups++);
    for (let i = 0; i < 10; i++) {
      queue.push(i);
    }
    assert.equal(queue.length, 0);
    await assert.rejects(queue.next(), QueueOverflowError);
    assert.deepEqual(await queue.next(), { value: undefined, done: true });
    assert.equal(cleanups, 1);
  });

  it('ends a waiting consumer on return() and runs the cleanup', async () => {
    let cleanups = 0;
    const queue = new EventQueue<number>(3, () => cleanups++);
    const waiting = queue.next();
    await queue.return();
    assert.deepEqual(await waiting, { value: undefined, done: true });
    queue.push(1);
    assert.deepEqual(await queue.next(), { value: undefined, done: true });
    assert.equal(cleanups, 1);
  });
});
