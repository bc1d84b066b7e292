/**
 * Robustness of the real server's media plane: a garbage TCP client on the RTMP port, a silent
 * connection and a publisher killed mid-stream are each closed or ended on their own while
 * another live stream's HLS keeps advancing; a publish as fast as ffmpeg can encode (two minutes
 * of media, no `-re`) keeps every packager window at its bound and evicts old segments.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ffmpegMissing, publishPattern } from './support/ffmpeg.js';
import { fetchText } from './support/http.js';
import {
  lastHlsSequence,
  type MediaServer,
  type MediaStream,
  startMediaServer,
  streamState,
} from './support/media-server.js';
import { type Tracked, waitFor } from './support/processes.js';

/** Segments listed by classic HLS (default window). */
const HLS_WINDOW = 6;
/** Complete segments listed by LL-HLS and DASH (default window). */
const CMAF_WINDOW = 10;

/** Waits until the HLS of `stream` lists a segment newer than the newest one now. */
async function assertAdvances(stream: MediaStream, what: string): Promise<void> {
  const sequence = await lastHlsSequence(stream);
  await waitFor(`HLS advancing after ${what}`, async () => (await lastHlsSequence(stream)) > sequence, 15_000, 250);
}

/** Resolves when the server closes `socket` (what it sends is read and dropped, so the end is seen). */
function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    socket.once('close', () => resolve());
    socket.resume();
  });
}

describe('robustness of the media plane through the real server', { skip: ffmpegMissing }, () => {
  let media: MediaServer;
  let steady: Tracked;

  before(async () => {
    media = await startMediaServer({ AIRWAVE_RECONNECT_WINDOW_SECONDS: '2' });
    steady = publishPattern(media.rtmpUrl, { fps: 30 });
    await waitFor(
      'the steady stream has HLS segments',
      async () => (await fetch(media.playUrl('/hls/stream.m3u8'))).status === 200,
      30_000,
      250,
    );
  });

  after(async () => {
    await steady?.stop();
    await media?.close();
  });

  it('closes garbage and silent connections and ends a killed publisher; the other stream goes on', async () => {
    const port = media.server.running.ports.rtmp;
    const silent = connect(port, '127.0.0.1');
    silent.on('error', () => {});
    const silentClosed = closed(silent);

    const garbage = connect(port, '127.0.0.1');
    garbage.on('error', () => {});
    const garbageClosed = closed(garbage);
    garbage.write('GET / HTTP/1.1\r\nHost: airwave\r\n\r\n');
    garbage.write(randomBytes(4096));
    await garbageClosed;
    await assertAdvances(media, 'a garbage client');

    const noisy = connect(port, '127.0.0.1');
    noisy.on('error', () => {});
    const noisyClosed = closed(noisy);
    noisy.write(Buffer.concat([Uint8Array.of(3), randomBytes(1536 + 1536 + 512)]));
    await noisyClosed;

    const victim = await media.addStream('killed mid-stream');
    const doomed = publishPattern(victim.rtmpUrl, { fps: 30 });
    await waitFor('the second stream live', async () => (await streamState(media, victim.streamId)).metrics.isLive);
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    await waitFor(
      'the killed publisher ends',
      async () => (await streamState(media, victim.streamId)).metrics.status === 'OFFLINE',
      20_000,
      200,
    );
    await assertAdvances(media, 'a publisher killed mid-stream');

    await silentClosed;
    assert.equal(silent.bytesRead, 0, 'the silent connection got nothing and was closed');
    await assertAdvances(media, 'an idle connection timed out');
    assert.equal((await streamState(media)).metrics.status, 'LIVE');
  });

  it('a two-minute publish at full speed keeps the HLS, LL-HLS and DASH windows bounded', async () => {
    const fast = await media.addStream('fast');
    const ffmpeg = publishPattern(fast.rtmpUrl, {
      seconds: 120,
      width: 320,
      height: 180,
      fps: 30,
      realtime: false,
    });
    let samples = 0;
    let running = true;
    void ffmpeg.exited.then(() => {
      running = false;
    });
    try {
      while (running) {
        const hls = await fetch(fast.playUrl('/hls/stream.m3u8'));
        if (hls.status === 200) {
          const playlist = await hls.text();
          assert.ok((playlist.match(/#EXTINF/g) ?? []).length <= HLS_WINDOW, playlist);
          const cmaf = await fetchText(fast.playUrl('/cmaf/video.m3u8'));
          assert.ok((cmaf.match(/#EXTINF/g) ?? []).length <= CMAF_WINDOW, cmaf);
          samples++;
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      assert.equal(await ffmpeg.exited, 0, ffmpeg.stderr());
    } finally {
      await ffmpeg.stop();
    }
    assert.ok(samples > 0, 'the playlists were read while ffmpeg published');

    const hls = await fetchText(fast.playUrl('/hls/stream.m3u8'));
    assert.equal((hls.match(/#EXTINF/g) ?? []).length, HLS_WINDOW, hls);
    const firstListed = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(hls)?.[1]);
    assert.ok(firstListed >= 50, `two minutes in 2 s segments slid the window: first listed ${firstListed}`);
    const evicted = await fetch(fast.playUrl('/hls/seg-0.ts'));
    assert.equal(evicted.status, 404, 'the first TS segment was evicted');
    await evicted.arrayBuffer();

    const cmaf = await fetchText(fast.playUrl('/cmaf/video.m3u8'));
    assert.ok((cmaf.match(/#EXTINF/g) ?? []).length <= CMAF_WINDOW + 1, cmaf);
    const oldCmaf = await fetch(fast.playUrl('/cmaf/video-0.m4s'));
    assert.equal(oldCmaf.status, 404, 'the first CMAF segment was evicted');
    await oldCmaf.arrayBuffer();
    const mpd = await fetchText(fast.playUrl('/cmaf/index.mpd'));
    for (const timeline of mpd.match(/<SegmentTimeline>[\s\S]*?<\/SegmentTimeline>/g) ?? []) {
      const listed = [...timeline.matchAll(/<S [^>]*\/>/g)].reduce(
        (sum, match) => sum + 1 + Number(/ r="(\d+)"/.exec(match[0])?.[1] ?? 0),
        0,
      );
      assert.ok(listed <= CMAF_WINDOW + 1, `the MPD lists ${listed} segments:\n${timeline}`);
    }
    await assertAdvances(media, 'a fast publish on the same node');
  });
});
