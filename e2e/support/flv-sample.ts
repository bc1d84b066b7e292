/**
 * Media a test makes itself: ffmpeg encodes its lavfi test pattern (H.264 without B-frames + AAC)
 * into an FLV file as fast as it can (not in real time), and the test replays its tags with our
 * own publisher (RtmpPublisher.writeTag) where it needs control over what is sent and when.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FlvTag, FlvTagType, readFlvTags } from '@airwave/media/formats/flv/flv-tag';
import { patternArgs } from './ffmpeg.js';

/** An FLV made by ffmpeg, as tags, with the media units it carries counted. */
export interface FlvSample {
  readonly tags: readonly FlvTag[];
  /** Coded H.264 frames (AVC packet type 1), what the hub receives as video units. */
  readonly videoFrames: number;
  /** Raw AAC frames (AAC packet type 1), what the hub receives as audio units. */
  readonly audioFrames: number;
}

const AVC_CODEC_ID = 7;
const AAC_SOUND_FORMAT = 10;

/** Whether a tag carries one coded frame (not a sequence header or end of sequence). */
function isCodedFrame(tag: FlvTag): boolean {
  if (tag.type === FlvTagType.video) {
    return ((tag.data[0] ?? 0) & 0x0f) === AVC_CODEC_ID && tag.data[1] === 1;
  }
  return tag.type === FlvTagType.audio && (tag.data[0] ?? 0) >> 4 === AAC_SOUND_FORMAT && tag.data[1] === 1;
}

/** Encodes `seconds` of the 640x360 30 fps test pattern with 48 kHz stereo AAC into FLV tags. */
export function makeFlvSample(seconds: number): FlvSample {
  const dir = mkdtempSync(join(tmpdir(), 'flv-sample-'));
  try {
    const file = join(dir, 'sample.flv');
    const encode = spawnSync(
      'ffmpeg',
      patternArgs(file, { seconds, bframes: false, gop: 30, realtime: false, outputArgs: ['-y'] }),
    );
    assert.equal(encode.status, 0, `ffmpeg could not make ${file}: ${encode.stderr?.toString()}`);
    const tags = readFlvTags(readFileSync(file));
    const frames = (type: number) => tags.filter((tag) => tag.type === type && isCodedFrame(tag)).length;
    return { tags, videoFrames: frames(FlvTagType.video), audioFrames: frames(FlvTagType.audio) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
