/**
 * Fuzz targets of the MPEG-TS demuxer (network input from SRT, UDP and pull sources). Seeds are
 * programs the muxer writes from real encoder bitstreams (H.264 + AAC + Opus, H.265) and a LATM
 * program; each case is fed in two chunks split inside a packet.
 */
import { adtsToAudioSpecificConfig, parseAdtsFrames } from '../../codecs/aac.js';
import { fixture } from '../../codecs/fixtures.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { FuzzTarget } from '../../testing/fuzz.js';
import { trackWithConfig } from '../../testing/synthetic-av.js';
import { loasFrame, transportStream } from '../../testing/ts-streams.js';
import { TsDemuxer, type TsDemuxerSink } from './ts-demuxer.js';
import { TsMuxer } from './ts-muxer.js';

/** A non-IDR H.264 slice, 4-byte length-prefixed (placeholder payload). */
const H264_INTER = Uint8Array.of(0, 0, 0, 6, 0x41, 0x9a, 0x22, 0x4c, 0x10, 0x80);

/** A short program of H.264, AAC (ADTS) and Opus written by the muxer from real bitstreams. */
export function h264AacOpusProgram(): Uint8Array {
  const adts = parseAdtsFrames(fixture('adts')).frames;
  const aacConfig = adtsToAudioSpecificConfig((adts[0] ?? { config: undefined }).config as never);
  const video = trackWithConfig('h264', fixture('h264Avcc'));
  const aac = { ...trackWithConfig('aac', aacConfig, 1), id: 2 };
  const opus = { ...trackWithConfig('opus', fixture('opusHeadMono'), 1), id: 3 };
  const muxer = new TsMuxer([video, aac, opus]);
  muxer.writeTables();
  const units: MediaUnit[] = [
    { trackId: 1, dts: 0, pts: 3000, key: true, data: fixture('h264KeyAccessUnit') },
    { trackId: 2, dts: 0, pts: 0, key: true, data: adts[0]?.payload ?? new Uint8Array(1) },
    { trackId: 3, dts: 0, pts: 0, key: true, data: fixture('opusPacket') },
    { trackId: 1, dts: 3000, pts: 6000, key: false, data: H264_INTER },
    { trackId: 2, dts: 1024, pts: 1024, key: true, data: adts[1]?.payload ?? new Uint8Array(1) },
  ];
  for (const unit of units) {
    muxer.writeUnit(unit);
  }
  return muxer.take().slice();
}

/** A short H.265 program written by the muxer. */
export function h265Program(): Uint8Array {
  const muxer = new TsMuxer([trackWithConfig('h265', fixture('h265Hvcc'))]);
  muxer.writeTables();
  muxer.writeUnit({ trackId: 1, dts: 0, pts: 0, key: true, data: fixture('h265KeyAccessUnit') });
  return muxer.take().slice();
}

/** A program with one LATM stream of two frames (AAC-LC 48 kHz stereo). */
export function latmProgram(): Uint8Array {
  const asc = Uint8Array.of(0x11, 0x90);
  const frames = [loasFrame(asc, new Uint8Array(40).fill(0x21)), loasFrame(asc, new Uint8Array(300).fill(0x42))];
  return transportStream(
    [{ pid: 0x101, streamType: 0x11 }],
    [{ pid: 0x101, streamId: 0xc0, pts: 0, payload: Uint8Array.from([...(frames[0] ?? []), ...(frames[1] ?? [])]) }],
  );
}

const countingSink = (): TsDemuxerSink => ({ setDescription() {}, write() {}, dropped() {}, unsupported() {} });

/** A fresh demuxer per case, and one demuxer fed every case in turn (state across garbage). */
export const fuzzTargets: FuzzTarget[] = (() => {
  const seeds = [h264AacOpusProgram(), h265Program(), latmProgram()];
  const longLived = new TsDemuxer(countingSink(), { maxPesBytes: 1 << 16 });
  return [
    {
      name: 'ts-demuxer',
      seeds,
      run(input) {
        const demuxer = new TsDemuxer(countingSink());
        const split = input.length === 0 ? 0 : (input[input.length - 1] as number) % input.length;
        demuxer.push(input.subarray(0, split));
        demuxer.push(input.subarray(split));
        demuxer.end();
      },
    },
    {
      name: 'ts-demuxer-long-lived',
      seeds,
      run(input) {
        longLived.push(input);
      },
    },
  ];
})();
