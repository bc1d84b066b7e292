/**
 * WHEP playback of RTMP sources in Chromium: an ffmpeg H.264/AAC publish (no B-frames) plays with
 * its AAC transcoded to Opus by one shared ffmpeg; with a JWT playback policy WHEP plays only
 * with a valid token (`?jwt=` or Authorization: Bearer); a publish with B-frames is refused with
 * 409 and a JSON reason; WHEP viewers are viewer sessions in analytics as HLS viewers are (views,
 * unique viewers, egress equal to the node's egress counter). One Chromium serves every test of
 * the file.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signPlaybackToken } from '@airwave/server/domain/playback-access/sign-playback-token';
import { parseMetrics, sampleValue } from '@airwave/server/testing/prometheus';
import type { Browser } from 'playwright-core';
import { todaysAnalytics } from './support/analytics.js';
import { chromiumMissing } from './support/browser.js';
import { ffmpegMissing, publishPattern } from './support/ffmpeg.js';
import { type MediaServer, startMediaServer } from './support/media-server.js';
import { createSigningKey, setPlaybackPolicy } from './support/playback-access.js';
import { type Tracked, waitFor } from './support/processes.js';
import {
  decodesVideoAndAudio,
  launchWebRtcChromium,
  playerStats,
  playWhep,
  startClientPage,
} from './support/webrtc-clients.js';

const METRICS_TOKEN = 'webrtc-e2e-metrics-token';

describe('WHEP plays RTMP publishes in Chromium', { skip: chromiumMissing || ffmpegMissing }, () => {
  let media: MediaServer;
  let browser: Browser;
  let client: { url: string; close(): Promise<void> };
  const encoders: Tracked[] = [];

  before(async () => {
    media = await startMediaServer({ AIRWAVE_METRICS_TOKEN: METRICS_TOKEN });
    browser = await launchWebRtcChromium();
    client = await startClientPage();
  });

  after(async () => {
    await browser?.close();
    await client?.close();
    await Promise.all(encoders.map((encoder) => encoder.stop()));
    await media?.close();
  });

  const live = async (playbackId: string) =>
    waitFor(
      `stream ${playbackId} live with a keyframe`,
      async () => {
        const stream = media.server.running.hub.getByPlaybackId(playbackId);
        return stream?.description && stream.gopCache.length > 0 ? stream : undefined;
      },
      30_000,
      100,
    );

  it('plays H.264 and AAC→Opus audio; the transcoder is shared and stops with the last viewer', async () => {
    encoders.push(publishPattern(media.rtmpUrl, { bframes: false, gop: 30 }));
    await live(media.playbackId);
    const first = await playWhep(browser, client.url, `${media.server.baseUrl}/whep/${media.playbackId}`);
    const second = await playWhep(browser, client.url, `${media.playUrl('/webrtc')}?session=tab-2`);
    try {
      for (const { page, result } of [first, second]) {
        assert.equal(result.status, 201, result.body);
        assert.equal(result.connected, true);
        const stats = await decodesVideoAndAudio(page);
        assert.equal(stats.video.frameWidth, 640);
      }
      assert.equal(media.server.running.webrtc?.opusTranscoders, 1);
    } finally {
      await first.page.close();
      await second.page.close();
    }
    await waitFor(
      'the transcoder stops with the last viewer',
      async () => media.server.running.webrtc?.opusTranscoders === 0,
      20_000,
    );
    await viewersCounted();
  });

  /** The two WHEP viewers of the first test, as analytics recorded them. */
  async function viewersCounted(): Promise<void> {
    const metrics = async () => {
      const response = await fetch(`${media.server.baseUrl}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      return parseMetrics(await response.text());
    };
    await waitFor(
      'the WHEP viewer sessions to end',
      async () => sampleValue(await metrics(), 'airwave_viewer_sessions_open') === 0,
      20_000,
      250,
    );
    // Only WHEP has played so far: the node's egress counter is the WHEP viewers' bytes.
    const egress = sampleValue(await metrics(), 'airwave_egress_bytes_total');
    const day = await waitFor(
      'the sessions flushed into the day',
      async () => {
        const row = await todaysAnalytics(media.server, media.token, media.streamId);
        return row && row.egressBytes === egress ? row : undefined;
      },
      15_000,
      250,
    );
    // One browser, the second page with ?session=: two views (sessions), one viewer (IP and user
    // agent), as two HLS players would count.
    assert.equal(day.totalViews, 2);
    assert.equal(day.uniqueViewers, 1);
    assert.ok(egress !== undefined && egress > 100_000, `WHEP egress ${egress}`);
  }

  it('with a JWT policy, WHEP plays only with a valid token', async () => {
    const protectedStream = await media.addStream('jwt');
    const key = await createSigningKey(media.server, media.token);
    const policy = await setPlaybackPolicy(media.server, media.token, protectedStream.streamId, {
      type: 'JWT',
      jwt: { allowedKids: [key.kid] },
    });
    assert.equal(policy.__typename, 'Stream', JSON.stringify(policy));
    encoders.push(publishPattern(protectedStream.rtmpUrl, { bframes: false, gop: 30, audio: false }));
    await live(protectedStream.playbackId);
    const url = protectedStream.playUrl('/webrtc');
    const none = await playWhep(browser, client.url, url);
    assert.equal(none.result.status, 401, none.result.body);
    await none.page.close();
    const wrong = signPlaybackToken(
      key.privateKeyPem,
      { sub: 'someone-else', exp: Math.floor(Date.now() / 1000) + 600 },
      { kid: key.kid },
    );
    const refused = await playWhep(browser, client.url, `${url}?jwt=${wrong}`);
    assert.equal(refused.result.status, 403, refused.result.body);
    await refused.page.close();
    const token = signPlaybackToken(
      key.privateKeyPem,
      { sub: protectedStream.playbackId, exp: Math.floor(Date.now() / 1000) + 600 },
      { kid: key.kid },
    );
    const query = await playWhep(browser, client.url, `${url}?jwt=${token}`);
    const bearer = await playWhep(browser, client.url, url, { bearer: token });
    try {
      for (const { page, result } of [query, bearer]) {
        assert.equal(result.status, 201, result.body);
        await waitFor(
          'frames decoded',
          async () => ((await playerStats(page)).video.framesDecoded ?? 0) >= 30,
          30_000,
          250,
        );
      }
    } finally {
      await query.page.close();
      await bearer.page.close();
    }
  });

  it('refuses a stream with B-frames with 409 and a JSON reason', async () => {
    const bframes = await media.addStream('bframes');
    encoders.push(publishPattern(bframes.rtmpUrl, { bframes: true, gop: 30, audio: false }));
    await live(bframes.playbackId);
    const response = await fetch(bframes.playUrl('/webrtc'), {
      method: 'POST',
      headers: { 'content-type': 'application/sdp' },
      body: 'v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=ice-ufrag:abcd\r\na=ice-pwd:abcdefghijklmnopqrstuvwx\r\na=fingerprint:sha-256 00\r\na=recvonly\r\na=rtpmap:96 H264/90000\r\n',
    });
    assert.equal(response.status, 409);
    const body = (await response.json()) as { error: { reason: string; message: string } };
    assert.equal(body.error.reason, 'b_frames');
    assert.equal(media.server.running.hub.getByPlaybackId(bframes.playbackId)?.viewers.count, 0);
  });
});
