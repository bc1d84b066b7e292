/**
 * Raw H.264 / H.265 Annex B streams (ITU-T H.264 Annex B, H.265 Annex B) as E-RTMP v2 `avc1` /
 * `hvc1` tags: SequenceStart with the avcC/hvcC built from the first parameter sets, then one
 * CodedFramesX tag per access unit (H.264 §7.4.1.2.3, H.265 §7.4.2.4.4). Raw streams carry no
 * timestamps: access units are taken in decode order at a fixed rate, so they must have no B-frames.
 */
import { buildAvcC, describeAvcC, H264_NAL, nalType as h264NalType } from '../../codecs/h264.js';
import { buildHvcC, describeHvcC, H265_NAL, nalType as h265NalType, isKeyframeNal } from '../../codecs/h265.js';
import { splitAnnexB, toLengthPrefixed } from '../../codecs/nal.js';
import { ParseError, UnsupportedError } from '../../errors.js';
import { buildVideoTag } from '../../formats/flv/flv-build.js';
import { type FlvTag, FlvTagType } from '../../formats/flv/flv-tag.js';
import type { VideoCodec } from '../../stream/track.js';
import { type EncodedTrack, fourCcNumber } from './encoded-track.js';

/** What the access-unit grouping needs to know about one NAL unit. */
interface NalRole {
  /** Index of the parameter-set list it belongs to (kept out of the frames), or -1. */
  readonly parameterSet: number;
  readonly vcl: boolean;
  /** Starts a new access unit when it follows a VCL NAL unit. */
  readonly startsAu: boolean;
  readonly key: boolean;
  /** Left out of the frames (access unit delimiters). */
  readonly drop: boolean;
}

/** How each codec names its NAL units. */
interface AnnexBSyntax {
  readonly codec: Extract<VideoCodec, 'h264' | 'h265'>;
  readonly parameterSets: readonly string[];
  role(nal: Uint8Array): NalRole;
  config(sets: readonly Uint8Array[][]): { record: Uint8Array; width: number; height: number };
}

const H264: AnnexBSyntax = {
  codec: 'h264',
  parameterSets: ['SPS', 'PPS'],
  role(nal) {
    const type = h264NalType(nal);
    const vcl = type >= 1 && type <= 5;
    const firstSlice = vcl && ((nal[1] ?? 0) & 0x80) !== 0;
    return {
      parameterSet: type === H264_NAL.sps ? 0 : type === H264_NAL.pps ? 1 : -1,
      vcl,
      startsAu:
        firstSlice ||
        type === H264_NAL.aud ||
        type === H264_NAL.sei ||
        type === 7 ||
        type === 8 ||
        (type >= 14 && type <= 18),
      key: type === H264_NAL.idr,
      drop: type === H264_NAL.aud,
    };
  },
  config([sps = [], pps = []]) {
    const record = buildAvcC(sps, pps);
    const { width, height } = describeAvcC(record);
    return { record, width, height };
  },
};

const H265: AnnexBSyntax = {
  codec: 'h265',
  parameterSets: ['VPS', 'SPS', 'PPS'],
  role(nal) {
    const type = h265NalType(nal);
    const vcl = type < 32;
    const firstSlice = vcl && ((nal[2] ?? 0) & 0x80) !== 0;
    return {
      parameterSet: type === H265_NAL.vps ? 0 : type === H265_NAL.sps ? 1 : type === H265_NAL.pps ? 2 : -1,
      vcl,
      startsAu: firstSlice || type === H265_NAL.aud || (type >= 32 && type <= 34) || type === H265_NAL.prefixSei,
      key: vcl && isKeyframeNal(type),
      drop: type === H265_NAL.aud,
    };
  },
  config([vps = [], sps = [], pps = []]) {
    const record = buildHvcC(vps, sps, pps);
    const { width, height } = describeHvcC(record);
    return { record, width, height };
  },
};

/** Largest frame rate accepted. */
const MAX_FPS = 240;

function annexBToTrack(syntax: AnnexBSyntax, bytes: Uint8Array, fps: number): EncodedTrack {
  if (!(fps > 0 && fps <= MAX_FPS)) {
    throw new UnsupportedError(`frame rate ${fps} (0 < fps <= ${MAX_FPS})`);
  }
  const sets: Uint8Array[][] = syntax.parameterSets.map(() => []);
  const units: { nals: Uint8Array[]; key: boolean; vcl: boolean }[] = [];
  let current: (typeof units)[number] | undefined;
  for (const nal of splitAnnexB(bytes)) {
    const role = syntax.role(nal);
    if (!current || (current.vcl && role.startsAu)) {
      current = { nals: [], key: false, vcl: false };
      units.push(current);
    }
    const list = sets[role.parameterSet];
    if (list) {
      if (list.length === 0) {
        list.push(nal);
      }
      continue;
    }
    if (role.drop) {
      continue;
    }
    current.nals.push(nal);
    current.vcl ||= role.vcl;
    current.key ||= role.key;
  }
  const missing = syntax.parameterSets.filter((_, index) => sets[index]?.length === 0);
  if (missing.length > 0) {
    throw new ParseError(`the ${syntax.codec} Annex B stream has no ${missing.join('/')}`);
  }
  const config = syntax.config(sets);
  const tags: FlvTag[] = [
    {
      type: FlvTagType.video,
      timestampMs: 0,
      data: buildVideoTag({ codec: syntax.codec, packetType: 'config', key: true, data: config.record, legacy: false }),
    },
  ];
  units
    .filter((unit) => unit.vcl)
    .forEach((unit, index) => {
      const data = toLengthPrefixed(unit.nals);
      tags.push({
        type: FlvTagType.video,
        timestampMs: Math.round((index * 1000) / fps),
        data: buildVideoTag({ codec: syntax.codec, packetType: 'frame', key: unit.key, data, legacy: false }),
      });
    });
  const fourCc = syntax.codec === 'h264' ? 'avc1' : 'hvc1';
  return {
    tags,
    metadata: { width: config.width, height: config.height, framerate: fps, videocodecid: fourCcNumber(fourCc) },
  };
}

/** Wraps an H.264 Annex B stream (no B-frames) at `fps` as E-RTMP `avc1` tags. */
export function h264AnnexBToTrack(bytes: Uint8Array, fps: number): EncodedTrack {
  return annexBToTrack(H264, bytes, fps);
}

/** Wraps an H.265 Annex B stream (no B-frames) at `fps` as E-RTMP `hvc1` tags. */
export function h265AnnexBToTrack(bytes: Uint8Array, fps: number): EncodedTrack {
  return annexBToTrack(H265, bytes, fps);
}
