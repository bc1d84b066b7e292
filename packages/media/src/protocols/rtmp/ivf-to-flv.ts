/**
 * VP9 and AV1 in IVF as E-RTMP v2 tags. VP9 (`vp09`): SequenceStart with a vpcC (VP Codec ISO
 * Media File Format Binding §2.2) built from the first key frame's uncompressed header (VP9 spec
 * §6.2), then one CodedFrames tag per IVF frame (a frame or superframe), key flag from its frame
 * header. AV1 (`av01`): SequenceStart with an av1C (AV1 Codec ISO Media File Format Binding §2.3)
 * built from the first temporal unit's sequence header OBU (AV1 spec §5.5), then one CodedFrames
 * tag per temporal unit (low-overhead OBUs), key flag from its frame header (§5.9.2).
 */
import { buildAv1C, isKeyframe as isAv1Keyframe, OBU, splitObus } from '../../codecs/av1.js';
import { buildVpcC, isKeyframe, parseFrameSize, vp9LevelFor, vpcCFieldsFromFrame } from '../../codecs/vp9.js';
import { ParseError, UnsupportedError } from '../../errors.js';
import { buildVideoTag } from '../../formats/flv/flv-build.js';
import { type FlvTag, FlvTagType } from '../../formats/flv/flv-tag.js';
import { parseIvf } from '../../formats/ivf/ivf.js';
import { type EncodedTrack, fourCcNumber } from './encoded-track.js';

/** What the codec-specific part of an IVF conversion decides. */
interface IvfVideo {
  readonly codec: 'vp9' | 'av1';
  readonly fourCc: 'vp09' | 'av01';
  /** The SequenceStart payload (vpcC or av1C), given the frame rate measured over the file. */
  readonly config: (fps: number) => Uint8Array;
  readonly isKey: (frame: Uint8Array) => boolean;
  readonly width: number;
  readonly height: number;
}

/** The E-RTMP tags of IVF frames: SequenceStart, then one CodedFrames tag per frame on the IVF timebase. */
function ivfTrack(parsed: ReturnType<typeof parseIvf>, video: IvfVideo): EncodedTrack {
  const { header, frames } = parsed;
  const first = frames[0]?.timestamp ?? 0;
  const toMs = (timestamp: number) => ((timestamp - first) * 1000 * header.timebaseNum) / header.timebaseDen;
  const lastMs = toMs(frames[frames.length - 1]?.timestamp ?? first);
  const fps = frames.length > 1 && lastMs > 0 ? ((frames.length - 1) * 1000) / lastMs : 30;
  const tags: FlvTag[] = [
    {
      type: FlvTagType.video,
      timestampMs: 0,
      data: buildVideoTag({ codec: video.codec, packetType: 'config', key: true, data: video.config(fps) }),
    },
  ];
  for (const frame of frames) {
    tags.push({
      type: FlvTagType.video,
      timestampMs: Math.round(toMs(frame.timestamp)),
      data: buildVideoTag({ codec: video.codec, packetType: 'frame', key: video.isKey(frame.data), data: frame.data }),
    });
  }
  return {
    tags,
    metadata: {
      width: video.width,
      height: video.height,
      framerate: Math.round(fps * 1000) / 1000,
      videocodecid: fourCcNumber(video.fourCc),
    },
  };
}

/** Wraps a VP9 IVF file as E-RTMP `vp09` tags, timestamps from the IVF timebase. */
export function vp9IvfToTrack(bytes: Uint8Array): EncodedTrack {
  const parsed = parseIvf(bytes);
  if (parsed.header.fourCc !== 'VP90') {
    throw new UnsupportedError(`IVF FourCC "${parsed.header.fourCc}" (VP90 only)`);
  }
  const firstFrame = parsed.frames[0];
  const keyInfo = firstFrame ? parseFrameSize(firstFrame.data) : undefined;
  if (!firstFrame || !keyInfo) {
    throw new ParseError('the VP9 stream does not start with a key frame');
  }
  return ivfTrack(parsed, {
    codec: 'vp9',
    fourCc: 'vp09',
    config: (fps) => buildVpcC(vpcCFieldsFromFrame(keyInfo, vp9LevelFor(keyInfo.width, keyInfo.height, fps))),
    isKey: isKeyframe,
    width: keyInfo.width,
    height: keyInfo.height,
  });
}

/** Wraps an AV1 IVF file (as libaom writes it) as E-RTMP `av01` tags, timestamps from the IVF timebase. */
export function av1IvfToTrack(bytes: Uint8Array): EncodedTrack {
  const parsed = parseIvf(bytes);
  if (parsed.header.fourCc !== 'AV01') {
    throw new UnsupportedError(`IVF FourCC "${parsed.header.fourCc}" (AV01 only)`);
  }
  const first = parsed.frames[0];
  const sequenceHeader = first ? splitObus(first.data).find((obu) => obu.type === OBU.sequenceHeader) : undefined;
  if (!first || !sequenceHeader || !isAv1Keyframe(first.data)) {
    throw new ParseError('the AV1 stream does not start with a sequence header and a key frame');
  }
  const av1C = buildAv1C(sequenceHeader.bytes);
  return ivfTrack(parsed, {
    codec: 'av1',
    fourCc: 'av01',
    config: () => av1C,
    isKey: isAv1Keyframe,
    width: parsed.header.width,
    height: parsed.header.height,
  });
}
