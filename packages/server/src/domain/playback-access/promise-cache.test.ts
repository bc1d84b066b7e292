import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PromiseCache } from './promise-cache.js';

describe('PromiseCache', () => {
  function setup(maxKeys = 10) {
    let clock = 1000;
    let loads = 0;
    const cache = new PromiseCache<string, number>(5000, maxKeys, () => clock);
    const load = (value: number) => () => {
      loads++;
      return Promise.resolve(value);
    };
    return {
      cache,
      load,
      loads: () => loads,
      advance: (ms: number) => {
        clock += ms;
      },
    };
  }

  it('shares one load among callers until the TTL has passed, then loads again', async () => {
    const t = setup();
    const [a, b] = await Promise.all([t.cache.get('k', t.load(1)), t.cache.get('k', t.load(2))]);
    assert.deepEqual([a, b, t.loads()], [1, 1, 1]);
    t.advance(4999);
    assert.equal(await t.cache.get('k', t.load(3)), 1);
    t.advance(1);
    assert.equal(await t.cache.get('k', t.load(4)), 4);
    assert.equal(t.loads(), 2);
  });

  it('forgets a rejected load, so the next caller loads again', async () => {
    const t = setup();
    await assert.rejects(
      t.cache.get('k', () => Promise.reject(new Error('database down'))),
      /database down/,
    );
    assert.equal(await t.cache.get('k', t.load(7)), 7);
  });

  it('serves a value set by hand and loads again after delete', async () => {
    const t = setup();
    t.cache.set('k', 9);
    assert.equal(await t.cache.get('k', t.load(1)), 9);
    t.cache.delete('k');
    assert.equal(await t.cache.get('k', t.load(2)), 2);
    assert.equal(t.loads(), 1);
  });

  it('empties itself when it holds maxKeys keys', async () => {
    const t = setup(2);
    await t.cache.get('a', t.load(1));
    await t.cache.get('b', t.load(2));
    await t.cache.get('c', t.load(3));
    assert.equal(await t.cache.get('a', t.load(10)), 10, 'a was dropped with the rest');
    assert.equal(t.loads(), 4);
  });
});
