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

/** Wraps a VP9 IVF file as E-RTMP `vp09` tags, timestamps from the IVF timebase. */
export function vp9IvfToTrack(bytes: Uint8Array): EncodedTrack {
  const { header, frames } = parseIvf(bytes);
  if (header.fourCc !== 'VP90') {
    throw new UnsupportedError(`IVF FourCC "${header.fourCc}" (VP90 only)`);
  }
  const firstFrame = frames[0];
  const keyInfo = firstFrame ? parseFrameSize(firstFrame.data) : undefined;
  if (!firstFrame || !keyInfo) {
    throw new ParseError('the VP9 stream does not start with a key frame');
  }
  const toMs = (timestamp: number) =>
    ((timestamp - firstFrame.timestamp) * 1000 * header.timebaseNum) / header.timebaseDen;
  const lastMs = toMs(frames[frames.length - 1]?.timestamp ?? firstFrame.timestamp);
  const fps = frames.length > 1 && lastMs > 0 ? ((frames.length - 1) * 1000) / lastMs : 30;
  const vpcC = buildVpcC(vpcCFieldsFromFrame(keyInfo, vp9LevelFor(keyInfo.width, keyInfo.height, fps)));
  const tags: FlvTag[] = [
    {
      type: FlvTagType.video,
      timestampMs: 0,
      data: buildVideoTag({ codec: 'vp9', packetType: 'config', key: true, data: vpcC }),
    },
  ];
  for (const frame of frames) {
    tags.push({
      type: FlvTagType.video,
      timestampMs: Math.round(toMs(frame.timestamp)),
      data: buildVideoTag({ codec: 'vp9', packetType: 'frame', key: isKeyframe(frame.data), data: frame.data }),
    });
  }
  return {
    tags,
    metadata: {
      width: keyInfo.width,
      height: keyInfo.height,
      framerate: Math.round(fps * 1000) / 1000,
      videocodecid: fourCcNumber('vp09'),
    },
  };
}

/** Wraps an AV1 IVF file (as libaom writes it) as E-RTMP `av01` tags, timestamps from the IVF timebase. */
export function av1IvfToTrack(bytes: Uint8Array): EncodedTrack {
  const { header, frames } = parseIvf(bytes);
  if (header.fourCc !== 'AV01') {
    throw new UnsupportedError(`IVF FourCC "${header.fourCc}" (AV01 only)`);
  }
  const first = frames[0];
  const sequenceHeader = first ? splitObus(first.data).find((obu) => obu.type === OBU.sequenceHeader) : undefined;
  if (!first || !sequenceHeader || !isAv1Keyframe(first.data)) {
    throw new ParseError('the AV1 stream does not start with a sequence header and a key frame');
  }
  const av1C = buildAv1C(sequenceHeader.bytes);
  const toMs = (timestamp: number) => ((timestamp - first.timestamp) * 1000 * header.timebaseNum) / header.timebaseDen;
  const lastMs = toMs(frames[frames.length - 1]?.timestamp ?? first.timestamp);
  const fps = frames.length > 1 && lastMs > 0 ? ((frames.length - 1) * 1000) / lastMs : 30;
  const tags: FlvTag[] = [
    {
      type: FlvTagType.video,
      timestampMs: 0,
      data: buildVideoTag({ codec: 'av1', packetType: 'config', key: true, data: av1C }),
    },
  ];
  for (const frame of frames) {
    tags.push({
      type: FlvTagType.video,
      timestampMs: Math.round(toMs(frame.timestamp)),
      data: buildVideoTag({ codec: 'av1', packetType: 'frame', key: isAv1Keyframe(frame.data), data: frame.data }),
    });
  }
  return {
    tags,
    metadata: {
      width: header.width,
      height: header.height,
      framerate: Math.round(fps * 1000) / 1000,
      videocodecid: fourCcNumber('av01'),
    },
  };
}
