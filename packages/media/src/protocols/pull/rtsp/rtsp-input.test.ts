/**
 * The in-process RTSP client against the test's RTSP server (interleaved TCP, H.264 + AAC from
 * an ffmpeg-encoded file): tracks declared from the SDP before the first packet, units flowing
 * into the hub with the encoded frames intact, TEARDOWN on stop, redirects dialled through the
 * guard by the next attempt, credentials answered (Basic and Digest) without being shown,
 * H.265 + Opus read the same way, and H.264 and H.265 with B-frames given decode times that the
 * CMAF packager (LL-HLS) writes into fragments ffprobe reads back frame for frame.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { describeHvcC } from '../../../codecs/h265.js';
import { splitLengthPrefixed } from '../../../codecs/nal.js';
import { Hub } from '../../../hub/hub.js';
import { silentLogger } from '../../../ports.js';
import type { MediaUnit } from '../../../stream/media-unit.js';
import { CapturingLogger } from '../../../testing/capturing-logger.js';
import { type EncodedMedia, encodeTestMedia, ffmpegSkip, ffprobeJson, run } from '../../../testing/ffmpeg-media.js';
import { type RtspTestServer, startRtspTestServer } from '../../../testing/rtsp-server.js';
import { suiteTempDir } from '../../../testing/temp-dir.js';
import { lavfiInputs, testSourceArgs } from '../../../testing/test-source.js';
import { until } from '../../../testing/until.js';
import { CmafPackager } from '../../shared/cmaf/cmaf-packager.js';
import { type PullAddressGuard, PullRefusedError } from '../address-guard.js';
import { EndOnce, type PullInputFactory } from '../pull-input.js';
import { type PullEvent, PullSession } from '../pull-session.js';
import { rtspInputs } from './rtsp-input.js';

/** Resolves `*.test` to 127.0.0.1 and refuses 127.0.0.2 as "private". */
const guard: PullAddressGuard = {
  async resolve(host) {
    const address = host.endsWith('.test') ? '127.0.0.1' : host;
    if (address === '127.0.0.2') {
      throw new PullRefusedError('private_not_allowed', `${host} is private`);
    }
    return [address];
  },
};

