/**
 * Push targets against real receivers: a live ffmpeg publish to Airwave is pushed to nginx-rtmp
 * (and plays from nginx's HLS with ffprobe: codec, resolution, every frame), to two targets at
 * once, over RTMPS through a TLS front made by the test, and over SRT to srt-live-transmit with
 * and without a passphrase. Disabling and deleting a target stops its push. The URI reads back
 * masked, never holding the key.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@airwave/server/testing/test-server';
import { createStream, registerAccount } from './support/accounts.js';
import { byType, ffmpegMissing, probeStreams, publishPattern } from './support/ffmpeg.js';
import { waitFor } from './support/processes.js';
import {
  type NginxRtmpReceiver,
  nginxRtmpMissing,
  srtReceiverMissing,
  startNginxRtmp,
  startSrtReceiver,
  startTlsFront,
  type TlsFront,
} from './support/push-receivers.js';
import { createPushTarget, deletePushTarget, updatePushTarget, waitTargets } from './support/push-targets.js';

const missing = ffmpegMissing || nginxRtmpMissing;
const FPS = 30;
const SECONDS = 6;

describe('push targets to real receivers', { skip: missing }, () => {
  let nginx: NginxRtmpReceiver;
  let front: TlsFront;
  let server: TestServer;
  let token: string;

  before(async () => {
    nginx = await startNginxRtmp();
    front = await startTlsFront(nginx.port);
    server = await startTestServer(undefined, {
      AIRWAVE_ALLOW_PRIVATE_PUSH_TARGETS: 'true',
      AIRWAVE_PUSH_CA_FILE: front.certFile,
      AIRWAVE_RECONNECT_WINDOW_SECONDS: '2',
    });
    token = (await registerAccount(server, 'pusher')).token;
  });
  after(async () => {
    await server?.close();
    await front?.stop();
    await nginx?.stop();
  });

  it('pushes one publish to two nginx-rtmp targets and over RTMPS; nginx HLS has H.264 640x360 with every frame and AAC', async () => {
    const stream = await createStream(server, token, 'restream');
    const keys = ['first_key_4711', 'second_key_0815', 'tls_key_2342'];
    const uris = [
      nginx.url(keys[0] ?? ''),
      nginx.url(keys[1] ?? ''),
      `rtmps://127.0.0.1:${front.port}/live/${keys[2]}`,
    ];
    for (const [index, targetUri] of uris.entries()) {
      const created = await createPushTarget(server, token, stream.id, { name: `target ${index}`, targetUri });
      assert.equal(created.__typename, 'PushTarget', JSON.stringify(created));
      assert.ok(!created.targetUri?.includes(keys[index] ?? ''), created.targetUri);
    }
    const publisher = publishPattern(`rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${stream.streamKey}`, {
      seconds: SECONDS,
      fps: FPS,
      gop: FPS * SECONDS,
    });
    const pushing = await waitTargets(server, token, stream.id, 'all pushing', (targets) =>
      targets.every((target) => target.status === 'pushing'),
    );
    assert.equal(pushing.length, 3);
    assert.equal(await publisher.exited, 0, publisher.stderr());
    const ended = await waitTargets(server, token, stream.id, 'all idle after the stream ended', (targets) =>
      targets.every((target) => target.status === 'idle'),
    );
    for (const target of ended) {
      assert.ok(target.bytesSent > 100_000, `${target.name} sent ${target.bytesSent} bytes`);
      assert.equal(target.lastError, null);
      assert.ok(target.lastPushedAt);
      assert.ok(!JSON.stringify(target).includes('_key_'), JSON.stringify(target));
    }
    assert.ok(front.accepted >= 1);
    for (const key of keys) {
      const playlist = nginx.playlist(key);
      await waitFor(`nginx HLS of ${key}`, () => existsSync(playlist) && statSync(playlist).size > 0);
      const streams = await probeStreams(nginx.fragments(key));
      const video = byType(streams, 'video');
      assert.deepEqual(
        { codec: video.codec_name, width: video.width, height: video.height, frames: Number(video.nb_read_frames) },
        { codec: 'h264', width: 640, height: 360, frames: FPS * SECONDS },
        key,
      );
      assert.equal(byType(streams, 'audio').codec_name, 'aac');
    }
  });

  it('stops a push when its target is disabled or deleted, and the other goes on', async () => {
    const stream = await createStream(server, token, 'switching');
    const a = await createPushTarget(server, token, stream.id, { name: 'a', targetUri: nginx.url('switch_a') });
    const b = await createPushTarget(server, token, stream.id, { name: 'b', targetUri: nginx.url('switch_b') });
    const publisher = publishPattern(`rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${stream.streamKey}`, {
      fps: FPS,
    });
    try {
      await waitTargets(server, token, stream.id, 'both pushing', (targets) =>
        targets.every((target) => target.status === 'pushing'),
      );
      const disabled = await updatePushTarget(server, token, a.id ?? '', { isEnabled: false });
      assert.equal(disabled.isEnabled, false);
      await waitTargets(
        server,
        token,
        stream.id,
        'a idle, b pushing',
        (targets) =>
          targets.some((target) => target.id === a.id && target.status === 'idle') &&
          targets.some((target) => target.id === b.id && target.status === 'pushing'),
      );
      assert.equal(server.running.pushes.size, 1);
      assert.equal((await deletePushTarget(server, token, b.id ?? '')).__typename, 'DeleteSuccess');
      await waitFor('no push running', () => server.running.pushes.size === 0);
      const enabled = await updatePushTarget(server, token, a.id ?? '', { isEnabled: true });
      assert.equal(enabled.isEnabled, true);
      await waitTargets(server, token, stream.id, 'a pushing again', (targets) =>
        targets.some((target) => target.id === a.id && target.status === 'pushing'),
      );
    } finally {
      await publisher.stop();
    }
  });

  it('pushes over SRT to srt-live-transmit, with and without a passphrase', { skip: srtReceiverMissing }, async () => {
    const plain = await startSrtReceiver();
    const secret = 'test-passphrase-0042';
    const encrypted = await startSrtReceiver(secret);
    try {
      const stream = await createStream(server, token, 'srt out');
      await createPushTarget(server, token, stream.id, {
        name: 'plain',
        targetUri: `srt://127.0.0.1:${plain.port}?streamid=plain_stream_id`,
      });
      const withPass = await createPushTarget(server, token, stream.id, {
        name: 'encrypted',
        targetUri: `srt://127.0.0.1:${encrypted.port}?streamid=enc&passphrase=${encodeURIComponent(secret)}`,
      });
      assert.equal(withPass.targetUri, `srt://127.0.0.1:${encrypted.port}`);
      const publisher = publishPattern(`rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${stream.streamKey}`, {
        seconds: SECONDS,
        fps: FPS,
        gop: FPS,
      });
      await waitTargets(server, token, stream.id, 'both SRT targets pushing', (targets) =>
        targets.every((target) => target.status === 'pushing'),
      );
      const showing = readdirSync('/proc').filter((pid) => {
        try {
          return (
            Number(pid) !== encrypted.process.child.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(secret)
          );
        } catch {
          return false;
        }
      });
      assert.deepEqual(showing, [], 'only the receiver has the passphrase on its command line (no ffmpeg child)');
      assert.equal(await publisher.exited, 0, publisher.stderr());
      await waitTargets(server, token, stream.id, 'idle after the end', (targets) =>
        targets.every((target) => target.status === 'idle'),
      );
      for (const receiver of [plain, encrypted]) {
        const video = byType(await probeStreams(receiver.file), 'video');
        assert.equal(video.codec_name, 'h264');
        assert.equal(video.width, 640);
        assert.ok(Number(video.nb_read_frames) >= FPS, `only ${video.nb_read_frames} frames over SRT`);
      }
    } finally {
      await plain.stop();
      await encrypted.stop();
    }
  });

  it('an SRT target with the wrong passphrase retries with a lastError that holds no passphrase', {
    skip: srtReceiverMissing,
  }, async () => {
    const receiver = await startSrtReceiver('right-passphrase-7788');
    const wrong = 'wrong-passphrase-1234';
    try {
      const stream = await createStream(server, token, 'srt wrong passphrase');
      await createPushTarget(server, token, stream.id, {
        name: 'mismatch',
        targetUri: `srt://127.0.0.1:${receiver.port}?streamid=mismatch&passphrase=${wrong}`,
      });
      const publisher = publishPattern(`rtmp://127.0.0.1:${server.running.ports.rtmp}/live/${stream.streamKey}`, {
        fps: FPS,
        gop: FPS,
      });
      try {
        const [target] = await waitTargets(server, token, stream.id, 'the target failing', (targets) =>
          targets.every((t) => (t.status === 'retrying' || t.status === 'failed') && t.lastError !== null),
        );
        assert.ok(!target?.lastError?.includes(wrong), target?.lastError ?? '');
        assert.ok(!JSON.stringify(target).includes(wrong));
        assert.equal(statSync(receiver.file).size, 0, 'the receiver got media despite the wrong passphrase');
      } finally {
        await publisher.stop();
      }
    } finally {
      await receiver.stop();
    }
  });
});
