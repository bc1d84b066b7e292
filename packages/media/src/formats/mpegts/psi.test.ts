/** PAT/PMT sections and their CRC (ISO/IEC 13818-1 §2.4.4, Annex A). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32Mpeg2 } from './crc32-mpeg2.js';
import { patSection, pmtSection } from './psi.js';

const hex = (data: Uint8Array): string => Buffer.from(data).toString('hex');

describe('PSI', () => {
  it('computes CRC-32/MPEG-2 (check value of "123456789")', () => {
    assert.equal(crc32Mpeg2(new TextEncoder().encode('123456789')), 0x0376e6e7);
  });

  it('writes the PAT byte for byte as ffmpeg does for program 1 on PID 0x1000', () => {
    assert.equal(hex(patSection(1, 1, 0x1000)), '00b00d0001c100000001f0002ab104b2');
  });

  it('writes a PMT whose CRC covers the section and whose loop lists each stream', () => {
    const pmt = pmtSection(1, 0x100, [
      { streamType: 0x1b, pid: 0x100 },
      { streamType: 0x06, pid: 0x101, descriptors: Uint8Array.of(0x05, 4, 0x4f, 0x70, 0x75, 0x73) },
    ]);
    assert.equal(pmt[0], 0x02);
    const sectionLength = (((pmt[1] ?? 0) & 0x0f) << 8) | (pmt[2] ?? 0);
    assert.equal(sectionLength, pmt.length - 3);
    assert.equal(crc32Mpeg2(pmt), 0, 'CRC over a section including its CRC_32 is zero');
    assert.equal(hex(pmt.subarray(8, 12)), 'e100f000');
    assert.equal(hex(pmt.subarray(12, 17)), '1be100f000');
    assert.equal(hex(pmt.subarray(17, 28)), '06e101f00605044f707573');
  });
});
