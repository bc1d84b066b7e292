/**
 * Push targets through what happens around them, against real nginx-rtmp receivers: a publisher
 * that reconnects inside the reconnect window keeps the push on its one connection (nginx sees a
 * single publish, and new fragments follow the reconnect), with bytes sent and a bitrate on the
 * target; a receiver that stops reading (SIGSTOP) makes its push drop to the next keyframe and
 * count the drop while the stream's other target goes on without a drop, and the stalled target
 * pushes again once its receiver runs again.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { createStream, registerAccount } from './support/accounts.js';
import { byType, ffmpegMissing, probeStreams, publishPattern } from './support/ffmpeg.js';
import { waitFor } from './support/processes.js';
import { type NginxRtmpReceiver, nginxRtmpMissing, startNginxRtmp } from './support/push-receivers.js';
import { createPushTarget, type PushTargetView, waitTargets } from './support/push-targets.js';

/** Fragments nginx wrote for stream `name` so far. */
function fragmentsOf(nginx: NginxRtmpReceiver, name: string): string[] {
  return readdirSync(join(nginx.dir, 'hls')).filter((file) => file.startsWith(`${name}-`) && file.endsWith('.ts'));
}

describe('push targets across a publisher reconnect and a stalled receiver', {
  skip: ffmpegMissing || nginxRtmpMissing,
}, () => {
  let steady: NginxRtmpReceiver;
  let stalling: NginxRtmpReceiver;
  let server: TestServer;
  let token: string;

  before(async () => {
    steady = await startNginxRtmp();
    stalling = await startNginxRtmp();
    server = await startTestServer(undefined, {
      AIRWAVE_ALLOW_PRIVATE_PUSH_TARGETS: 'true',
      AIRWAVE_RECONNECT_WINDOW_SECONDS: '60',
      AIRWAVE_PUSH_RETRY_MAX_SECONDS: '2',
    });
    token = (await registerAccount(server, 'continuity')).token;
  });
  after(async () => {
    await server?.close();
    await steady?.stop();
    await stalling?.stop();
  });

  it('keeps one push connection across a publisher reconnect inside the window, with bytes and a bitrate', async () => {
    const stream = await createStream(server, token, 'reconnecting source');
    const key = 'reconnect_key_5511';
    await createPushTarget(server, token, stream.id, { name: 'steady', targetUri: steady.url(key) });
    const ingest = `rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${stream.streamKey}`;
    const first = publishPattern(ingest, { fps: 30, gop: 30 });
    let second: ReturnType<typeof publishPattern> | undefined;
    try {
      const [pushing] = await waitTargets(server, token, stream.id, 'pushing with a bitrate', (targets) =>
        targets.every((target) => target.status === 'pushing' && target.bitrateKbps > 0 && target.bytesSent > 0),
      );
      assert.ok(pushing);
      await waitFor('fragments before the reconnect', () => fragmentsOf(steady, key).length >= 2, 60_000);
      await first.stop();
      const before = new Set(fragmentsOf(steady, key));
      const [interrupted] = await waitTargets(server, token, stream.id, 'read after the publisher left', () => true);
      second = publishPattern(ingest, { fps: 30, gop: 30 });
      const fresh = await waitFor(
        'new fragments after the reconnect',
        () => {
          const added = fragmentsOf(steady, key).filter((name) => !before.has(name));
          return added.length >= 3 ? added : undefined;
        },
        60_000,
      );
      const [resumed] = await waitTargets(server, token, stream.id, 'pushing on, more bytes sent', (targets) =>
        targets.every((target) => target.status === 'pushing' && target.bytesSent > (interrupted?.bytesSent ?? 0)),
      );
      assert.equal(resumed?.lastError, null, JSON.stringify(resumed));
      assert.equal(steady.publishes(key), 1, 'the push did not keep its connection: nginx saw a second publish');
      const video = byType(await probeStreams(join(steady.dir, 'hls', fresh.at(-2) ?? '')), 'video');
      assert.equal(video.codec_name, 'h264');
      assert.ok(Number(video.nb_read_frames) > 0);
    } finally {
      await first.stop();
      await second?.stop();
    }
  });

  it('drops to the next keyframe and counts it for a receiver that stops reading; the other target goes on', async () => {
    const stream = await createStream(server, token, 'one stalled receiver');
    const a = await createPushTarget(server, token, stream.id, {
      name: 'stalls',
      targetUri: stalling.url('stall_key'),
    });
    const b = await createPushTarget(server, token, stream.id, { name: 'steady', targetUri: steady.url('flow_key') });
    const byId = (targets: PushTargetView[], id: string | undefined) => targets.find((target) => target.id === id);
    // 8 Mb/s constant bit rate: the stalled connection's buffers and its bounded queue fill in seconds.
    const publisher = publishPattern(`rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${stream.streamKey}`, {
      fps: 30,
      gop: 30,
      outputArgs: ['-b:v', '8M', '-minrate', '8M', '-maxrate', '8M', '-bufsize', '1M', '-x264-params', 'nal-hrd=cbr'],
    });
    try {
      await waitTargets(server, token, stream.id, 'both pushing', (targets) =>
        targets.every((target) => target.status === 'pushing'),
      );
      stalling.pause();
      const dropping = await waitTargets(
        server,
        token,
        stream.id,
        'the stalled target counting drops',
        (targets) => (byId(targets, a.id)?.droppedUnits ?? 0) > 0,
        120_000,
      );
      const flowing = byId(dropping, b.id);
      const later = await waitTargets(
        server,
        token,
        stream.id,
        'the steady target sending on',
        (targets) => (byId(targets, b.id)?.bytesSent ?? 0) > (flowing?.bytesSent ?? 0) + 1_000_000,
        60_000,
      );
      assert.equal(byId(later, b.id)?.status, 'pushing');
      assert.equal(byId(later, b.id)?.droppedUnits, 0, 'the steady target dropped units');
      const stalledAt = byId(later, a.id);
      stalling.resume();
      await waitTargets(
        server,
        token,
        stream.id,
        'the stalled target pushing again and sending more',
        (targets) => {
          const target = byId(targets, a.id);
          return target?.status === 'pushing' && target.bytesSent > (stalledAt?.bytesSent ?? 0) + 1_000_000;
        },
        120_000,
      );
      const before = new Set(fragmentsOf(stalling, 'stall_key'));
      await waitFor(
        'new fragments at the receiver that stalled',
        () => fragmentsOf(stalling, 'stall_key').filter((name) => !before.has(name)).length >= 2,
        60_000,
      );
    } finally {
      stalling.resume();
      await publisher.stop();
    }
  });
});
