/**
 * The origin → edge relay survives a broken connection (ADR 0041): two Airwave processes on one
 * PostgreSQL, A (everything) and B (`--role media`). A's registered base URL is a TCP proxy run by
 * the test, so B's relay from A goes through it. ffmpeg publishes to A, a viewer plays classic
 * HLS from B; the proxy then cuts every connection and refuses new ones for two seconds. B keeps
 * the stream (no end of list), connects to A again through the proxy, and its playlist goes on
 * with new segments that decode, after a discontinuity. The edge's viewer reaches subscribers on A
 * as connection events and viewer metrics stamped with B's node id.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createScratchDatabase, postgresMissing, type ScratchDatabase } from '@airwave/server/testing/databases';
import type { TestServer } from '@airwave/server/testing/test-server';
import { createStream, registerAccount } from './support/accounts.js';
import { ffmpegMissing, ffprobeJson, type ProbedStream, publishPattern } from './support/ffmpeg.js';
import { graphqlOf, startNode, type TestNode } from './support/nodes.js';
import { type Tracked, waitFor } from './support/processes.js';
import { type Recorder, record } from './support/subscriptions.js';

const skip = postgresMissing || ffmpegMissing;

/** A TCP proxy to a port learned later; it can cut every connection and refuse new ones for a while. */
class CuttableProxy {
  readonly sockets = new Set<net.Socket>();
  connections = 0;
  target = 0;
  private refuseUntil = 0;
  private readonly server = net.createServer((client) => this.accept(client));

  /** Listens on `host`; resolves to the port. */
  async listen(host: string): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, host, resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Destroys every open connection and refuses new ones for `ms`. */
  cut(ms: number): void {
    this.refuseUntil = Date.now() + ms;
    for (const socket of this.sockets) {
      socket.destroy();
    }
  }

  close(): Promise<void> {
    this.cut(0);
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    if (Date.now() < this.refuseUntil || this.target === 0) {
      client.destroy();
      return;
    }
    this.connections += 1;
    const upstream = net.connect(this.target, '127.0.0.2');
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.sockets.delete(from);
        to.destroy();
      });
    }
  }
}

interface MediaPlaylist {
  readonly text: string;
  readonly sequence: number;
  readonly lastSegment: string;
}

/** Reads B's classic HLS media playlist (through the multivariant playlist). */
async function mediaPlaylist(multivariantUrl: string): Promise<MediaPlaylist> {
  const uri = (text: string) => text.split('\n').filter((line) => line.length > 0 && !line.startsWith('#'));
  const multivariant = await (await fetch(multivariantUrl)).text();
  const mediaUrl = new URL(uri(multivariant)[0] ?? '', multivariantUrl);
  const response = await fetch(mediaUrl);
  assert.equal(response.status, 200, mediaUrl.toString());
  const text = await response.text();
  const sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1] ?? Number.NaN);
  const segments = uri(text);
  return {
    text,
    sequence: sequence + segments.length,
    lastSegment: new URL(segments.at(-1) ?? '', mediaUrl).toString(),
  };
}

/** The video frames ffprobe decodes in `url`. */
async function framesIn(url: string): Promise<number> {
  const probed = await ffprobeJson<{ streams: ProbedStream[] }>(
    ['-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=codec_type,nb_read_frames'],
    url,
  );
  return Number(probed.streams[0]?.nb_read_frames ?? 0);
}

