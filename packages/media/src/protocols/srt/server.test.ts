import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Hub } from '../../hub/hub.js';
import { type PublishGrant, silentLogger } from '../../ports.js';
import { testSourceArgs } from '../../testing/test-source.js';
import { until } from '../../testing/until.js';
import { SrtServer } from './server.js';

const ffmpegMissing = spawnSync('ffmpeg', ['-hide_banner', '-protocols'], { encoding: 'utf8' }).stdout?.includes('srt')
  ? false
  : 'ffmpeg with libsrt is not installed';

const GRANTS: Record<string, PublishGrant> = {
  'key-plain': { streamId: 'stream-plain', playbackId: 'play-plain' },
  'key-acl': { streamId: 'stream-acl', playbackId: 'play-acl' },
  'key-secret': { streamId: 'stream-secret', playbackId: 'play-secret', srtPassphrase: 'correct-horse-battery' },
};

/** Runs ffmpeg publishing `seconds` of test media to `url`; resolves with its exit code and stderr. */
function publish(
  url: string,
  seconds: number,
  extra: readonly string[] = [],
): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-re',
        ...testSourceArgs({ seconds }),
        ...extra,
        '-f',
        'mpegts',
        `${url}&linger=5`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
  });
}

describe('SrtServer with ffmpeg (libsrt) publishing', { skip: ffmpegMissing }, () => {
  const hub = new Hub({ log: silentLogger, reconnectWindowMs: 0 });
  const server = new SrtServer({
    hub,
    authorizer: { authorize: async (key) => GRANTS[key] ?? null },
    log: silentLogger,
    // Every frame is counted: a latency a busy test machine cannot miss (the loss tests cover TSBPD).
    latencyMs: 1000,
  });
  let port = 0;
  before(async () => {
    port = await server.listen(0, '127.0.0.1');
  });
  after(async () => {
    await server.close();
    hub.close();
  });

  for (const [name, query, streamId] of [
    ['a bare stream key', 'streamid=key-plain', 'stream-plain'],
    ['the access-control syntax', 'streamid=#!::r=key-acl,m=publish', 'stream-acl'],
  ] as const) {
    it(`takes H.264 + AAC in MPEG-TS with ${name} into the hub`, async () => {
      const units = { video: 0, audio: 0 };
      let kinds: string[] = [];
      // Attached as an output, so it sees the stream from its first unit (no attach-after-start race).
      hub.addOutput((stream) => {
        if (stream.streamId !== streamId) {
          return { close: () => {} };
        }
        const detach = stream.attach({
          onDescription: (description) => {
            kinds = description.tracks.map((track) => `${track.kind}:${track.codec}`);
          },
          onUnit: (unit) => {
            const track = stream.description?.tracks.find((t) => t.id === unit.trackId);
            units[track?.kind ?? 'video']++;
          },
        });
        return { close: detach };
      });
      const result = await publish(`srt://127.0.0.1:${port}?${query}`, 3);
      assert.equal(result.code, 0, result.stderr);
      await until(() => hub.getByStreamId(streamId) === undefined, 'the stream to end');
      assert.deepEqual(kinds, ['video:h264', 'audio:aac']);
      assert.equal(units.video, 90);
      assert.ok(units.audio >= 120, `audio units ${units.audio}`);
    });
  }

  it('refuses an unknown stream key', async () => {
    const before = server.stats.rejected;
    const result = await publish(`srt://127.0.0.1:${port}?streamid=nope`, 1);
    assert.notEqual(result.code, 0);
    assert.equal(server.stats.rejected, before + 1);
    assert.equal(hub.streams().length, 0);
  });

  for (const keyLength of [16, 32]) {
    it(`decrypts AES-${keyLength * 8} with the stream's passphrase`, async () => {
      let videoUnits = 0;
      const done = publish(
        `srt://127.0.0.1:${port}?streamid=key-secret&passphrase=correct-horse-battery&pbkeylen=${keyLength}`,
        2,
      );
      await until(() => hub.getByStreamId('stream-secret') !== undefined, 'the publish');
      const stream = hub.getByStreamId('stream-secret');
      stream?.attach({ onDescription: () => {}, onUnit: (unit) => void (unit.trackId === 1 && videoUnits++) });
      const result = await done;
      assert.equal(result.code, 0, result.stderr);
      await until(() => hub.getByStreamId('stream-secret') === undefined, 'the stream to end');
      assert.ok(videoUnits >= 50, `video units ${videoUnits}`);
    });
  }

  it('refuses a wrong passphrase and a missing one, creating nothing', async () => {
    const wrong = await publish(`srt://127.0.0.1:${port}?streamid=key-secret&passphrase=not-the-passphrase`, 1);
    assert.notEqual(wrong.code, 0);
    const missing = await publish(`srt://127.0.0.1:${port}?streamid=key-secret`, 1);
    assert.notEqual(missing.code, 0);
    assert.equal(hub.streams().length, 0);
  });
});
