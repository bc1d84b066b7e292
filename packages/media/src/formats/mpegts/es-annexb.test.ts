/** The H.264/H.265 elementary stream reader on access units that are not well formed. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaUnit } from '../../stream/media-unit.js';
import { AnnexBEsReader } from './es-annexb.js';
import type { EsOutput } from './es-reader.js';

function collect(): { out: EsOutput; drops: string[]; units: MediaUnit[] } {
  const drops: string[] = [];
  const units: MediaUnit[] = [];
  return {
    out: { track: () => undefined, unit: (unit) => units.push(unit), drop: (reason) => drops.push(reason) },
    drops,
    units,
  };
}

describe('AnnexBEsReader', () => {
  it('drops an H.265 NAL unit shorter than its 2-byte header instead of failing', () => {
    const reader = new AnnexBEsReader('h265', 1);
    const { out, drops, units } = collect();
    assert.doesNotThrow(() => reader.pes(Uint8Array.of(0, 0, 1, 0x26), 90_000, 90_000, out));
    assert.deepEqual(units, []);
    assert.equal(drops.length, 1);
  });

  it('reports a payload without a start code as a drop', () => {
    const reader = new AnnexBEsReader('h264', 1);
    const { out, drops } = collect();
    reader.pes(Uint8Array.of(0x65, 1, 2, 3), 90_000, 90_000, out);
    assert.match(drops[0] ?? '', /without an Annex B start code/);
  });
});
