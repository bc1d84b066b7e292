import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runFuzz } from '../../testing/fuzz.js';
import { fuzzTargets } from './webrtc.fuzz.js';

for (const target of fuzzTargets) {
  test(`fuzz ${target.name}: 100k cases without a crash`, () => {
    const { ok, rejected } = runFuzz(target, 100_000);
    assert.equal(ok + rejected, 100_000);
  });
}
