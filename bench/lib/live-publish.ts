/**
 * One live Airwave stream for a benchmark: the built server with one stream, our paced RTMP
 * publisher sending the benchmark file on it, and its LL-HLS video playlist up.
 */
import { type AirwaveProcess, type BenchStream, createStreams, startAirwave } from './airwave-server.js';
import { waitForLlHls } from './llhls-viewer.js';
import { type PacedPublisher, startPacedPublisher } from './paced-publisher.js';

/** What a benchmark measures against. */
export interface LivePublish {
  readonly server: AirwaveProcess;
  readonly stream: BenchStream;
  readonly publisher: PacedPublisher;
  /** `<baseUrl>/play/<playbackId>`. */
  readonly base: string;
  /** The first LL-HLS video playlist the server answered. */
  readonly playlist: string;
}

/**
 * Starts Airwave (with AIRWAVE_* overrides `env`), creates a stream, publishes `flvFile` on it in
 * real time, waits (30 s at most) for its LL-HLS playlist and runs `use`; then stops the publisher
 * and the server.
 */
export async function withLivePublish<T>(
  flvFile: string,
  use: (live: LivePublish) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const server = await startAirwave(env);
  try {
    const [stream] = await createStreams(server, 1);
    if (!stream) {
      throw new Error('no stream created');
    }
    const publisher = await startPacedPublisher(stream.rtmpUrl, flvFile);
    try {
      const base = `${server.baseUrl}/play/${stream.playbackId}`;
      const playlist = await waitForLlHls(`${base}/cmaf/video.m3u8`, Date.now() + 30_000);
      return await use({ server, stream, publisher, base, playlist });
    } finally {
      await publisher.stop();
    }
  } finally {
    await server.stop();
  }
}
