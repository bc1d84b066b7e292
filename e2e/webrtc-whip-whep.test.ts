/**
 * WHIP ingest and WHEP playback with real clients: Chromium (fake camera and microphone from files
 * ffmpeg made) publishes over WHIP with trickle ICE by PATCH; ffprobe decodes the stream's LL-HLS
 * and progressive MP4; a second Chromium page plays it over WHEP and its getStats() shows frames
 * decoded and audio received; refusals (wrong key, second publisher) create nothing; DELETE ends
 * the stream. One Chromium serves every test of the file.
 */
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { prng } from '@airwave/media/testing/fuzz';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissing } from './support/browser.js';
import { byType, ffmpegMissing, probeStreams } from './support/ffmpeg.js';
import { readFor } from './support/http.js';
import { type MediaServer, startMediaServer, streamState, withTempFile } from './support/media-server.js';
import { waitFor } from './support/processes.js';
import {
  launchWebRtcChromium,
  makeFakeCapture,
  playerStats,
  playWhep,
  publishWhip,
  startClientPage,
} from './support/webrtc-clients.js';

describe('WHIP from Chromium, WHEP to Chromium', { skip: chromiumMissing || ffmpegMissing }, () => {
  let media: MediaServer;
  let browser: Browser;
  let client: { url: string; close(): Promise<void> };
  let dir: string;
  let publisher: Page | undefined;
  let location: string | undefined;
  let answer: string | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'airwave-webrtc-'));
    const capture = await makeFakeCapture(dir);
    media = await startMediaServer({ AIRWAVE_PACKAGING: 'always' });
    browser = await launchWebRtcChromium(capture);
    client = await startClientPage();
  });

  after(async () => {
    await browser?.close();
    await client?.close();
    await media?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a wrong key (403) and a missing bearer (401), and nothing goes live', async () => {
    const wrong = await publishWhip(browser, client.url, `${media.server.baseUrl}/webrtc/sk_wrong`);
    assert.equal(wrong.result.status, 403, wrong.result.body);
    assert.match(wrong.result.body ?? '', /stream_key_refused/);
    await wrong.page.close();
    const anonymous = await publishWhip(browser, client.url, `${media.server.baseUrl}/whip`);
    assert.equal(anonymous.result.status, 401);
    await anonymous.page.close();
    assert.equal(media.server.running.hub.streams().length, 0);
    assert.equal((await streamState(media)).metrics.status, 'OFFLINE');
  });

  it('publishes over WHIP with trickle ICE (PATCH) and goes live', async () => {
    const { page, result } = await publishWhip(browser, client.url, `${media.server.baseUrl}/whip`, {
      bearer: media.streamKey,
      trickle: true,
    });
    publisher = page;
    assert.equal(result.status, 201, result.body);
    assert.equal(result.patchStatus, 204);
    assert.equal(result.connected, true);
    assert.match(result.location ?? '', /\/whip\/sessions\/[A-Za-z0-9_-]{20,}$/);
    location = result.location;
    answer = result.answer;
    await waitFor(
      'LIVE with H.264 and Opus tracks',
      async () => {
        const state = await streamState(media);
        return state.metrics.status === 'LIVE' &&
          state.tracks.some((t) => /h264/i.test(t.codec)) &&
          state.tracks.some((t) => /opus/i.test(t.codec))
          ? state
          : undefined;
      },
      30_000,
    );
  });

  it('garbage STUN, DTLS and RTP/RTCP datagrams at the session port leave the publish running', async () => {
    const ports = [...(answer ?? '').matchAll(/a=candidate:\S+ 1 udp \d+ 127\.0\.0\.1 (\d+) typ host/g)].map((m) =>
      Number(m[1]),
    );
    assert.ok(ports.length > 0, `no loopback candidate in the answer:\n${answer}`);
    const socket = createSocket('udp4');
    const random = prng(15);
    for (let i = 0; i < 3000; i++) {
      const packet = Buffer.alloc(1 + Math.floor(random() * 1200));
      for (let j = 0; j < packet.length; j++) {
        packet[j] = Math.floor(random() * 256);
      }
      packet[0] = [0x00, 0x01, 0x16, 0x17, 0x80, 0x81, 0x90, 0xbf][i % 8] as number;
      await new Promise<void>((resolve) => socket.send(packet, ports[0], '127.0.0.1', () => resolve()));
    }
    socket.close();
    const before = media.server.running.hub.getByPlaybackId(media.playbackId)?.stats.units ?? 0;
    await waitFor(
      'media still flowing',
      async () => (media.server.running.hub.getByPlaybackId(media.playbackId)?.stats.units ?? 0) > before + 30,
      15_000,
    );
    assert.equal(media.server.running.webrtc?.publishSessions.length, 1);
    assert.equal((await streamState(media)).metrics.status, 'LIVE');
  });

  it('lists the WHEP URL in /play/<id> and the WHIP URL in resolveIngestEndpoint', async () => {
    const info = (await (await fetch(media.playUrl())).json()) as { urls: { webrtc?: string } };
    assert.equal(info.urls.webrtc, media.playUrl('/webrtc'));
    const resolved = await media.server.graphql<{ resolveIngestEndpoint: { primary: { whipUrl: string | null } } }>(
      'query ($key: String!) { resolveIngestEndpoint(streamKey: $key) { primary { whipUrl } } }',
      { key: media.streamKey },
    );
    assert.equal(
      resolved.data?.resolveIngestEndpoint.primary.whipUrl,
      `${media.server.baseUrl}/webrtc/${media.streamKey}`,
    );
  });

  it('refuses a second publisher with 409', async () => {
    const second = await publishWhip(browser, client.url, `${media.server.baseUrl}/webrtc/${media.streamKey}`);
    assert.equal(second.result.status, 409, second.result.body);
    await second.page.close();
  });

  it('ffprobe decodes the LL-HLS, classic HLS and progressive MP4 outputs', async () => {
    await waitFor(
      'two LL-HLS segments',
      async () => {
        const playlist = await (await fetch(media.playUrl('/cmaf/video.m3u8'))).text();
        return (playlist.match(/#EXTINF/g) ?? []).length >= 2;
      },
      30_000,
      250,
    );
    const llhls = await probeStreams(media.playUrl('/cmaf/index.m3u8'), ['-read_intervals', '%+#30']);
    assert.equal(byType(llhls, 'video').codec_name, 'h264');
    assert.equal(byType(llhls, 'video').width, 640);
    assert.equal(byType(llhls, 'audio').codec_name, 'opus');
    assert.ok(Number(byType(llhls, 'video').nb_read_frames) > 0);
    const hls = await probeStreams(media.playUrl('/hls/index.m3u8'), ['-read_intervals', '%+#30']);
    assert.equal(byType(hls, 'video').codec_name, 'h264');
    assert.equal(byType(hls, 'audio').codec_name, 'aac', 'classic HLS carries the AAC transcoded from the Opus');
    assert.equal(hls.filter((s) => s.codec_type === 'audio').length, 1, 'and only that audio');
    const mp4 = await readFor(media.playUrl('.mp4'), 3000);
    await withTempFile('whip.mp4', [mp4], async (path) => {
      const streams = await probeStreams(path);
      assert.ok(Number(byType(streams, 'video').nb_read_frames) >= 5, JSON.stringify(streams));
      assert.ok(Number(byType(streams, 'audio').nb_read_frames) > 0);
    });
  });

  it('plays over WHEP in another page: frames decoded, audio received, AES-CM SRTP, one more viewer counted', async () => {
    const viewersBefore = (await streamState(media)).metrics.currentViewers;
    const protocols: string[] = [];
    const untap = media.server.running.events.tap(['viewer.connected'], (event) => {
      if (event.name === 'viewer.connected') {
        protocols.push(event.data.protocol);
      }
    });
    const { page, result } = await playWhep(browser, client.url, media.playUrl('/webrtc'));
    try {
      assert.equal(result.status, 201, result.body);
      assert.equal(result.connected, true);
      const stats = await waitFor(
        '60 frames decoded and audio packets',
        async () => {
          const s = await playerStats(page);
          return (s.video.framesDecoded ?? 0) >= 60 && (s.audio.packetsReceived ?? 0) > 50 ? s : undefined;
        },
        30_000,
        250,
      );
      assert.equal(stats.video.frameWidth, 640);
      assert.ok((stats.audio.totalSamplesReceived ?? 0) > 0);
      // WHEP offers AES-CM first: its keystream is made a frame at a time (ADR 0032).
      assert.equal(stats.srtpCipher, 'SRTP_AES128_CM_HMAC_SHA1_80');
      await waitFor(
        'one more viewer',
        async () => (await streamState(media)).metrics.currentViewers === viewersBefore + 1,
        15_000,
      );
      assert.ok(protocols.includes('webrtc'), `connection events: ${protocols.join(', ')}`);
    } finally {
      untap();
      await page.close();
    }
  });

  it('DELETE of the WHIP session ends the stream', async () => {
    assert.ok(location);
    const response = await fetch(location, { method: 'DELETE' });
    assert.equal(response.status, 200);
    await waitFor('status leaves LIVE', async () => (await streamState(media)).metrics.status !== 'LIVE', 15_000);
    assert.equal((await fetch(location, { method: 'DELETE' })).status, 404);
    await publisher?.close();
  });

  it('refuses a VP8-only WHIP offer with 406 and creates nothing', async () => {
    const vp8 = await publishWhip(browser, client.url, `${media.server.baseUrl}/webrtc/${media.streamKey}`, {
      videoCodec: 'VP8',
    });
    assert.equal(vp8.result.status, 406, vp8.result.body);
    assert.match(vp8.result.body ?? '', /unsupported_codec/);
    await vp8.page.close();
    assert.equal(media.server.running.hub.getByPlaybackId(media.playbackId), undefined);
  });

  for (const [offered, probed] of [
    ['AV1', 'av1'],
    ['VP9', 'vp9'],
  ] as const) {
    it(`publishes ${offered} over WHIP when the browser offers only ${offered}; LL-HLS carries it, WHEP says 415`, async () => {
      const stream = await media.addStream(offered);
      const { page, result } = await publishWhip(
        browser,
        client.url,
        `${media.server.baseUrl}/webrtc/${stream.streamKey}`,
        {
          videoCodec: offered,
        },
      );
      try {
        assert.equal(result.status, 201, result.body);
        assert.equal(result.connected, true);
        await waitFor(
          `an ${offered} LL-HLS segment`,
          async () => {
            const playlist = await fetch(stream.playUrl('/cmaf/video.m3u8'));
            return playlist.status === 200 && ((await playlist.text()).match(/#EXTINF/g) ?? []).length >= 1;
          },
          45_000,
          250,
        );
        const streams = await probeStreams(stream.playUrl('/cmaf/index.m3u8'), ['-read_intervals', '%+#10']);
        assert.equal(byType(streams, 'video').codec_name, probed);
        assert.ok(Number(byType(streams, 'video').nb_read_frames) > 0);
        const refused = await playWhep(browser, client.url, stream.playUrl('/webrtc'));
        assert.equal(refused.result.status, 415, 'WHEP sends H.264 only');
        await refused.page.close();
      } finally {
        await page.close();
      }
    });
  }
});
