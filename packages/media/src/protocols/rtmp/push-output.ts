/**
 * Pushes a live stream to an RTMP/RTMPS destination (Adobe RTMP 1.0; FLV v10.1 Annex E for
 * H.264/AAC; E-RTMP v2 for H.265, AV1, VP9 and Opus when the destination announces the codec in
 * its connect answer): sequence headers from the description, then every unit as an FLV tag with
 * millisecond timestamps counted from the first unit any push of the stream sent (one timeline per
 * stream). A run of units read in one turn is cut into chunked messages once and the same bytes
 * go to every push of the stream that sends that run, in one write each (ADR 0038).
 */
import { ByteRing } from '../../bits/byte-ring.js';
import { UnsupportedError } from '../../errors.js';
import { audioTagHead, videoTagHead } from '../../formats/flv/flv-build.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { StreamDescription, Track } from '../../stream/track.js';
import type { DestinationResolver, PushOutput } from '../shared/push-output.js';
import { chunkMessages, type MessageParts } from './chunk-writer.js';
import { parseRtmpUrl, RtmpPublisher } from './client.js';
import { Csid, MessageType } from './messages.js';

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

/** What the pushes of one stream share: the origin of their timestamps and the runs cut last. */
interface Timeline {
  baseMs: number | undefined;
  /** The most recent runs, newest last (at most `RECENT_RUNS`). */
  readonly runs: SharedRun[];
  /** Where the stream's runs are cut into: reused while every socket takes its runs at once. */
  readonly ring: ByteRing;
}

/**
 * The ring a stream's runs are cut into: a run is 40–80 KB (one or two of ingest's 100 ms reads
 * of a 3 Mb/s stream), so it holds about ten; one buffer per pushing stream, reused (ADR 0087).
 */
const RUN_RING_BYTES = 512 * 1024;

/**
 * Runs a stream keeps for its pushes to share. Every push that keeps up drains the same run in
 * the same turn, so the newest is the one wanted; a few more let a push that lags a turn behind
 * share too. Held by the stream's timeline, not by the units: a unit lives on in the GOP cache and
 * the on-demand packagers' history for tens of seconds, and a run cached by its unit lived as long.
 */
const RECENT_RUNS = 4;

/** Timelines by the object that stands for a stream (`PushConnector`'s `shared`). */
const timelines = new WeakMap<object, Timeline>();

/** A run of units (first to last, in order) cut into chunked messages for one chunk size and message stream id. */
interface SharedRun {
  readonly first: MediaUnit;
  readonly last: MediaUnit;
  readonly count: number;
  readonly description: StreamDescription;
  readonly chunkSize: number;
  readonly streamId: number;
  readonly baseMs: number;
  readonly bytes: Buffer;
  /** The timestamp of its last message. */
  readonly lastMs: number;
}

/** Most tag heads kept per track (a stream uses a few: keyframe or not, a few composition offsets). */
const MAX_HEADS_PER_TRACK = 64;

/** Tag heads built so far, by track: a unit's head depends only on its track, keyness and composition offset. */
const headsByTrack = new WeakMap<Track, Map<number, Uint8Array>>();

/** The bytes of one unit's FLV tag body before its data (built once per distinct head, not per unit). */
function tagHeadOf(track: Track, unit: MediaUnit): Uint8Array {
  const video = track.kind === 'video';
  const cts = video ? Math.round(toMs(track, unit.pts - unit.dts)) : 0;
  const shape = cts * 2 + (video && unit.key ? 1 : 0);
  let heads = headsByTrack.get(track);
  if (!heads) {
    heads = new Map();
    headsByTrack.set(track, heads);
  }
  let head = heads.get(shape);
  if (!head) {
    head = video
      ? videoTagHead({ codec: track.codec, packetType: 'frame', key: unit.key, compositionOffsetMs: cts })
      : audioTagHead({ codec: track.codec, packetType: 'frame' });
    if (heads.size < MAX_HEADS_PER_TRACK) {
      heads.set(shape, head);
    }
  }
  return head;
}

class RtmpPushOutput implements PushOutput {
  private description: StreamDescription | undefined;
  private tracks = new Map<number, Track>();
  private lastMs = 0;

