/**
 * WHEP on an edge: two Airwave processes (`airwave start`, real child processes) on 127.0.0.2 and
 * 127.0.0.3 sharing one PostgreSQL database, A all-in-one, B media-only (`--role media`). ffmpeg
 * publishes H.264/AAC over RTMP to A; Chromium plays the stream over WHEP from B, which brings it
 * over by relaying from A (packages/server/src/http/play/bring-here.ts): frames decode and Opus
 * audio arrives, and B's /metrics counts one relayed stream and one WebRTC viewer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createScratchDatabase, postgresMissing, type ScratchDatabase } from '@airwave/server/testing/databases';
import { parseMetrics, sampleValue } from '@airwave/server/testing/prometheus';
import type { TestServer } from '@airwave/server/testing/test-server';
import type { Browser } from 'playwright-core';
import { createStream, registerAccount } from './support/accounts.js';
import { chromiumMissing } from './support/browser.js';
import { ffmpegMissing, publishPattern } from './support/ffmpeg.js';
import { graphqlOf, startNode, type TestNode } from './support/nodes.js';
import { type Tracked, waitFor } from './support/processes.js';
import { decodesVideoAndAudio, launchWebRtcChromium, playWhep, startClientPage } from './support/webrtc-clients.js';

const METRICS_TOKEN = 'webrtc-edge-metrics-token';
const skip = postgresMissing || ffmpegMissing || chromiumMissing;

describe('WHEP from a media-only edge relaying the origin', { skip }, () => {
  let scratch: ScratchDatabase;
  const nodes: TestNode[] = [];
  let browser: Browser | undefined;
  let client: { url: string; close(): Promise<void> } | undefined;
  let publisher: Tracked | undefined;

  const start = async (name: string, host: string, args: readonly string[]): Promise<TestNode> => {
    const node = await startNode(name, host, scratch.url, args, { AIRWAVE_METRICS_TOKEN: METRICS_TOKEN });
    nodes.push(node);
    return node;
  };

  before(async () => {
    scratch = await createScratchDatabase();
  });

  after(async () => {
    await browser?.close();
    await client?.close();
    await publisher?.stop();
    await Promise.all(nodes.map((node) => node.stop()));
    await scratch?.drop();
  });

  it('plays H.264 and Opus from B while A ingests', async () => {
    const [origin, edge] = await Promise.all([
      start('a', '127.0.0.2', []),
      start('b', '127.0.0.3', ['--role', 'media']),
    ]);
    assert.ok(origin && edge);
    const api = graphqlOf(origin.baseUrl) as TestServer;
    const owner = (await registerAccount(api, 'webrtc-edge')).token;
    const stream = await createStream(api, owner, 'Edge show');
    publisher = publishPattern(`rtmp://127.0.0.2:${origin.rtmpPort}/live/${stream.streamKey}`, {
      seconds: 120,
      bframes: false,
      gop: 30,
      width: 640,
      height: 360,
    });
    await waitFor(
      'the stream live on A',
      async () => (await fetch(`${origin.baseUrl}/play/${stream.playbackId}`)).status === 200,
      30_000,
      250,
    );
    browser = await launchWebRtcChromium();
    client = await startClientPage();
    const { page, result } = await playWhep(browser, client.url, `${edge.baseUrl}/play/${stream.playbackId}/webrtc`);
    try {
      assert.equal(result.status, 201, result.body);
      assert.equal(result.connected, true);
      // Two servers, a relay and an AAC→Opus ffmpeg on a shared machine: a minute to start.
      const stats = await decodesVideoAndAudio(page, 30, 60_000);
      assert.equal(stats.video.frameWidth, 640);
      const metrics = parseMetrics(
        await (
          await fetch(`${edge.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
        ).text(),
      );
      assert.equal(sampleValue(metrics, 'airwave_streams_live', { source: 'relay' }), 1, 'B relays the stream');
      assert.equal(sampleValue(metrics, 'airwave_viewers', { protocol: 'webrtc' }), 1, 'one WebRTC viewer on B');
    } finally {
      await page.close();
    }
  });
});
