/**
 * LL-HLS and DASH of a live RTMP publish: ffmpeg pushes a real-time H.264 (B-frames) + AAC test
 * pattern to our RtmpServer, and an HTTP client behaves like an LL-HLS player: blocking playlist
 * reloads for the next part with the preload-hinted part requested at the same time. Once ffmpeg
 * finishes, the ended playlist and the static MPD decode in ffprobe with every frame.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Hub } from '@airwave/media/hub/hub';
import type { PublishAuthorizer } from '@airwave/media/ports';
import { silentLogger } from '@airwave/media/ports';
import { DashService } from '@airwave/media/protocols/dash/dash-service';
import { LlHlsService } from '@airwave/media/protocols/hls/llhls/llhls-service';
import { RtmpServer } from '@airwave/media/protocols/rtmp/server';
import { type Served, serveCmaf, TOKEN } from './support/cmaf-server.js';
import { byType, ffmpegMissing, probeStreams, publishPattern } from './support/ffmpeg.js';
import { waitFor } from './support/processes.js';

const SECONDS = 6;
const FPS = 30;

/** The newest part a media playlist lists: its segment's msn and index, and its URI. */
interface Position {
  readonly msn: number;
  readonly part: number;
  readonly uri: string;
}

function lastPosition(playlist: string): Position {
  const sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1]);
  const skipped = Number(/#EXT-X-SKIP:SKIPPED-SEGMENTS=(\d+)/.exec(playlist)?.[1] ?? 0);
  let msn = sequence + skipped;
  let part = -1;
  let uri = '';
  let lastSegmentParts = -1;
  let lastSegmentUri = '';
  for (const line of playlist.split('\n')) {
    const partUri = /^#EXT-X-PART:.*URI="([^"]+)"/.exec(line)?.[1];
    if (partUri) {
      part++;
      uri = partUri;
    } else if (line !== '' && !line.startsWith('#')) {
      lastSegmentParts = part;
      lastSegmentUri = uri;
      msn++;
      part = -1;
    }
  }
  if (part >= 0) {
    return { msn, part, uri };
  }
  return { msn: msn - 1, part: lastSegmentParts, uri: lastSegmentUri };
}

const authorizer: PublishAuthorizer = {
  async authorize(key) {
    return key === 'live-key' ? { streamId: 'rtmp-stream', playbackId: 'rtmp' } : null;
  },
};

describe('LL-HLS of a live RTMP publish', { skip: ffmpegMissing }, () => {
  const hub = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
  const llhls = new LlHlsService(hub, { packager: { partTargetSeconds: 0.5 } });
  const dash = new DashService(hub);
  let rtmp: RtmpServer;
  let served: Served;
  let port = 0;

  before(async () => {
    rtmp = new RtmpServer({ hub, authorizer, log: silentLogger });
    port = await rtmp.listen(0, '127.0.0.1');
    served = await serveCmaf(llhls, dash);
  });

  after(async () => {
    await rtmp.close();
    hub.close();
    llhls.registry.close();
    await new Promise((resolve) => served.server.close(resolve));
    served.server.closeAllConnections();
  });

  it('answers blocking reloads with the requested part and serves hinted parts, then decodes', async () => {
    const ffmpeg = publishPattern(`rtmp://127.0.0.1:${port}/live/live-key`, {
      seconds: SECONDS,
      fps: FPS,
      gop: FPS,
    });
    const base = `${served.base}/rtmp/cmaf`;
    const first = await waitFor(
      'the first LL-HLS playlist',
      async () => {
        const response = await fetch(`${base}/video.m3u8?${TOKEN}`);
        return response.status === 200 ? response.text() : undefined;
      },
      15_000,
    );
    let playlist = first;
    let position = lastPosition(playlist);
    let reloads = 0;
    while (!playlist.includes('#EXT-X-ENDLIST')) {
      const hint = /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="([^"]+)"/.exec(playlist)?.[1];
      assert.ok(hint, 'a live playlist hints the next part');
      const wanted = { msn: position.msn, part: position.part + 1 };
      const [reloaded, hinted] = await Promise.all([
        fetch(`${base}/video.m3u8?_HLS_msn=${wanted.msn}&_HLS_part=${wanted.part}&${TOKEN}`),
        fetch(`${base}/${hint}`),
      ]);
      assert.equal(reloaded.status, 200);
      playlist = await reloaded.text();
      const hintedBytes = new Uint8Array(await hinted.arrayBuffer());
      if (playlist.includes('#EXT-X-ENDLIST') && hinted.status === 404) {
        break;
      }
      position = lastPosition(playlist);
      assert.ok(
        position.msn > wanted.msn || (position.msn === wanted.msn && position.part >= wanted.part),
        `reload for ${wanted.msn}.${wanted.part} answered at ${position.msn}.${position.part}`,
      );
      assert.equal(hinted.status, 200, 'the hinted part is delivered once complete');
      assert.equal(hinted.headers.get('content-type'), 'video/mp4');
      assert.ok(playlist.includes(`URI="${hint}"`), 'the hinted part is now listed');
      const listed = await fetch(`${base}/${hint}`);
      assert.deepEqual(new Uint8Array(await listed.arrayBuffer()), hintedBytes);
      reloads++;
    }
    assert.equal(await ffmpeg.exited, 0, ffmpeg.stderr());
    assert.ok(reloads >= 4, `only ${reloads} blocking reloads before the end`);
    const hls = await probeStreams(`${base}/index.m3u8?${TOKEN}`);
    const video = byType(hls, 'video');
    assert.equal(video.codec_name, 'h264');
    assert.equal(video.width, 640);
    assert.equal(video.height, 360);
    assert.equal(Number(video.nb_read_frames), SECONDS * FPS);
    assert.equal(byType(hls, 'audio').codec_name, 'aac');
    const mpd = await probeStreams(`${base}/index.mpd?${TOKEN}`);
    assert.equal(Number(byType(mpd, 'video').nb_read_frames), SECONDS * FPS);
    assert.equal(byType(mpd, 'audio').codec_name, 'aac');
    assert.deepEqual(served.untokened, []);
  });
});
