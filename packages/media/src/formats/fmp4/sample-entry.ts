/**
 * Sample entries (ISO/IEC 14496-12 §12.1.3 VisualSampleEntry, §12.2.3 AudioSampleEntry) for
 * every codec of the media plane: avc1 + avcC and hvc1 + hvcC (ISO/IEC 14496-15), av01 + av1C
 * (AV1 Codec ISO Media File Format Binding §2.2), vp09 + vpcC (VP Codec ISO Media File Format
 * Binding §2.2), mp4a + esds (ISO/IEC 14496-14) and Opus + dOps (Opus in ISOBMFF §4.3).
 */
import { buildVpcC, parseVpcC } from '../../codecs/vp9.js';
import type { AudioTrack, Track, VideoTrack } from '../../stream/track.js';
import { box, Fields } from './box-writer.js';
import { dOpsBox } from './dops.js';
import { esdsBox } from './esds.js';

const VIDEO_ENTRY: Record<VideoTrack['codec'], { entry: string; config: string }> = {
  h264: { entry: 'avc1', config: 'avcC' },
  h265: { entry: 'hvc1', config: 'hvcC' },
  av1: { entry: 'av01', config: 'av1C' },
  vp9: { entry: 'vp09', config: 'vpcC' },
};

const RESOLUTION_72_DPI = 0x00480000;

/** Builds the sample entry that goes into `stsd` for a track. */
export function sampleEntry(track: Track): Uint8Array {
  return track.kind === 'video' ? visualSampleEntry(track) : audioSampleEntry(track);
}

function visualSampleEntry(track: VideoTrack): Uint8Array {
  const names = VIDEO_ENTRY[track.codec];
  const configBox = track.codec === 'vp9' ? vpcCBox(track.config) : box(names.config, track.config);
  const fields = new Fields()
    .zeros(6)
    .u16(1)
    .u16(0)
    .u16(0)
    .zeros(12)
    .u16(track.width)
    .u16(track.height)
    .u32(RESOLUTION_72_DPI)
    .u32(RESOLUTION_72_DPI)
    .u32(0)
    .u16(1)
    .zeros(32)
    .u16(0x0018)
    .i16(-1);
  return box(names.entry, fields.bytes(), configBox);
}

/**
 * `vpcC` is a full box (version 1). Tracks may carry the record with or without that version and
 * flags header; parseVpcC accepts both and buildVpcC writes the full box payload.
 */
function vpcCBox(config: Uint8Array): Uint8Array {
  return box('vpcC', buildVpcC(parseVpcC(config)));
}

function audioSampleEntry(track: AudioTrack): Uint8Array {
  const isOpus = track.codec === 'opus';
  const sampleRate = isOpus ? 48_000 : track.sampleRate;
  const fields = new Fields()
    .zeros(6)
    .u16(1)
    .zeros(8)
    .u16(track.channels)
    .u16(16)
    .u16(0)
    .u16(0)
    .u32(sampleRate <= 0xffff ? sampleRate * 0x10000 : 0);
  const configBox = isOpus ? dOpsBox(track.config) : esdsBox(track.id, track.config);
  return box(isOpus ? 'Opus' : 'mp4a', fields.bytes(), configBox);
}
