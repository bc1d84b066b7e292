/**
 * Pushes a live stream to an RTMP/RTMPS destination (Adobe RTMP 1.0; FLV v10.1 Annex E for
 * H.264/AAC; E-RTMP v2 for H.265, AV1, VP9 and Opus when the destination announces the codec in
 * its connect answer): sequence headers from the description, then every unit as an FLV tag with
 * millisecond timestamps counted from the first unit sent. A unit's message body (FLV tag cut
 * into chunks) is built once and shared by every push of the stream; each connection adds only
 * its 12-byte type-0 header, and the writes of one event-loop turn leave in one system call.
 */
import { UnsupportedError } from '../../errors.js';
import { audioTagHead, videoTagHead } from '../../formats/flv/flv-build.js';
import { FlvTagType } from '../../formats/flv/flv-tag.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { StreamDescription, Track } from '../../stream/track.js';
import type { DestinationResolver, PushOutput } from '../shared/push-output.js';
import { MAX_SHORT_TIMESTAMP } from './chunk-writer.js';
import { parseRtmpUrl, RtmpPublisher } from './client.js';

/** FourCCs of the codecs legacy FLV cannot carry (E-RTMP v2). */
const ENHANCED_FOURCC: Readonly<Record<string, string>> = { h265: 'hvc1', av1: 'av01', vp9: 'vp09', opus: 'Opus' };

/** Options of an RTMP push connection. */
export interface RtmpPushOptions {
  /** Give up when publishing has not started within this time (default 10 s). */
  readonly timeoutMs?: number;
  /** TLS options for rtmps:// (tests with self-signed receivers). */
  readonly tls?: { readonly rejectUnauthorized?: boolean; readonly ca?: string | Buffer };
}

/** The codecs of `description` the destination did not announce, as FourCCs. */
function unannounced(description: StreamDescription, announced: readonly string[]): string[] {
  return description.tracks
    .map((track) => ENHANCED_FOURCC[track.codec])
    .filter((fourCc): fourCc is string => fourCc !== undefined && !announced.includes(fourCc));
}

function toMs(track: Track, ticks: number): number {
  return (ticks * 1000) / track.timescale;
}

/** A unit's FLV tag body cut into chunks of `chunkSize` (the same for every push of its stream). */
interface SharedBody {
  readonly chunkSize: number;
  readonly payloadLength: number;
  readonly body: Uint8Array;
}

/** Bodies by unit: built by the first push that sends the unit, gone with the unit. */
const sharedBodies = new WeakMap<MediaUnit, SharedBody>();

/** The bytes of one unit's FLV tag body before its data. */
function tagHeadOf(track: Track, unit: MediaUnit): Uint8Array {
  return track.kind === 'video'
    ? videoTagHead({
        codec: track.codec,
        packetType: 'frame',
        key: unit.key,
        compositionOffsetMs: toMs(track, unit.pts - unit.dts),
      })
    : audioTagHead({ codec: track.codec, packetType: 'frame' });
}

class RtmpPushOutput implements PushOutput {
  private tracks = new Map<number, Track>();
  private baseMs: number | undefined;
  private lastMs = 0;

  readonly ready = Promise.resolve();

  constructor(private readonly publisher: RtmpPublisher) {}

  get bytesSent(): number {
    return this.publisher.bytesWritten;
  }

  get closed(): Promise<string> {
    return this.publisher.closed;
  }

  async describe(description: StreamDescription): Promise<void> {
    this.tracks = new Map(description.tracks.map((track) => [track.id, track]));
    const at = Math.max(0, Math.round(this.lastMs));
    for (const track of description.tracks) {
      if (track.kind === 'video') {
        await this.publisher.sendVideo({
          codec: track.codec,
          packetType: 'config',
          key: true,
          data: track.config,
          timestampMs: at,
        });
      } else {
        await this.publisher.sendAudio({
          codec: track.codec,
          packetType: 'config',
          data: track.config,
          timestampMs: at,
        });
      }
    }
  }

  write(unit: MediaUnit): Promise<void> | undefined {
    const track = this.tracks.get(unit.trackId);
    if (!track) {
      return undefined;
    }
    const ms = toMs(track, unit.dts);
    this.baseMs ??= ms;
    const timestampMs = Math.max(0, Math.round(ms - this.baseMs));
    this.lastMs = timestampMs;
    const kind = track.kind === 'video' ? 'video' : 'audio';
    if (timestampMs > MAX_SHORT_TIMESTAMP) {
      return this.publisher.writeTag({
        type: kind === 'video' ? FlvTagType.video : FlvTagType.audio,
        timestampMs,
        data: Buffer.concat([tagHeadOf(track, unit), unit.data]),
      });
    }
    let shared = sharedBodies.get(unit);
    if (shared?.chunkSize !== this.publisher.chunkSize) {
      const head = tagHeadOf(track, unit);
      shared = {
        chunkSize: this.publisher.chunkSize,
        payloadLength: head.byteLength + unit.data.byteLength,
        body: this.publisher.chunkBody(kind, head, unit.data),
      };
      sharedBodies.set(unit, shared);
    }
    return this.publisher.sendChunked(kind, timestampMs, shared.payloadLength, shared.body)
      ? undefined
      : this.publisher.drained();
  }

  /** Unpublishes; a destination that does not take the goodbye within half a second is cut off. */
  async close(): Promise<void> {
    const timer = setTimeout(() => this.publisher.abort('closed by the push'), 500);
    try {
      await Promise.race([this.publisher.close(), this.publisher.closed]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Connects to an rtmp:// or rtmps:// destination and starts publishing; rejects with a readable reason. */
export async function connectRtmpPush(
  uri: string,
  description: StreamDescription,
  resolve: DestinationResolver,
  options: RtmpPushOptions = {},
): Promise<PushOutput> {
  const target = parseRtmpUrl(uri);
  const address = await resolve(target.host);
  const publisher = new RtmpPublisher();
  await publisher.connect(uri, {
    address,
    coalesceWrites: true,
    timeoutMs: options.timeoutMs ?? 10_000,
    ...(target.secure && options.tls ? { tls: options.tls } : {}),
  });
  const missing = unannounced(description, publisher.serverFourCcs);
  if (missing.length > 0) {
    await publisher.close();
    throw new UnsupportedError(
      `the destination does not announce E-RTMP support for ${missing.join(', ')} in its connect answer; ` +
        'over legacy RTMP it takes H.264 and AAC only',
    );
  }
  return new RtmpPushOutput(publisher);
}
