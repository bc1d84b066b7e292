/** Section reassembly of ISO/IEC 13818-1 §2.4.4: CRC checks and tables resent unchanged. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { patSection, pmtSection } from './psi.js';
import { SectionAssembler, type SectionDropReason } from './psi-reader.js';

/** One packet payload carrying `section` after a zero pointer_field, padded with stuffing; `at` bytes of junk lead it in a larger array. */
function payloadOf(section: Uint8Array, at = 0): { data: Uint8Array; from: number; to: number } {
  const data = new Uint8Array(at + 184).fill(0xff);
  data[at] = 0;
  data.set(section, at + 1);
  return { data, from: at, to: at + 184 };
}

describe('SectionAssembler', () => {
  it('hands on a table once while it is resent unchanged, and again after another came between', () => {
    const delivered: number[][] = [];
    const dropped: SectionDropReason[] = [];
    const sections = new SectionAssembler(
      (section) => delivered.push([...section]),
      (reason) => dropped.push(reason),
    );
    const pat = patSection(1, 1, 0x1000);
    const other = patSection(1, 2, 0x1000);
    for (const [section, at] of [
      [pat, 0],
      [pat, 7],
      [pat, 0],
      [other, 3],
      [pat, 0],
    ] as const) {
      const { data, from, to } = payloadOf(section, at);
      sections.push(data, from, to, true);
    }
    assert.deepEqual(delivered, [[...pat], [...other], [...pat]]);
    assert.deepEqual(dropped, []);
  });

  it('checks the CRC of a changed section: a corrupt copy of the last one is dropped, not taken as a repeat', () => {
    const delivered: Uint8Array[] = [];
    const dropped: SectionDropReason[] = [];
    const sections = new SectionAssembler(
      (section) => delivered.push(section),
      (reason) => dropped.push(reason),
    );
    const pmt = pmtSection(1, 0x100, [{ streamType: 0x1b, pid: 0x100 }]);
    const corrupt = pmt.slice();
    corrupt[10] = (corrupt[10] as number) ^ 0x01;
    for (const section of [pmt, corrupt, pmt]) {
      const { data, from, to } = payloadOf(section);
      sections.push(data, from, to, true);
    }
    assert.equal(delivered.length, 1, 'the good table after the corrupt copy repeats the one delivered');
    assert.deepEqual(dropped, ['crc']);
  });
});