describe('origin → edge relay: a broken connection is made again and the stream goes on', { skip }, () => {
  let scratch: ScratchDatabase;
  const proxy = new CuttableProxy();
  let origin: TestNode | undefined;
  let edge: TestNode | undefined;
  let publisher: Tracked | undefined;
  let viewerUrl = '';
  let viewing = true;
  let polling: Promise<void> | undefined;
  let connections: Recorder | undefined;
  let viewerMetrics: Recorder | undefined;
  let api: Pick<TestServer, 'graphql'>;
  let owner = '';
  let streamId = '';

  before(async () => {
    scratch = await createScratchDatabase();
    const proxyPort = await proxy.listen('127.0.0.2');
    [origin, edge] = await Promise.all([
      startNode('a', '127.0.0.2', scratch.url, [], {
        AIRWAVE_PUBLIC_URL: `http://127.0.0.2:${proxyPort}`,
        AIRWAVE_LOG_LEVEL: 'info',
      }),
      startNode('b', '127.0.0.3', scratch.url, ['--role', 'media'], { AIRWAVE_LOG_LEVEL: 'info' }),
    ]);
    const a = origin;
    const b = edge;
    proxy.target = a.httpPort;
    api = graphqlOf(`http://127.0.0.2:${a.httpPort}`);
    owner = (await registerAccount(api as TestServer, 'relay-reconnect')).token;
    const stream = await createStream(api as TestServer, owner, 'Relayed show');
    streamId = stream.id;
    const rtmpPort = a.rtmpPort;
    publisher = publishPattern(`rtmp://127.0.0.2:${rtmpPort}/live/${stream.streamKey}`, {
      seconds: 120,
      bframes: false,
      width: 320,
      height: 180,
    });
    const ws = `ws://127.0.0.2:${a.httpPort}/graphql/ws`;
    connections = record(
      ws,
      owner,
      'subscription ($id: ID!) { liveConnectionEvents(streamId: $id) { eventType connector nodeId } }',
      { id: stream.id },
    );
    viewerMetrics = record(
      ws,
      owner,
      'subscription ($id: ID!) { liveViewerMetrics(streamId: $id) { nodeId currentViewers } }',
      { id: stream.id },
    );
    await waitFor(
      'the stream live on A',
      async () => (await fetch(`http://127.0.0.2:${a.httpPort}/play/${stream.playbackId}`)).status === 200,
      30_000,
      250,
    );
    viewerUrl = `http://127.0.0.3:${b.httpPort}/play/${stream.playbackId}/hls/index.m3u8`;
    await waitFor('the stream relayed to B', async () => (await fetch(viewerUrl)).status === 200, 30_000, 500);
    // A viewer stays on B all along, so the relay is never idle.
    polling = (async () => {
      while (viewing) {
        await mediaPlaylist(viewerUrl).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();
  });

  after(async () => {
    viewing = false;
    await polling;
    await connections?.close();
    await viewerMetrics?.close();
    await publisher?.stop();
    await Promise.all([origin?.stop(), edge?.stop()]);
    await proxy.close();
    await scratch?.drop();
  });

  it('keeps the stream on the edge and resumes it with new segments after the cut', async () => {
    await waitFor('two segments on B', async () => (await mediaPlaylist(viewerUrl)).sequence >= 2, 30_000, 500);
    const before = await mediaPlaylist(viewerUrl);
    const connectionsBefore = proxy.connections;
    proxy.cut(2000);
    await waitFor('B connected to A again', async () => proxy.connections > connectionsBefore, 20_000, 250);
    const resumed = await waitFor(
      'three new segments on B after the cut',
      async () => {
        const now = await mediaPlaylist(viewerUrl);
        return now.sequence >= before.sequence + 3 ? now : undefined;
      },
      30_000,
      500,
    );
    assert.doesNotMatch(resumed.text, /#EXT-X-ENDLIST/);
    assert.match(resumed.text, /#EXT-X-DISCONTINUITY/);
    const frames = await framesIn(resumed.lastSegment);
    assert.ok(
      frames > 0,
      `the newest segment after the cut decodes: ${frames} frames in ${resumed.lastSegment}\n${resumed.text}`,
    );
    assert.match(edge?.cli.stdout() ?? '', /relay lost; connecting again/);
    assert.match(edge?.cli.stdout() ?? '', /relay resumed/);
    assert.doesNotMatch(edge?.cli.stdout() ?? '', /relay from the origin ended/);
  });

  it("publishes the edge's viewer to subscribers on the origin, stamped with the edge's node id", async () => {
    await connections?.waitFor(
      (result) => {
        const event = result.data?.liveConnectionEvents;
        return event?.eventType === 'connect' && event.connector === 'hls' && event.nodeId === 'node-b';
      },
      'a viewer connect on B seen on A',
      20_000,
    );
    await viewerMetrics?.waitFor(
      (result) => {
        const event = result.data?.liveViewerMetrics;
        return event?.nodeId === 'node-b' && Number(event.currentViewers) >= 1;
      },
      'viewer metrics of B seen on A',
      20_000,
    );
  });

  it("counts the edge's viewers in the stream's currentViewers on the origin's API", async () => {
    await waitFor(
      'currentViewers over both nodes',
      async () => {
        const response = await api.graphql<{ stream: { metrics: { currentViewers: number } } }>(
          'query ($id: ID!) { stream(id: $id) { metrics { currentViewers } } }',
          { id: streamId },
          owner,
        );
        return (response.data?.stream.metrics.currentViewers ?? 0) >= 1;
      },
      20_000,
      500,
    );
  });
});
