/**
 * CMAF delivery with real media and a real client: ffmpeg encodes H.264 (with B-frames) + AAC,
 * the units go through a Hub into the LL-HLS and DASH services served by a bare node:http server
 * on 127.0.0.1, and ffprobe decodes the LL-HLS playlist, the MPD and the parts concatenated after
 * their init segment, checking codec, size and frame count. Every URI must carry the `jwt` query.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Hub, type Publisher } from '@airwave/media/hub/hub';
import { silentLogger } from '@airwave/media/ports';
import { DashService } from '@airwave/media/protocols/dash/dash-service';
import { LlHlsService } from '@airwave/media/protocols/hls/llhls/llhls-service';
import type { MediaUnit } from '@airwave/media/stream/media-unit';
import { type EncodedMedia, encodeTestMedia } from '@airwave/media/testing/ffmpeg-media';
import { lavfiInputs } from '@airwave/media/testing/test-source';
import { type Served, serveCmaf, TOKEN } from './support/cmaf-server.js';
import { byType, ffmpegMissing, type ProbedStream, probeStreams } from './support/ffmpeg.js';
import { fetchBytes, fetchText } from './support/http.js';

const FRAMES = 120;

describe('CMAF delivery decoded by ffprobe', { skip: ffmpegMissing }, () => {
  let dir = '';
  let media: EncodedMedia;
  let hub: Hub;
  let served: Served;
  let audioFrames = 0;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'airwave-cmaf-'));
    media = encodeTestMedia(dir, [
      ...lavfiInputs('640x360', 48_000),
      ...['-c:v', 'libx264', '-bf', '2', '-g', '30', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-t', '4'],
    ]);
    audioFrames = media.units.filter((unit) => unit.trackId === 2).length;
    hub = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
    const llhls = new LlHlsService(hub, { firstSegmentWaitMs: 2000 });
    const dash = new DashService(hub);
    served = await serveCmaf(llhls, dash);
  });

  after(async () => {
    hub?.close();
    await new Promise((resolve) => served?.server.close(resolve));
    served?.server.closeAllConnections();
    rmSync(dir, { recursive: true, force: true });
  });

  function publish(id: string, units: readonly MediaUnit[]): Publisher {
    const publisher = hub.publish({ streamId: `s-${id}`, playbackId: id }, 'rtmp');
    publisher.setDescription({ tracks: media.tracks });
    for (const unit of units) {
      publisher.write(unit);
    }
    return publisher;
  }

  /** The whole source came through: every video frame (H.264 640x360) and the AAC frames within two. */
  function assertWholeSource(streams: readonly ProbedStream[]): void {
    const video = byType(streams, 'video');
    assert.equal(video.codec_name, 'h264');
    assert.equal(video.width, 640);
    assert.equal(video.height, 360);
    assert.equal(Number(video.nb_read_frames), FRAMES);
    const audio = byType(streams, 'audio');
    assert.equal(audio.codec_name, 'aac');
    assert.ok(Math.abs(Number(audio.nb_read_frames) - audioFrames) <= 2, `${audio.nb_read_frames} of ${audioFrames}`);
  }

  it('the source has the frames the checks expect', () => {
    assert.equal(media.units.filter((unit) => unit.trackId === 1).length, FRAMES);
    assert.ok(
      media.units.some((unit) => unit.pts !== unit.dts),
      'the source has B-frames (composition offsets)',
    );
  });

  it('LL-HLS: the live playlist probes, and the ended playlist decodes every frame', async () => {
    publish('hls', media.units);
    const live = await probeStreams(`${served.base}/hls/cmaf/video.m3u8?${TOKEN}`, ['-read_intervals', '%+#1']);
    const liveVideo = byType(live, 'video');
    assert.equal(liveVideo.codec_name, 'h264');
    hub.stop('s-hls', 'test over');
    const streams = await probeStreams(`${served.base}/hls/cmaf/index.m3u8?${TOKEN}`);
    assertWholeSource(streams);
    assert.equal(byType(streams, 'audio').sample_rate, '48000');
    assert.deepEqual(served.untokened, [], 'every listed URI carried the token');
  });

  it('LL-HLS: the parts listed in the playlist, appended to the init segment, decode', async () => {
    publish('parts', media.units);
    hub.stop('s-parts', 'test over');
    for (const [track, codec] of [
      ['video', 'h264'],
      ['audio', 'aac'],
    ] as const) {
      const playlist = await fetchText(`${served.base}/parts/cmaf/${track}.m3u8?${TOKEN}`);
      const map = /#EXT-X-MAP:URI="([^"]+)"/.exec(playlist)?.[1];
      const parts = [...playlist.matchAll(/#EXT-X-PART:[^\n]*URI="([^"]+)"/g)].map((match) => match[1] ?? '');
      assert.ok(map && parts.length >= 8, `${track}: init and parts listed`);
      const chunks = [await fetchBytes(`${served.base}/parts/cmaf/${map}`)];
      for (const part of parts) {
        chunks.push(await fetchBytes(`${served.base}/parts/cmaf/${part}`));
      }
      const file = join(dir, `${track}-parts.mp4`);
      writeFileSync(file, Buffer.concat(chunks));
      const stream = byType(await probeStreams(file), track);
      assert.equal(stream.codec_name, codec);
      if (track === 'video') {
        assert.equal(Number(stream.nb_read_frames), FRAMES);
        assert.equal(stream.width, 640);
      } else {
        assert.ok(Math.abs(Number(stream.nb_read_frames) - audioFrames) <= 2);
      }
    }
  });

  it('DASH: the MPD decodes every frame with the right codecs and size', async () => {
    publish('dash', media.units);
    const live = await fetchText(`${served.base}/dash/cmaf/index.mpd?${TOKEN}`);
    assert.match(live, /type="dynamic"/);
    hub.stop('s-dash', 'test over');
    assertWholeSource(await probeStreams(`${served.base}/dash/cmaf/index.mpd?${TOKEN}`));
    assert.deepEqual(served.untokened, []);
  });
});
