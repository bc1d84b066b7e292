import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChangeWaiters } from './change-waiters.js';

describe('ChangeWaiters', () => {
  it('answers at once when the condition already holds or the stream ended', async () => {
    let ended = false;
    const waiters = new ChangeWaiters(() => ended);
    assert.equal(await waiters.waitFor(() => true, 10_000), true);
    ended = true;
    assert.equal(await waiters.waitFor(() => false, 10_000), false);
  });

  it('releases every waiter whose condition holds at a notify, in the order they came', async () => {
    const waiters = new ChangeWaiters(() => false);
    let position = 0;
    const released: number[] = [];
    const waits = [1, 2, 3].map((need, i) =>
      waiters
        .waitFor(() => position >= need, 10_000)
        .then((value) => {
          released.push(i);
          return value;
        }),
    );
    position = 2;
    waiters.notify();
    await Promise.resolve();
    assert.deepEqual(released, [0, 1], 'the first two, in order; the third still waits');
    position = 3;
    waiters.notify();
    assert.deepEqual(await Promise.all(waits), [true, true, true]);
    assert.deepEqual(released, [0, 1, 2]);
  });

  it('releases media waiters before playlist waiters released by the same change', async () => {
    const waiters = new ChangeWaiters(() => false);
    let published = false;
    const released: string[] = [];
    const wait = (name: string, kind: 'media' | 'playlist') =>
      waiters.waitFor(() => published, 10_000, undefined, kind).then(() => released.push(name));
    const waits = [
      wait('playlist 1', 'playlist'),
      wait('part 1', 'media'),
      wait('playlist 2', 'playlist'),
      wait('part 2', 'media'),
    ];
    published = true;
    waiters.notify();
    await Promise.all(waits);
    assert.deepEqual(released, ['part 1', 'part 2', 'playlist 1', 'playlist 2']);
  });

  it('answers false on abort and on the end of the stream', async () => {
    let ended = false;
    const waiters = new ChangeWaiters(() => ended);
    const controller = new AbortController();
    const aborted = waiters.waitFor(() => false, 10_000, controller.signal);
    const ending = waiters.waitFor(() => false, 10_000);
    controller.abort();
    assert.equal(await aborted, false);
    ended = true;
    waiters.notify();
    assert.equal(await ending, false);
  });

  it('answers every waiter of one signal (the requests of one connection) when it aborts, and only those', async () => {
    const waiters = new ChangeWaiters(() => false);
    const connection = new AbortController();
    let holds = false;
    const first = waiters.waitFor(() => holds, 10_000, connection.signal);
    holds = true;
    waiters.notify();
    assert.equal(await first, true, 'a request answered before the connection closed');
    holds = false;
    const second = waiters.waitFor(() => false, 10_000, connection.signal);
    const third = waiters.waitFor(() => false, 10_000, connection.signal);
    const other = waiters.waitFor(() => holds, 10_000, new AbortController().signal);
    connection.abort();
    assert.deepEqual(await Promise.all([second, third]), [false, false]);
    holds = true;
    waiters.notify();
    assert.equal(await other, true, 'a request of another connection still waits for its condition');
  });

  it('answers each waiter at its own timeout with the condition as it stands, the shortest first', async () => {
    const waiters = new ChangeWaiters(() => false);
    let holds = false;
    const order: string[] = [];
    const long = waiters
      .waitFor(() => holds, 2_000, undefined)
      .then((value) => {
        order.push('long');
        return value;
      });
    const short = waiters
      .waitFor(() => false, 5, undefined)
      .then((value) => {
        order.push('short');
        holds = true;
        return value;
      });
    assert.deepEqual(await Promise.all([long, short]), [true, false]);
    assert.deepEqual(order, ['short', 'long'], 'a later, shorter wait re-arms the timer');
  });
});
