import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it, test } from 'node:test';
import { PMT_PID } from '../../../formats/mpegts/ts-muxer.js';
import { Hub } from '../../../hub/hub.js';
import { silentLogger } from '../../../ports.js';
import type { Track } from '../../../stream/track.js';
import { type EncodedMedia, encodeTestMedia, ffmpegSkip, ffprobeJson } from '../../../testing/ffmpeg-media.js';
import { writePasses } from '../../../testing/live-feed.js';
import { suiteTempDir } from '../../../testing/temp-dir.js';
import { testSourceArgs } from '../../../testing/test-source.js';
import { renderMediaPlaylist } from './ts-playlists.js';
import { TsSegmenter, tracksForTs } from './ts-segmenter.js';

const skip = ffmpegSkip();

interface ProbeStream {
  codec_name: string;
  width?: number;
  height?: number;
  nb_read_frames?: string;
}

function pid(data: Uint8Array, packet: number): number {
  const at = packet * 188;
  return (((data[at + 1] ?? 0) & 0x1f) << 8) | (data[at + 2] ?? 0);
}

/** Publishes `passes` passes of the media into a fresh hub stream with a segmenter attached. */
function publishInto(media: EncodedMedia, segmenter: TsSegmenter, passes: number, playbackId: string) {
  const hub = new Hub({ log: silentLogger, reconnectWindowMs: 60_000 });
  const publisher = hub.publish({ streamId: playbackId, playbackId }, 'rtmp');
  publisher.stream.attach(segmenter);
  publisher.setDescription({ tracks: media.tracks });
  writePasses(publisher, media, 0, passes);
  return { hub, publisher };
}

describe('TsSegmenter with real H.264 + AAC', { skip }, () => {
  const tmp = suiteTempDir('ts-segmenter-');
  let oneSecondGop: EncodedMedia;
  let threeSecondGop: EncodedMedia;

  before(() => {
    oneSecondGop = encodeTestMedia(tmp.path, testSourceArgs({ size: '640x360', gop: 30, fixedGop: true, seconds: 4 }));
    threeSecondGop = encodeTestMedia(
      tmp.path,
      testSourceArgs({ gop: 90, fixedGop: true, bFrames: 0, seconds: 7 }),
      'three-second-gop.mp4',
    );
  });

  it('cuts 2 s segments at keyframes, each starting with PAT/PMT and decodable alone', () => {
    const segmenter = new TsSegmenter({ targetDurationSeconds: 2 });
    const { hub } = publishInto(oneSecondGop, segmenter, 1, 'p-two');
    hub.stop('p-two', 'test over');
    assert.equal(segmenter.ended, 'test over');
    const segments = segmenter.window;
    assert.deepEqual(
      segments.map((segment) => [segment.sequence, segment.duration]),
      [
        [0, 2],
        [1, 2],
      ],
    );
    assert.equal(segmenter.targetDuration, 2);
    assert.equal(segmenter.measurements().keyframeIntervalSeconds, 1);
    for (const segment of segments) {
      assert.equal(segment.data.byteLength % 188, 0);
      assert.equal(segment.data[0], 0x47);
      assert.equal(pid(segment.data, 0), 0, 'PAT first');
      assert.equal(pid(segment.data, 1), PMT_PID, 'PMT second');
      assert.equal(segment.videoFrames, 60);
      const file = join(tmp.path, `seg-${segment.sequence}.ts`);
      writeFileSync(file, segment.data);
      const probe = ffprobeJson(['-count_frames', '-show_streams', file]);
      const streams = probe.streams as ProbeStream[];
      const video = streams.find((stream) => stream.codec_name === 'h264');
      assert.equal(video?.width, 640);
      assert.equal(video?.height, 360);
      assert.equal(video?.nb_read_frames, '60');
      assert.ok(streams.some((stream) => stream.codec_name === 'aac'));
      const frames = ffprobeJson(['-select_streams', 'v', '-show_frames', '-read_intervals', '%+#1', file]).frames as {
        key_frame: number;
      }[];
      assert.equal(frames[0]?.key_frame, 1, 'the segment starts with a keyframe');
    }
    const measured = segmenter.measurements();
    assert.ok((measured.peakBandwidth ?? 0) > 0);
    assert.equal(measured.fps, 30);
    assert.equal(measured.bFrames, true, 'encoded with -bf 2');
  });

  it('makes longer segments for longer GOPs and reports the keyframe interval', () => {
    const segmenter = new TsSegmenter({ targetDurationSeconds: 2 });
    const { hub } = publishInto(threeSecondGop, segmenter, 1, 'p-long');
    hub.stop('p-long', 'test over');
    const durations = segmenter.window.map((segment) => segment.duration);
    assert.deepEqual(durations.slice(0, 2), [3, 3]);
    assert.equal(segmenter.targetDuration, 3);
    assert.equal(segmenter.measurements().keyframeIntervalSeconds, 3);
    assert.equal(segmenter.measurements().bFrames, false, 'encoded with -bf 0');
  });

  it('marks the first segment after a reconnect as a discontinuity and slides a bounded window', () => {
    const segmenter = new TsSegmenter({ targetDurationSeconds: 2, windowSegments: 2, retainSegments: 1 });
    const { hub, publisher } = publishInto(oneSecondGop, segmenter, 1, 'p-disc');
    publisher.close('encoder dropped');
    assert.equal(segmenter.window.length, 2, 'the open segment was published when the encoder dropped');
    const again = hub.publish({ streamId: 'p-disc', playbackId: 'p-disc' }, 'rtmp');
    again.setDescription({ tracks: oneSecondGop.tracks });
    writePasses(again, oneSecondGop, 0, 2);
    const resumed = segmenter.segment(2);
    assert.equal(resumed?.discontinuity, true);
    assert.equal(resumed?.discontinuitySequence, 0);
    assert.equal(segmenter.segment(1), undefined, 'segments beyond window + retained are gone');
    const window = segmenter.window;
    assert.deepEqual(
      window.map((segment) => segment.sequence),
      [3, 4],
    );
    const text = renderMediaPlaylist({ targetDuration: segmenter.targetDuration, segments: window, ended: false });
    assert.match(text, /^#EXT-X-MEDIA-SEQUENCE:3$/m);
    assert.match(text, /^#EXT-X-DISCONTINUITY-SEQUENCE:1$/m);
    assert.doesNotMatch(text, /^#EXT-X-DISCONTINUITY$/m);
    hub.close();
    assert.ok(segmenter.ended);
  });
});

test('classic HLS muxes AAC and drops Opus when a stream carries both (a WHIP stream and its AAC rendition)', () => {
  const video = { kind: 'video', id: 1, codec: 'h264' } as Track;
  const opus = { kind: 'audio', id: 2, codec: 'opus' } as Track;
  const aac = { kind: 'audio', id: 3, codec: 'aac' } as Track;
  assert.deepEqual(
    tracksForTs([video, opus, aac]).map((track) => track.id),
    [1, 3],
  );
  assert.deepEqual(
    tracksForTs([video, opus]).map((track) => track.id),
    [1, 2],
  );
});
