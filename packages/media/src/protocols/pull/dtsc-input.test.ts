/**
 * DTSC pull against a DTSC source built from the format description (no MistServer runs here):
 * ffmpeg-encoded H.264 + AAC served as DTSC, pulled through a PullSession into a Hub; the tracks
 * and units arrive as the source had them, pings are answered, a dropped source is reconnected.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Hub } from '../../hub/hub.js';
import type { LiveStream } from '../../hub/live-stream.js';
import { silentLogger } from '../../ports.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import { type DtscTestServer, startDtscTestServer } from '../../testing/dtsc-server.js';
import { type EncodedMedia, encodeTestMedia, ffmpegSkip } from '../../testing/ffmpeg-media.js';
import { suiteTempDir } from '../../testing/temp-dir.js';
import { testSourceArgs } from '../../testing/test-source.js';
import { until } from '../../testing/until.js';
import { allowEveryAddress, type PullAddressGuard, PullRefusedError } from './address-guard.js';
import { openDtscInput } from './dtsc-input.js';
import { type PullEvent, PullSession } from './pull-session.js';

describe('DTSC pull', { skip: ffmpegSkip() }, () => {
  const dir = suiteTempDir('airwave-dtsc-');
  let media: EncodedMedia;
  let source: DtscTestServer;
  let hub: Hub;
  const statuses = new Map<string, string[]>();

  before(async () => {
    media = encodeTestMedia(dir.path, testSourceArgs({ seconds: 2, bFrames: 2 }));
    source = await startDtscTestServer({
      tracks: media.tracks,
      units: media.units,
      streamName: 'live+cam',
      speed: 4,
      dtscIds: [7, 3],
    });
    hub = new Hub({
      log: silentLogger,
      reconnectWindowMs: 5_000,
      lifecycle: {
        onStatus: (streamId, status) => statuses.set(streamId, [...(statuses.get(streamId) ?? []), status]),
      },
    });
  });

  after(async () => {
    hub?.close();
    await source?.close();
  });

  let sessions = 0;
  function session(uri: string, events: PullEvent[], guard: PullAddressGuard = allowEveryAddress): PullSession {
    sessions++;
    const pull = new PullSession({
      hub,
      grant: { streamId: `s-${sessions}`, playbackId: `p-${sessions}` },
      uri,
      open: openDtscInput,
      guard,
      log: silentLogger,
      retry: { baseMs: 50, maxMs: 200 },
      onEvent: (event) => events.push(event),
    });
    pull.start();
    return pull;
  }

  it('pulls the tracks and the units as the source had them, and answers pings', async () => {
    const events: PullEvent[] = [];
    const received: MediaUnit[] = [];
    const pull = session(`dtsc://127.0.0.1:${source.port}/live+cam`, events);
    let stream: LiveStream | undefined;
    await until(() => {
      stream = hub.streams().find((candidate) => candidate.description !== undefined);
      return stream !== undefined;
    }, 'the pulled stream to be described');
    stream?.attach({ onUnit: (unit) => received.push(unit) }, false);
    await until(() => received.filter((unit) => unit.trackId === 1 && unit.key).length >= 2, 'two keyframes');
    await until(() => source.pongs() >= 1, 'a pong', 3_000);
    pull.stop('test over');
    assert.deepEqual(source.plays.at(-1), 'live+cam');
    const tracks = stream?.description?.tracks ?? [];
    assert.deepEqual(
      tracks.map((track) => [track.kind, track.codec, track.codecString]),
      media.tracks.map((track) => [track.kind, track.codec, track.codecString]),
    );
    assert.deepEqual(tracks[0]?.config, media.tracks[0]?.config);
    const firstKey = received.findIndex((unit) => unit.trackId === 1 && unit.key);
    const sourceVideo = media.units.filter((unit) => unit.trackId === 1);
    const pulledVideo = received.slice(firstKey).filter((unit) => unit.trackId === 1);
    const start = sourceVideo.findIndex((unit) =>
      Buffer.from(unit.data).equals(Buffer.from(pulledVideo[0]?.data ?? [])),
    );
    assert.ok(start >= 0, 'the first pulled frame is a source frame');
    for (let i = 0; i < Math.min(20, pulledVideo.length); i++) {
      const pulled = pulledVideo[i] as MediaUnit;
      const original = sourceVideo[start + i] as MediaUnit;
      assert.deepEqual(Buffer.from(pulled.data), Buffer.from(original.data), `frame ${i} bytes`);
      assert.equal(pulled.key, original.key);
      const offsetMs = Math.round(((original.pts - original.dts) * 1000) / 90_000);
      assert.equal(pulled.pts - pulled.dts, offsetMs * 90, `frame ${i} composition offset`);
    }
    const audio = received.filter((unit) => unit.trackId === 2);
    for (let i = 1; i < audio.length; i++) {
      assert.equal((audio[i] as MediaUnit).dts - (audio[i - 1] as MediaUnit).dts, 1024, 'AAC on exact frame steps');
    }
    assert.equal(events[0]?.kind, 'connected');
    assert.equal(events[0]?.address, '127.0.0.1');
  });

  it('reconnects after the source drops, with the stream reconnecting in between', async () => {
    const events: PullEvent[] = [];
    const pull = session(`dtsc://127.0.0.1:${source.port}/live+cam`, events);
    await until(() => events.some((event) => event.kind === 'connected'), 'connected');
    source.dropConnections();
    await until(() => events.some((event) => event.kind === 'source_ended'), 'the drop to be seen');
    await until(() => events.filter((event) => event.kind === 'connected').length >= 2, 'a second connection');
    pull.stop('test over');
    assert.deepEqual(statuses.get(`s-${sessions}`)?.slice(0, 3), ['LIVE', 'RECONNECTING', 'LIVE']);
    const connects = events.filter((event) => event.kind === 'connected').map((event) => event.attempt);
    assert.deepEqual(connects.slice(0, 2), [1, 2]);
  });

  it('ends the attempt with the source error for an unknown stream, and retries', async () => {
    const events: PullEvent[] = [];
    const pull = session(`dtsc://127.0.0.1:${source.port}/other`, events);
    await until(() => events.length >= 2, 'two failed attempts');
    pull.stop('test over');
    assert.equal(events[0]?.kind, 'failed');
    assert.match(events[0]?.message ?? '', /refused: stream other not found/);
  });

  it('reports a guard refusal as its kind, without dialling', async () => {
    const events: PullEvent[] = [];
    const refuse: PullAddressGuard = {
      async resolve(host) {
        throw new PullRefusedError('private_not_allowed', `${host} is private`);
      },
    };
    const before = source.plays.length;
    const pull = session(`dtsc://127.0.0.1:${source.port}/live+cam`, events, refuse);
    await until(() => events.length >= 1, 'a refused attempt');
    pull.stop('test over');
    assert.equal(events[0]?.kind, 'private_not_allowed');
    assert.equal(source.plays.length, before, 'the source was never asked');
  });
});
