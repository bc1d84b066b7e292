import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { before, describe, it } from 'node:test';
import { Hub, type Publisher } from '../../hub/hub.js';
import { silentLogger } from '../../ports.js';
import type { Track } from '../../stream/track.js';
import { type EncodedMedia, encodeTestMedia, ffmpegSkip, ffprobeJson } from '../../testing/ffmpeg-media.js';
import { writePasses } from '../../testing/live-feed.js';
import { playRequest } from '../../testing/play-request.js';
import { suiteTempDir } from '../../testing/temp-dir.js';
import { testSourceArgs } from '../../testing/test-source.js';
import type { PlayRequest } from '../shared/http-types.js';
import { MP4_TYPE, ProgressiveMp4Service } from './progressive-mp4-service.js';

const skip = ffmpegSkip();

const request = (playbackId: string, signal = new AbortController().signal): PlayRequest =>
  playRequest({ playbackId, signal });

async function collect(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

describe('ProgressiveMp4Service', { skip }, () => {
  const tmp = suiteTempDir('progressive-mp4-');
  let media: EncodedMedia;

  before(() => {
    media = encodeTestMedia(tmp.path, testSourceArgs({ seconds: 2 }));
  });

  /** Writes one pass, then lets the response take everything queued (readers drop queued units at the end). */
  const write = async (publisher: Publisher, service: ProgressiveMp4Service): Promise<void> => {
    writePasses(publisher, media, 0, 1);
    while (service.active().some((session) => session.queuedUnits > 0)) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  it('keeps one response playing across a publisher reconnect with the same tracks', async () => {
    const hub = new Hub({ log: silentLogger, reconnectWindowMs: 60_000 });
    const service = new ProgressiveMp4Service(hub);
    const first = hub.publish({ streamId: 's1', playbackId: 'p1' }, 'rtmp');
    first.setDescription({ tracks: media.tracks });
    const response = await service.handle(request('p1'));
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], MP4_TYPE);
    const body = collect(response.body as Readable);
    await write(first, service);
    first.close('encoder dropped');
    const second = hub.publish({ streamId: 's1', playbackId: 'p1' }, 'rtmp');
    second.setDescription({ tracks: media.tracks.map((track) => ({ ...track })) });
    await write(second, service);
    hub.stop('s1', 'encoder finished');
    const file = join(tmp.path, 'reconnect.mp4');
    writeFileSync(file, await body);
    const frames = ffprobeJson(['-select_streams', 'v', '-show_entries', 'frame=pts_time', '-show_frames', file])
      .frames as { pts_time: string }[];
    assert.equal(frames.length, 120, 'both sessions of the publisher, every frame');
    const times = frames.map((frame) => Number(frame.pts_time)).sort((a, b) => a - b);
    const steps = times.slice(1).map((time, index) => time - (times[index] ?? 0));
    const gaps = steps.filter((step) => step > 0.05);
    assert.ok(
      gaps.length <= 1 && (gaps[0] ?? 0) < 0.25,
      `steps above one frame: ${gaps.map((g) => g.toFixed(3)).join(', ')}; the timeline continues across the reconnect, ` +
        'with at most one short gap where video waits for the audio of the first session to end (both tracks resume together)',
    );
    assert.equal(service.active().length, 0);
  });

  it('ends the response when the publisher comes back with other tracks', async () => {
    const hub = new Hub({ log: silentLogger, reconnectWindowMs: 60_000 });
    const service = new ProgressiveMp4Service(hub);
    const first = hub.publish({ streamId: 's2', playbackId: 'p2' }, 'rtmp');
    first.setDescription({ tracks: media.tracks });
    const response = await service.handle(request('p2'));
    const body = collect(response.body as Readable);
    await write(first, service);
    first.close('encoder dropped');
    const second = hub.publish({ streamId: 's2', playbackId: 'p2' }, 'rtmp');
    const changed: Track[] = media.tracks.map((track) =>
      track.kind === 'video' ? { ...track, config: Uint8Array.of(...track.config, 0) } : track,
    );
    second.setDescription({ tracks: changed });
    await write(second, service);
    assert.ok((await body).byteLength > 0);
    assert.ok(hub.getByPlaybackId('p2'), 'the stream is still live');
    assert.equal(service.active().length, 0, 'the response ended on its own');
    hub.close();
  });

  it('answers 404 for an unknown playback id and 503 before the tracks are known', async () => {
    const hub = new Hub({ log: silentLogger });
    const service = new ProgressiveMp4Service(hub);
    assert.equal((await service.handle(request('nope'))).status, 404);
    hub.publish({ streamId: 's3', playbackId: 'p3' }, 'rtmp');
    const early = await service.handle(request('p3'));
    assert.equal(early.status, 503);
    assert.equal(early.headers['retry-after'], '1');
    hub.close();
  });
});
