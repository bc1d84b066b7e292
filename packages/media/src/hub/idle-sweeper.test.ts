import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { IdleSweeper } from './idle-sweeper.js';

describe('IdleSweeper', () => {
  it('sweeps while something is watched and stops itself once nothing is', async () => {
    let sweeps = 0;
    let watched = 2;
    const sweeper = new IdleSweeper(
      1_000,
      () => {
        sweeps++;
        watched--;
      },
      () => watched > 0,
    );
    sweeper.ensure();
    sweeper.ensure();
    await sleep(1_200);
    assert.equal(sweeps, 2, 'one interval only, stopped after the sweep that left nothing to watch');
    watched = 1;
    sweeper.ensure();
    await sleep(400);
    sweeper.stop();
    assert.equal(sweeps, 3, 'started again on demand');
  });
});
