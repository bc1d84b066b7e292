/**
 * Fuzz targets for the bit reader and every codec parser. Seeds are the real bitstreams in
 * fixtures.ts. Each target also checks invariants that must hold for any accepted input
 * (a parsed record rebuilds to an equivalent one), so a wrong parse is a failure, not only a crash.
 */
import { BitReader } from '../bits/bit-reader.js';
import type { FuzzTarget } from '../testing/fuzz.js';
import * as aac from './aac.js';
import * as av1 from './av1.js';
import { FIXTURES, fixture } from './fixtures.js';
import * as h264 from './h264.js';
import * as h265 from './h265.js';
import {
  addEmulationPrevention,
  removeEmulationPrevention,
  splitAnnexB,
  splitLengthPrefixed,
  toAnnexB,
  toLengthPrefixed,
} from './nal.js';
import * as opus from './opus.js';
import * as vp9 from './vp9.js';

/** Throws a plain Error (a fuzz failure) when an invariant does not hold. */
function check(condition: boolean, what: string): void {
  if (!condition) {
    throw new Error(`invariant broken: ${what}`);
  }
}

/** The RBSP of a NAL unit after its `headerLength`-byte header. */
function rbspOf(nal: Uint8Array, headerLength: number): Uint8Array {
  return removeEmulationPrevention(nal.subarray(headerLength)).slice();
}

/** Every fixture, for targets that take any bytes. */
const allSeeds = (Object.keys(FIXTURES) as (keyof typeof FIXTURES)[]).map((name) => fixture(name));

