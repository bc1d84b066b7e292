/**
 * Fuzz targets of the encoder-output converters (IVF + VP9 frame headers, ADTS, H.264/H.265
 * Annex B access-unit grouping); seeds are real libvpx/libx264/libx265/ffmpeg-aac output.
 */
import { fixture } from '../../codecs/fixtures.js';
import type { FuzzTarget } from '../../testing/fuzz.js';
import { adtsToTrack } from './adts-to-flv.js';
import { h264AnnexBToTrack, h265AnnexBToTrack } from './annexb-to-flv.js';
import { vp9IvfToTrack } from './ivf-to-flv.js';

/** An IVF file holding `frames` at timestamps 0, 1, 2, ... in a 1/30 timebase. */
function ivf(frames: readonly Uint8Array[]): Uint8Array {
  const size = 32 + frames.reduce((sum, frame) => sum + 12 + frame.length, 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set([...'DKIF'].map((ch) => ch.charCodeAt(0)));
  view.setUint16(6, 32, true);
  out.set(
    [...'VP90'].map((ch) => ch.charCodeAt(0)),
    8,
  );
  view.setUint16(12, 64, true);
  view.setUint16(14, 64, true);
  view.setUint32(16, 30, true);
  view.setUint32(20, 1, true);
  view.setUint32(24, frames.length, true);
  let offset = 32;
  frames.forEach((frame, index) => {
    view.setUint32(offset, frame.length, true);
    view.setUint32(offset + 4, index, true);
    out.set(frame, offset + 12);
    offset += 12 + frame.length;
  });
  return out;
}

/** Annex B with 4-byte start codes. */
function annexB(nals: readonly Uint8Array[]): Uint8Array {
  return Uint8Array.from(nals.flatMap((nal) => [0, 0, 0, 1, ...nal]));
}

/** The NAL units of a 4-byte length-prefixed access unit fixture, past its parameter sets. */
function slice(lengthPrefixed: Uint8Array): Uint8Array {
  return lengthPrefixed.subarray(lengthPrefixed.length - 48);
}

/** Converters of encoder output to E-RTMP tags. */
export const fuzzTargets: FuzzTarget[] = [
  {
    name: 'vp9 IVF to vp09 tags',
    seeds: [ivf([fixture('vp9KeyFrameHead'), fixture('vp9InterFrameHead')])],
    run(input) {
      vp9IvfToTrack(input);
    },
  },
  {
    name: 'ADTS to mp4a tags',
    seeds: [fixture('adts')],
    run(input) {
      adtsToTrack(input);
    },
  },
  {
    name: 'H.264 Annex B to avc1 tags',
    seeds: [annexB([fixture('h264Sps'), fixture('h264Pps'), slice(fixture('h264KeyAccessUnit'))])],
    run(input) {
      h264AnnexBToTrack(input, 30);
    },
  },
  {
    name: 'H.265 Annex B to hvc1 tags',
    seeds: [annexB([fixture('h265Vps'), fixture('h265Sps'), fixture('h265Pps'), slice(fixture('h265KeyAccessUnit'))])],
    run(input) {
      h265AnnexBToTrack(input, 30);
    },
  },
];