  readonly ready = Promise.resolve();

  constructor(
    private readonly publisher: RtmpPublisher,
    private readonly timeline: Timeline,
  ) {}

  get bytesSent(): number {
    return this.publisher.bytesWritten;
  }

  get closed(): Promise<string> {
    return this.publisher.closed;
  }

  async describe(description: StreamDescription): Promise<void> {
    this.description = description;
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
    return this.writeBatch([unit]);
  }

  /**
   * Sends a run of units as one write. The pushes of a stream that send the same run (the usual
   * case: every destination keeps up, so every reader drains the same units in the same turn)
   * share its bytes: timestamps count from the stream's timeline, not from each connection.
   */
  writeBatch(units: readonly MediaUnit[]): Promise<void> | undefined {
    const first = units[0];
    const last = units.at(-1);
    const description = this.description;
    if (!first || !last || !description) {
      return undefined;
    }
    if (this.timeline.baseMs === undefined) {
      const track = this.tracks.get(first.trackId);
      this.timeline.baseMs = track ? toMs(track, first.dts) : undefined;
    }
    const baseMs = this.timeline.baseMs ?? 0;
    const { chunkSize, messageStreamId: streamId } = this.publisher;
    const runs = this.timeline.runs;
    let run = runs.findLast((each) => each.first === first);
    if (
      run?.last !== last ||
      run.count !== units.length ||
      run.description !== description ||
      run.chunkSize !== chunkSize ||
      run.streamId !== streamId ||
      run.baseMs !== baseMs
    ) {
      run = this.cut(units, description, baseMs);
      this.forgetOverwritten(run.bytes);
      if (runs.push(run) > RECENT_RUNS) {
        runs.shift();
      }
    }
    if (run.bytes.byteLength === 0) {
      return undefined;
    }
    this.lastMs = run.lastMs;
    const taken = this.publisher.sendChunks(run.bytes);
    if (this.publisher.holdsWrites) {
      // The socket still reads these bytes: the ring must not come round to them.
      this.timeline.ring.keep(run.bytes);
    }
    return taken ? undefined : this.publisher.drained();
  }

  /** Drops the recent runs whose bytes the ring has just reused for `bytes`. */
  private forgetOverwritten(bytes: Uint8Array): void {
    const { runs, ring } = this.timeline;
    for (let i = runs.length - 1; i >= 0; i--) {
      const each = runs[i] as SharedRun;
      if (each.bytes !== bytes && ring.overwrites(bytes, each.bytes)) {
        runs.splice(i, 1);
      }
    }
  }

  private cut(units: readonly MediaUnit[], description: StreamDescription, baseMs: number): SharedRun {
    const { chunkSize, messageStreamId: streamId } = this.publisher;
    const messages: MessageParts[] = [];
    let lastMs = this.lastMs;
    for (const unit of units) {
      const track = this.tracks.get(unit.trackId);
      if (!track) {
        continue;
      }
      const video = track.kind === 'video';
      lastMs = Math.max(0, Math.round(toMs(track, unit.dts) - baseMs));
      messages.push({
        csid: video ? Csid.video : Csid.audio,
        typeId: video ? MessageType.video : MessageType.audio,
        streamId,
        timestamp: lastMs,
        head: tagHeadOf(track, unit),
        data: unit.data,
      });
    }
    const first = units[0] as MediaUnit;
    const last = units.at(-1) as MediaUnit;
    const bytes = chunkMessages(messages, chunkSize, (size) => this.timeline.ring.take(size));
    return { first, last, count: units.length, description, chunkSize, streamId, baseMs, bytes, lastMs };
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
  shared: object = {},
): Promise<PushOutput> {
  const target = parseRtmpUrl(uri);
  const address = await resolve(target.host);
  const publisher = new RtmpPublisher();
  await publisher.connect(uri, {
    address,
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
  let timeline = timelines.get(shared);
  if (!timeline) {
    timeline = { baseMs: undefined, runs: [], ring: new ByteRing(RUN_RING_BYTES) };
    timelines.set(shared, timeline);
  }
  return new RtmpPushOutput(publisher, timeline);
}