/** The fuzz targets of the codecs layer. */
export const fuzzTargets: FuzzTarget[] = [
  {
    name: 'bits: BitReader reads driven by the input',
    seeds: allSeeds,
    run(input) {
      const r = new BitReader(input);
      while (r.bitsLeft() > 0) {
        const op = r.readBits(2);
        if (op === 0) {
          r.readUE();
        } else if (op === 1) {
          r.readSE();
        } else if (op === 2) {
          r.readBits(Math.min(32, r.bitsLeft() > 5 ? r.readBits(5) : 0));
        } else {
          r.byteAlign();
        }
      }
    },
  },
  {
    name: 'nal: splitAnnexB and emulation prevention',
    seeds: [toAnnexB(fixture('h264KeyAccessUnit')), toAnnexB(fixture('h265KeyAccessUnit'))],
    run(input) {
      for (const nal of splitAnnexB(input)) {
        check(nal.length > 0, 'no empty NAL units');
        check(removeEmulationPrevention(nal).length <= nal.length, 'RBSP is never longer than the NAL');
      }
    },
  },
  {
    name: 'nal: splitLengthPrefixed (1, 2 and 4-byte lengths)',
    seeds: [fixture('h264KeyAccessUnit'), fixture('h265KeyAccessUnit'), Uint8Array.of(3, 0x67, 1, 2, 1, 0x68)],
    run(input) {
      const size = [1, 2, 4][(input[0] ?? 0) % 3] ?? 4;
      const nals = splitLengthPrefixed(input, size);
      check(splitLengthPrefixed(toLengthPrefixed(nals)).length === nals.length, 'round trip keeps the NAL count');
    },
  },
  {
    name: 'h264: parseSps',
    seeds: [fixture('h264Sps'), fixture('h264SpsBaselineCrop')],
    run(input) {
      const sps = h264.parseSps(input);
      check(sps.width > 0 && sps.height > 0 && sps.width <= 16384 && sps.height <= 16384, 'size in range');
    },
  },
  {
    name: 'h264: parseSps over a mutated RBSP (emulation prevention re-applied)',
    seeds: [rbspOf(fixture('h264Sps'), 1), rbspOf(fixture('h264SpsBaselineCrop'), 1)],
    run(input) {
      h264.parseSps(Uint8Array.of(0x67, ...addEmulationPrevention(input)));
    },
  },
  {
    name: 'h264: describeAvcC and rebuild',
    seeds: [fixture('h264Avcc')],
    run(input) {
      const described = h264.describeAvcC(input);
      const parsed = h264.parseAvcC(input);
      if (parsed.pps.length <= 255) {
        const again = h264.describeAvcC(h264.buildAvcC(parsed.sps, parsed.pps));
        check(again.width === described.width && again.height === described.height, 'rebuilt avcC has the same size');
      }
    },
  },
  {
    name: 'h264: isKeyframe',
    seeds: [fixture('h264KeyAccessUnit')],
    run(input) {
      h264.isKeyframe(input);
    },
  },
  {
    name: 'h265: isKeyframe',
    seeds: [fixture('h265KeyAccessUnit')],
    run(input) {
      h265.isKeyframe(input);
    },
  },
  {
    name: 'h265: parseSps',
    seeds: [fixture('h265Sps')],
    run(input) {
      const sps = h265.parseSps(input);
      check(sps.width > 0 && sps.height > 0 && sps.width <= 16384 && sps.height <= 16384, 'size in range');
      h265.hevcCodecString(sps);
    },
  },
  {
    name: 'h265: parseSps over a mutated RBSP (emulation prevention re-applied)',
    seeds: [rbspOf(fixture('h265Sps'), 2)],
    run(input) {
      h265.parseSps(Uint8Array.of(0x42, 0x01, ...addEmulationPrevention(input)));
    },
  },
  {
    name: 'h265: describeHvcC and rebuild',
    seeds: [fixture('h265Hvcc')],
    run(input) {
      const described = h265.describeHvcC(input);
      const parsed = h265.parseHvcC(input);
      if (parsed.vps.length > 0 && parsed.pps.length > 0) {
        const again = h265.describeHvcC(h265.buildHvcC(parsed.vps, parsed.sps, parsed.pps));
        check(again.width === described.width && again.height === described.height, 'rebuilt hvcC has the same size');
      }
    },
  },
  {
    name: 'av1: OBUs, sequence header and isKeyframe',
    seeds: [fixture('av1KeyTemporalUnit'), fixture('av1InterTemporalUnit'), fixture('av1SequenceHeaderObu')],
    run(input) {
      let at = 0;
      for (const obu of av1.splitObus(input)) {
        check(obu.offset === at, 'OBUs are contiguous');
        at += obu.bytes.length;
        if (obu.type === av1.OBU.sequenceHeader) {
          const sh = av1.parseSequenceHeader(obu.payload);
          const rebuilt = av1.parseAv1C(av1.buildAv1C(obu.bytes)).sequenceHeader;
          check(rebuilt?.maxFrameWidth === sh.maxFrameWidth, 'av1C keeps the sequence header');
        }
      }
      check(at === input.length, 'OBUs cover the input');
      av1.isKeyframe(input);
    },
  },
  {
    name: 'av1: describeAv1C',
    seeds: [fixture('av1C')],
    run(input) {
      av1.describeAv1C(input);
    },
  },
  {
    name: 'vp9: parseVpcC and describeVpcC',
    seeds: [fixture('vpcCFromMp4'), fixture('vpcCFromMp4').subarray(4)],
    run(input) {
      const record = vp9.parseVpcC(input);
      check(vp9.parseVpcC(vp9.buildVpcC(record)).level === record.level, 'vpcC round trip');
      vp9.describeVpcC(input);
    },
  },
  {
    name: 'vp9: parseFrameSize',
    seeds: [fixture('vp9KeyFrameHead'), fixture('vp9InterFrameHead')],
    run(input) {
      const frame = vp9.parseFrameSize(input);
      check(frame === undefined || (frame.width > 0 && frame.height > 0), 'frame size positive');
    },
  },
  {
    name: 'aac: parseAudioSpecificConfig',
    seeds: [fixture('ascLcStereo44'), fixture('ascHeAacBackwardCompatible')],
    run(input) {
      const config = aac.parseAudioSpecificConfig(input);
      check(config.sampleRate > 0 && config.channels > 0 && config.samplesPerFrame > 0, 'positive values');
    },
  },
  {
    name: 'aac: parseAdtsFrames and ADTS rewrite',
    seeds: [fixture('adts')],
    run(input) {
      const { frames, consumed } = aac.parseAdtsFrames(input);
      check(consumed <= input.length, 'consumed within the input');
      for (const frame of frames) {
        if (frame.config.channelConfiguration > 0) {
          const header = aac.adtsHeader(frame.config, frame.payload.length);
          const [again] = aac.parseAdtsFrames(new Uint8Array([...header, ...frame.payload])).frames;
          check(again?.payload.length === frame.payload.length, 'ADTS rewrite keeps the payload');
        }
      }
    },
  },
  {
    name: 'opus: parseOpusHead',
    seeds: [fixture('opusHeadMono'), fixture('opusHead51')],
    run(input) {
      const head = opus.parseOpusHead(input);
      check(opus.parseOpusHead(opus.buildOpusHead(head)).channels === head.channels, 'OpusHead round trip');
    },
  },
  {
    name: 'opus: opusPacketSamples',
    seeds: [fixture('opusPacket')],
    run(input) {
      const samples = opus.opusPacketSamples(input);
      check(samples >= 120 && samples <= 5760, 'packet duration within 2.5..120 ms');
    },
  },
];