describe('the in-process RTSP client', { skip: ffmpegSkip() }, () => {
  const dir = suiteTempDir('airwave-rtsp-pull-');
  let media: EncodedMedia;
  let rtsp: RtspTestServer;
  let hub: Hub;
  let sessions = 0;

  before(async () => {
    media = encodeTestMedia(dir.path, testSourceArgs({ seconds: 3, size: '320x180', gop: 30, bFrames: 0 }));
    rtsp = await startRtspTestServer({ tracks: media.tracks, units: media.units });
    hub = new Hub({ log: silentLogger, reconnectWindowMs: 2_000 });
  });

  after(async () => {
    hub?.close();
    await rtsp?.close();
  });

  function pull(
    uri: string,
    events: PullEvent[],
    open: PullInputFactory = rtspInputs(),
    log = silentLogger,
  ): { session: PullSession; streamId: string } {
    sessions++;
    const streamId = `s-${sessions}`;
    const session = new PullSession({
      hub,
      grant: { streamId, playbackId: `p-${sessions}` },
      uri,
      open,
      guard,
      log,
      retry: { baseMs: 200, maxMs: 1000 },
      onEvent: (event) => events.push(event),
    });
    session.start();
    return { session, streamId };
  }

  function described(streamId: string): string[] {
    return (hub.getByStreamId(streamId)?.description?.tracks ?? []).map((track) => `${track.kind}:${track.codec}`);
  }

  it('reads H.264 + AAC over interleaved TCP (reads merged while unwatched): the SDP declares the tracks, the frames arrive whole', async () => {
    const events: PullEvent[] = [];
    const { session, streamId } = pull(`rtsp://cam.test:${rtsp.port}/live`, events, rtspInputs({ mergedReadMs: 100 }));
    const units: MediaUnit[] = [];
    await until(() => described(streamId).length === 2, 'the RTSP stream described', 10_000);
    hub.getByStreamId(streamId)?.attach({ onUnit: (unit) => units.push(unit) }, false);
    await until(() => units.filter((unit) => unit.trackId === 1).length > 30, 'video units flowing', 10_000);
    session.stop('test over');
    assert.deepEqual(described(streamId), ['video:h264', 'audio:aac']);
    assert.equal(events[0]?.kind, 'connected');
    assert.equal(events[0]?.address, '127.0.0.1');
    const track = hub.getByStreamId(streamId)?.description?.tracks[0];
    const source = media.tracks.find((candidate) => candidate.kind === 'video');
    assert.deepEqual(track?.config, source?.config, 'avcC from sprop-parameter-sets');
    const video = units.filter((unit) => unit.trackId === 1);
    const sourceVideo = media.units.filter((unit) => unit.trackId === source?.id);
    const first = video.findIndex((unit) => unit.key);
    assert.ok(first >= 0, 'a key frame arrived');
    // The server sends each key frame with SPS/PPS in band; the client keeps only the slices.
    const sourceKey = sourceVideo.find((unit) => unit.key) as MediaUnit;
    assert.deepEqual(
      splitLengthPrefixed(video[first]?.data ?? new Uint8Array()),
      splitLengthPrefixed(sourceKey.data).filter((nal) => ((nal[0] as number) & 0x1f) !== 9),
    );
    const audio = units.filter((unit) => unit.trackId === 2);
    assert.ok(audio.length > 10, 'AAC frames arrived');
    for (let i = 1; i < video.length; i++) {
      assert.ok((video[i]?.dts ?? 0) > (video[i - 1]?.dts ?? 0), 'video times only grow');
    }
    await until(() => rtsp.requests.some((line) => line.startsWith('TEARDOWN')), 'TEARDOWN sent', 5_000);
    assert.deepEqual(
      rtsp.requests.slice(0, 5).map((line) => line.split(' ')[0]),
      ['OPTIONS', 'DESCRIBE', 'SETUP', 'SETUP', 'PLAY'],
    );
  });

  it('a redirect ends the attempt; the next one dials the new location through the guard', async () => {
    const redirecting = await startRtspTestServer({
      tracks: media.tracks,
      units: media.units,
      redirectTo: `rtsp://127.0.0.2:${rtsp.port}/live`,
    });
    const events: PullEvent[] = [];
    const before = rtsp.connections();
    const { session } = pull(`rtsp://127.0.0.1:${redirecting.port}/live`, events);
    await until(() => events.length >= 2, 'the redirect and the refused attempt', 10_000);
    session.stop('test over');
    await redirecting.close();
    assert.deepEqual(
      events.slice(0, 2).map((event) => event.kind),
      ['redirected', 'private_not_allowed'],
    );
    assert.equal(rtsp.connections(), before, 'nothing connected to the redirect target');
  });

  for (const scheme of ['basic', 'digest'] as const) {
    it(`answers ${scheme} authentication from the URI's credentials and never logs them`, async () => {
      const locked = await startRtspTestServer({
        tracks: media.tracks,
        units: media.units,
        credentials: { username: 'cam user', password: 's3cr:t', scheme },
      });
      const log = new CapturingLogger();
      const events: PullEvent[] = [];
      const { session, streamId } = pull(
        `rtsp://cam%20user:s3cr%3At@cam.test:${locked.port}/live`,
        events,
        rtspInputs(),
        log,
      );
      await until(() => described(streamId).length === 2, 'the protected stream described', 10_000);
      session.stop('test over');
      const refused: PullEvent[] = [];
      const wrong = pull(`rtsp://cam%20user:wrong@cam.test:${locked.port}/live`, refused, rtspInputs(), log);
      await until(() => refused.length >= 1, 'the refused attempt', 10_000);
      wrong.session.stop('test over');
      await locked.close();
      assert.equal(refused[0]?.kind, 'failed');
      assert.match(refused[0]?.message ?? '', /refused the credentials/);
      const logged = JSON.stringify(log.records) + JSON.stringify([...events, ...refused]);
      assert.doesNotMatch(logged, /s3cr|wrong/);
    });
  }

  it('reads H.265 + Opus: hvcC from sprop-vps/sps/pps, Opus packets as they were encoded', async () => {
    const hevc = encodeTestMedia(
      dir.path,
      [
        ...lavfiInputs('320x180', 48000),
        ...['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'bframes=0:keyint=30:log-level=error'],
        ...['-pix_fmt', 'yuv420p', '-c:a', 'libopus', '-t', '3'],
      ],
      'hevc-opus.mp4',
    );
    const server = await startRtspTestServer({ tracks: hevc.tracks, units: hevc.units });
    const events: PullEvent[] = [];
    const { session, streamId } = pull(`rtsp://cam.test:${server.port}/live`, events);
    const units: MediaUnit[] = [];
    await until(() => described(streamId).length === 2, 'the H.265 stream described', 10_000);
    hub.getByStreamId(streamId)?.attach({ onUnit: (unit) => units.push(unit) }, false);
    await until(() => units.filter((unit) => unit.trackId === 1).length > 20, 'H.265 units flowing', 10_000);
    session.stop('test over');
    await server.close();
    assert.deepEqual(described(streamId), ['video:h265', 'audio:opus']);
    const source = hevc.tracks.find((track) => track.kind === 'video');
    const track = hub.getByStreamId(streamId)?.description?.tracks[0];
    // The encoder's hvcC also holds its SEI; the VPS/SPS/PPS are the same.
    assert.equal(track?.codecString, describeHvcC(source?.config ?? new Uint8Array()).codecString);
    assert.equal(track?.kind === 'video' && track.width, 320);
    const sourceOpus = new Set(
      hevc.units.filter((unit) => unit.trackId !== source?.id).map((unit) => Buffer.from(unit.data).toString('hex')),
    );
    const opus = units.filter((unit) => unit.trackId === 2);
    assert.ok(opus.length > 10, 'Opus packets arrived');
    assert.ok(
      opus.every((unit) => sourceOpus.has(Buffer.from(unit.data).toString('hex'))),
      'each Opus packet is one the encoder wrote',
    );
  });

  /** Pulls `source` into the hub and a CMAF packager until it has `segments` video segments; returns their fMP4 file. */
  async function pullIntoCmaf(source: EncodedMedia, name: string, segments: number): Promise<string> {
    const server = await startRtspTestServer({ tracks: source.tracks, units: source.units });
    const events: PullEvent[] = [];
    const { session, streamId } = pull(`rtsp://cam.test:${server.port}/live`, events);
    const cmaf = new CmafPackager({ segmentTargetSeconds: 1, windowSegments: 10 });
    await until(() => described(streamId).length === 2, 'described', 10_000);
    hub.getByStreamId(streamId)?.attach(cmaf, false);
    await until(() => (cmaf.track('video')?.segments.length ?? 0) >= segments, 'video segments', 20_000);
    session.stop('test over');
    await server.close();
    const video = cmaf.track('video');
    const written = video?.segments.slice(0, segments) ?? [];
    const init = video?.init(written[0]?.initVersion ?? 0);
    assert.ok(init && written.every((segment) => segment.initVersion === written[0]?.initVersion));
    const file = join(dir.path, name);
    writeFileSync(file, Buffer.concat([init, ...written.map((segment) => segment.data ?? new Uint8Array())]));
    assert.deepEqual(
      events.map((event) => event.kind),
      ['connected'],
      `one attempt, not ended by the B-frames: ${JSON.stringify(events)}`,
    );
    cmaf.dispose();
    return file;
  }

  /** ffprobe's packets of the file: frames whole, decode times rising, never after presentation, 30 fps without a gap. */
  function assertPlayable(file: string, codec: string): void {
    const probe = ffprobeJson(['-count_frames', '-show_streams', '-show_packets', file]) as {
      streams: { codec_name: string; nb_read_frames: string; duration: string }[];
      packets: { pts: number; dts: number; duration: number }[];
    };
    const stream = probe.streams[0];
    assert.equal(stream?.codec_name, codec);
    const packets = probe.packets;
    assert.ok(packets.length >= 60, `${packets.length} frames`);
    assert.equal(Number(stream?.nb_read_frames), packets.length, 'every frame decodes');
    assert.ok(
      packets.some((packet) => packet.pts > packet.dts),
      'frames presented after they are decoded (B-frames)',
    );
    for (const [i, packet] of packets.entries()) {
      assert.ok(packet.pts >= packet.dts, `frame ${i}: pts ${packet.pts} >= dts ${packet.dts}`);
      if (i > 0) {
        assert.ok(packet.dts > (packets[i - 1]?.dts ?? 0), `frame ${i}: dts ${packet.dts} rises`);
      }
    }
    const pts = packets.map((packet) => packet.pts).sort((a, b) => a - b);
    assert.deepEqual(
      new Set(pts.slice(1).map((value, i) => value - (pts[i] ?? 0))),
      new Set([3000]),
      'one frame every 1/30 s in presentation order: none lost',
    );
    const span = (pts.at(-1) ?? 0) + 3000 - (pts[0] ?? 0);
    assert.equal(span, packets.length * 3000, 'the frames span their count × 1/30 s');
    const duration = packets.reduce((sum, packet) => sum + packet.duration, 0);
    assert.equal(duration, span, 'the samples last as long as the frames');
    run('ffmpeg', ['-v', 'error', '-xerror', '-i', file, '-f', 'null', '-']);
  }

  /** Encodes `args` (B-frames), pulls it over RTSP into CMAF and checks the fragments in ffprobe. */
  async function pullsWithBFrames(args: string[], name: string, codec: string): Promise<void> {
    const source = encodeTestMedia(dir.path, args, `${name}.mp4`);
    assert.ok(
      source.units.some((unit) => unit.pts !== unit.dts),
      'the source has B-frames',
    );
    assertPlayable(await pullIntoCmaf(source, `${name}-cmaf.mp4`, 3), codec);
  }

  it('H.264 with B-frames (x264 -bf 2, B-pyramid): decode times from the SPS, LL-HLS fragments ffprobe reads', async () => {
    const args = testSourceArgs({ seconds: 6, size: '320x180', gop: 30, fixedGop: true, bFrames: 2 });
    await pullsWithBFrames(args, 'h264-bframes', 'h264');
  });

  it('H.265 with B-frames (x265 bframes=3): decode times from sps_max_num_reorder_pics, LL-HLS fragments ffprobe reads', async () => {
    const x265 = 'bframes=3:keyint=30:min-keyint=30:scenecut=0:log-level=error';
    const args = [
      ...lavfiInputs('320x180', 48000),
      ...['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', x265],
      ...['-pix_fmt', 'yuv420p', '-c:a', 'libopus', '-t', '6'],
    ];
    await pullsWithBFrames(args, 'h265-bframes', 'hevc');
  });

  it('a source with a track only ffmpeg reads (MP4A-LATM) is handed to the fallback input', async () => {
    const body = [
      'v=0',
      's=latm',
      'm=video 0 RTP/AVP 96',
      'a=rtpmap:96 H264/90000',
      'a=control:trackID=0',
      'm=audio 0 RTP/AVP 97',
      'a=rtpmap:97 MP4A-LATM/48000/2',
      'a=control:trackID=1',
      '',
    ].join('\r\n');
    const methods: string[] = [];
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.on('data', (chunk: Buffer) => {
        for (const head of chunk.toString('latin1').split('\r\n\r\n').filter(Boolean)) {
          const method = head.split(' ')[0] ?? '';
          methods.push(method);
          const cseq = /CSeq: (\d+)/.exec(head)?.[1];
          const extra = method === 'DESCRIBE' ? `Content-Length: ${body.length}\r\n\r\n${body}` : '\r\n';
          socket.write(`RTSP/1.0 200 OK\r\nCSeq: ${cseq}\r\n${extra}`);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const handedOver: string[] = [];
    const fallback: PullInputFactory = (context) => {
      handedOver.push(context.target.url.href);
      const end = new EndOnce();
      end.settle({ kind: 'source_ended', message: 'the fallback read it' });
      return { ended: end.ended, stop: () => undefined };
    };
    const events: PullEvent[] = [];
    const { session } = pull(`rtsp://cam.test:${port}/live`, events, rtspInputs({ fallback }));
    await until(() => events.length >= 1, 'the attempt ended by the fallback', 10_000);
    session.stop('test over');
    await new Promise((resolve) => server.close(resolve));
    assert.deepEqual(handedOver, [`rtsp://cam.test:${port}/live`]);
    assert.deepEqual(methods, ['OPTIONS', 'DESCRIBE'], 'no SETUP by the in-process client');
    assert.equal(events[0]?.message, 'the fallback read it');
  });

  it('a source that stops answering mid-session ends the attempt and the next one reconnects', async () => {
    const events: PullEvent[] = [];
    const flaky = await startRtspTestServer({ tracks: media.tracks, units: media.units });
    const { session, streamId } = pull(`rtsp://cam.test:${flaky.port}/live`, events);
    await until(() => described(streamId).length === 2, 'described', 10_000);
    flaky.dropConnections();
    await until(() => events.filter((event) => event.kind === 'connected').length >= 2, 'reconnected', 10_000);
    session.stop('test over');
    await flaky.close();
    assert.equal(events[1]?.kind, 'source_ended');
  });
});
