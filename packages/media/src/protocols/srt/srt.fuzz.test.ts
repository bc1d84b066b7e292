import assert from 'node:assert/strict';
import { it } from 'node:test';
import { runFuzz } from '../../testing/fuzz.js';
import { fuzzTargets } from './srt.fuzz.js';

for (const target of fuzzTargets) {
  it(`${target.name} survives 100k random and mutated inputs`, () => {
    const { ok, rejected } = runFuzz(target, 100_000);
    assert.equal(ok + rejected, 100_000);
  });
}
