import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { buildInitSegment } from '../../formats/fmp4/init-segment.js';
import { type EncodedMedia, encodeTestMedia, ffmpegSkip, ffprobeJson } from '../../testing/ffmpeg-media.js';
import { suiteTempDir } from '../../testing/temp-dir.js';
import { testSourceArgs } from '../../testing/test-source.js';
import { LiveFragmenter } from './live-fragmenter.js';

const skip = ffmpegSkip();

interface ProbeFrame {
  media_type: string;
  pts_time: string;
  key_frame: number;
}

/** Writes init + fragments and returns ffprobe's frames, in presentation order per kind. */
function framesOf(dir: string, name: string, media: EncodedMedia, fragments: Uint8Array[]): ProbeFrame[] {
  const file = join(dir, name);
  writeFileSync(file, Buffer.concat([buildInitSegment(media.tracks), ...fragments]));
  const frames = ffprobeJson(['-show_entries', 'frame=media_type,pts_time,key_frame', '-show_frames', file])
    .frames as ProbeFrame[];
  return frames;
}

function ptsOf(frames: readonly ProbeFrame[], kind: string): number[] {
  return frames
    .filter((frame) => frame.media_type === kind)
    .map((frame) => Number(frame.pts_time))
    .sort((a, b) => a - b);
}

function largestStep(values: readonly number[]): number {
  let largest = 0;
  for (let i = 1; i < values.length; i++) {
    largest = Math.max(largest, (values[i] ?? 0) - (values[i - 1] ?? 0));
  }
  return largest;
}

describe('LiveFragmenter with real H.264 + AAC', { skip }, () => {
  const tmp = suiteTempDir('live-fragmenter-');
  let media: EncodedMedia;
  let videoId = 0;

  before(() => {
    media = encodeTestMedia(tmp.path, testSourceArgs({ seconds: 4 }));
    videoId = media.tracks.find((track) => track.kind === 'video')?.id ?? 0;
  });

  it('starts at 0 with a keyframe and cuts a fragment per keyframe or half second', () => {
    const fragmenter = new LiveFragmenter(media.tracks, { fragmentSeconds: 0.5 });
    const fragments = media.units.flatMap((unit) => fragmenter.push(unit));
    const last = fragmenter.flush();
    assert.ok(last);
    fragments.push(last);
    assert.equal(fragments.length, 8, 'two fragments per 1 s GOP');
    assert.equal(fragmenter.fragments, 8);
    const frames = framesOf(tmp.path, 'whole.mp4', media, fragments);
    const video = ptsOf(frames, 'video');
    assert.equal(video.length, 120);
    assert.equal(frames.find((frame) => frame.media_type === 'video')?.key_frame, 1);
    assert.ok(video[0] !== undefined && video[0] < 0.1, `video starts near 0, got ${video[0]}`);
    assert.ok(largestStep(video) < 0.034);
  });

  it('keeps one continuous timeline across a reader drop', () => {
    const fragmenter = new LiveFragmenter(media.tracks, { fragmentSeconds: 0.5 });
    const fragments: Uint8Array[] = [];
    const keyIndexes = media.units.flatMap((unit, index) => (unit.trackId === videoId && unit.key ? [index] : []));
    const dropFrom = keyIndexes[2] ?? -1;
    const resumeAt = keyIndexes[3] ?? -1;
    assert.ok(dropFrom > 0 && resumeAt > dropFrom);
    media.units.forEach((unit, index) => {
      if (index >= dropFrom && index < resumeAt) {
        return;
      }
      fragments.push(...fragmenter.push(unit, index === resumeAt));
    });
    const last = fragmenter.flush();
    if (last) {
      fragments.push(last);
    }
    const frames = framesOf(tmp.path, 'gap.mp4', media, fragments);
    const video = ptsOf(frames, 'video');
    assert.equal(video.length, 90, 'two GOPs before the drop, one after');
    assert.ok(largestStep(video) < 0.034, `no hole in the video timeline (largest step ${largestStep(video)} s)`);
    const audio = ptsOf(frames, 'audio');
    assert.ok(largestStep(audio) < 0.05, `no hole in the audio timeline (largest step ${largestStep(audio)} s)`);
    const lastVideo = video[video.length - 1] ?? 0;
    assert.ok(lastVideo < 3.05, `the timeline closed the 1 s gap (last video pts ${lastVideo} s)`);
  });
});
