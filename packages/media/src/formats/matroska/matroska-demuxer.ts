/**
 * Matroska / WebM demultiplexer (RFC 9559; EBML RFC 8794) for live streams, fed a byte stream in
 * arbitrary chunks (ffmpeg's `-f webm` pipe): the Segment's Info (TimestampScale), Tracks and
 * Clusters (Timestamp, SimpleBlock, BlockGroup/Block/ReferenceBlock), with unknown-size Segments
 * and Clusters as live muxers write them. It carries what MPEG-TS from ffmpeg cannot: VP9
 * (`V_VP9`; the vpcC is built from the first key frame's header), AV1 (`V_AV1`, CodecPrivate =
 * av1C, blocks are low-overhead OBUs) and Opus (`A_OPUS`, CodecPrivate = OpusHead). These codecs
 * decode in presentation order, so DTS = PTS. Other codecs are left out with a reason; laced
 * blocks are dropped (live muxers do not lace these codecs). Structural errors throw ParseError.
 */
import { describeAv1C } from '../../codecs/av1.js';
import { OPUS_SAMPLE_RATE, opusCodecString, opusPacketSamples, parseOpusHead } from '../../codecs/opus.js';
import { buildVpcC, describeVpcC, parseFrameSize, vp9LevelFor, vpcCFieldsFromFrame } from '../../codecs/vp9.js';
import { ParseError } from '../../errors.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import { MillisecondAudioClock } from '../../stream/millisecond-audio-clock.js';
import {
  type AudioTrack,
  type StreamDescription,
  type Track,
  VIDEO_TIMESCALE,
  type VideoTrack,
} from '../../stream/track.js';
import { readDataSize, readElementId, readUnsigned, UNKNOWN_SIZE } from './ebml.js';

/** Where the demuxer delivers (a hub Publisher satisfies the first two). */
export interface MatroskaDemuxerSink {
  setDescription(description: StreamDescription): void;
  write(unit: MediaUnit): void;
  /** A track left out, and why (once per track). */
  unsupported?(trackNumber: number, reason: string): void;
  /** Something dropped, and why. */
  dropped?(reason: string): void;
}

/** Largest element read whole (a block, CodecPrivate). */
export const MATROSKA_MAX_ELEMENT_BYTES = 16 * 1024 * 1024;
/** Most audio units held while the video track waits for its first key frame. */
const MAX_PENDING_UNITS = 1000;

const ID = {
  segment: 0x18538067,
  info: 0x1549a966,
  timestampScale: 0x2ad7b1,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  trackType: 0x83,
  codecId: 0x86,
  codecPrivate: 0x63a2,
  defaultDuration: 0x23e383,
  video: 0xe0,
  pixelWidth: 0xb0,
  pixelHeight: 0xba,
  audio: 0xe1,
  channels: 0x9f,
  cluster: 0x1f43b675,
  timestamp: 0xe7,
  simpleBlock: 0xa3,
  blockGroup: 0xa0,
  block: 0xa1,
  referenceBlock: 0xfb,
} as const;

const MASTERS = new Set<number>([
  ID.segment,
  ID.info,
  ID.tracks,
  ID.trackEntry,
  ID.video,
  ID.audio,
  ID.cluster,
  ID.blockGroup,
]);
const LEAVES = new Set<number>([
  ID.timestampScale,
  ID.trackNumber,
  ID.trackType,
  ID.codecId,
  ID.codecPrivate,
  ID.defaultDuration,
  ID.pixelWidth,
  ID.pixelHeight,
  ID.channels,
  ID.timestamp,
  ID.simpleBlock,
  ID.block,
  ID.referenceBlock,
]);
/** Children of a Segment: one of these closes an open unknown-size Cluster. */
const SEGMENT_CHILDREN = new Set<number>([
  0x114d9b74, 0x1549a966, 0x1654ae6b, 0x1f43b675, 0x1c53bb6b, 0x1043a770, 0x1254c367, 0x1941a469,
]);

interface TrackEntry {
  number?: number;
  type?: number;
  codecId?: string;
  codecPrivate?: Uint8Array;
  defaultDurationNs?: number;
  width?: number;
  height?: number;
  channels?: number;
}

interface Carried {
  readonly entry: TrackEntry;
  track: Track | undefined;
  readonly clock?: MillisecondAudioClock;
}

const latin1 = new TextDecoder('latin1');

/** Streaming Matroska/WebM demultiplexer. */
export class MatroskaDemuxer {
  private pending = new Uint8Array(0);
  /** Absolute offset of `pending[0]`. */
  private offset = 0;
  private skip = 0;
  private readonly stack: { id: number; end: number }[] = [];
  private timestampScale = 1_000_000;
  private clusterTime = 0;
  private entry: TrackEntry | undefined;
  private readonly entries: TrackEntry[] = [];
  private video: Carried | undefined;
  private audio: Carried | undefined;
  private described = false;
  private held: MediaUnit[] = [];
  private block: { data: Uint8Array; referenced: boolean } | undefined;

  constructor(private readonly sink: MatroskaDemuxerSink) {}

  /** Adds bytes; delivers what they complete. Throws ParseError on a broken structure. */
  push(chunk: Uint8Array): void {
    let bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.skip > 0) {
      const step = Math.min(this.skip, bytes.byteLength);
      this.skip -= step;
      this.offset += step;
      bytes = bytes.subarray(step);
    }
    if (this.pending.byteLength > 0) {
      const joined = new Uint8Array(this.pending.byteLength + bytes.byteLength);
      joined.set(this.pending);
      joined.set(bytes, this.pending.byteLength);
      bytes = joined;
    }
    let at = 0;
    while (at < bytes.byteLength && this.skip === 0) {
      const used = this.element(bytes, at);
      if (used === 0) {
        break;
      }
      at += used;
    }
    if (this.skip > 0 && at < bytes.byteLength) {
      const step = Math.min(this.skip, bytes.byteLength - at);
      this.skip -= step;
      at += step;
    }
    this.offset += at;
    this.pending = at < bytes.byteLength ? bytes.slice(at) : new Uint8Array(0);
    this.closeEnded(this.offset);
  }

  /** Reads one element header (and a leaf's payload) at `at`; returns the bytes used, 0 when more are needed. */
  private element(bytes: Uint8Array, at: number): number {
    this.closeEnded(this.offset + at);
    const id = readElementId(bytes, at);
    const size = id ? readDataSize(bytes, at + id.length) : undefined;
    if (!id || !size) {
      return 0;
    }
    const header = id.length + size.length;
    const start = this.offset + at;
    if (SEGMENT_CHILDREN.has(id.value) && this.stack.at(-1)?.id === ID.cluster) {
      this.close(this.stack.pop() as { id: number; end: number });
    }
    if (MASTERS.has(id.value)) {
      this.open(id.value, size.value === UNKNOWN_SIZE ? Number.POSITIVE_INFINITY : start + header + size.value);
      return header;
    }
    if (size.value === UNKNOWN_SIZE) {
      throw new ParseError(`Matroska element 0x${id.value.toString(16)} of unknown size`, start);
    }
    if (!LEAVES.has(id.value)) {
      const available = bytes.byteLength - at - header;
      if (available >= size.value) {
        return header + size.value;
      }
      this.skip = size.value - available;
      return bytes.byteLength - at;
    }
    if (size.value > MATROSKA_MAX_ELEMENT_BYTES) {
      throw new ParseError(`Matroska element of ${size.value} bytes exceeds ${MATROSKA_MAX_ELEMENT_BYTES}`, start);
    }
    if (bytes.byteLength - at - header < size.value) {
      return 0;
    }
    this.leaf(id.value, bytes.subarray(at + header, at + header + size.value));
    return header + size.value;
  }

  private open(id: number, end: number): void {
    this.stack.push({ id, end });
    if (id === ID.trackEntry) {
      this.entry = {};
    } else if (id === ID.blockGroup) {
      this.block = undefined;
    }
  }

  private closeEnded(position: number): void {
    while (this.stack.length > 0 && (this.stack.at(-1)?.end ?? 0) <= position) {
      this.close(this.stack.pop() as { id: number; end: number });
    }
  }

  private close(master: { id: number }): void {
    if (master.id === ID.trackEntry && this.entry) {
      this.entries.push(this.entry);
      this.entry = undefined;
    } else if (master.id === ID.tracks) {
      this.chooseTracks();
    } else if (master.id === ID.blockGroup && this.block) {
      this.frame(this.block.data, !this.block.referenced);
      this.block = undefined;
    }
  }

  private leaf(id: number, payload: Uint8Array): void {
    const entry = this.entry;
    switch (id) {
      case ID.timestampScale:
        this.timestampScale = readUnsigned(payload) || 1_000_000;
        return;
      case ID.timestamp:
        this.clusterTime = readUnsigned(payload);
        return;
      case ID.simpleBlock:
        this.frame(payload, ((payload[blockHeaderLength(payload) - 1] ?? 0) & 0x80) !== 0);
        return;
      case ID.block:
        this.block = { data: payload, referenced: this.block?.referenced ?? false };
        return;
      case ID.referenceBlock:
        if (this.block) {
          this.block.referenced = true;
        } else {
          this.block = { data: new Uint8Array(0), referenced: true };
        }
        return;
    }
    if (!entry) {
      return;
    }
    switch (id) {
      case ID.trackNumber:
        entry.number = readUnsigned(payload);
        break;
      case ID.trackType:
        entry.type = readUnsigned(payload);
        break;
      case ID.codecId:
        entry.codecId = latin1.decode(payload).replace(/\0+$/, '');
        break;
      case ID.codecPrivate:
        entry.codecPrivate = payload.slice();
        break;
      case ID.defaultDuration:
        entry.defaultDurationNs = readUnsigned(payload);
        break;
      case ID.pixelWidth:
        entry.width = readUnsigned(payload);
        break;
      case ID.pixelHeight:
        entry.height = readUnsigned(payload);
        break;
      case ID.channels:
        entry.channels = readUnsigned(payload);
        break;
    }
  }

  /** Picks the first carried video and audio track once the Tracks element is complete. */
  private chooseTracks(): void {
    for (const entry of this.entries) {
      const number = entry.number ?? 0;
      const codec = entry.codecId ?? '';
      if (entry.type === 1 && !this.video && (codec === 'V_VP9' || codec === 'V_AV1')) {
        this.video = { entry, track: codec === 'V_AV1' ? av1Track(entry) : undefined };
      } else if (entry.type === 2 && !this.audio && codec === 'A_OPUS') {
        this.audio = { entry, track: opusTrack(entry), clock: new MillisecondAudioClock(OPUS_SAMPLE_RATE) };
      } else {
        this.sink.unsupported?.(
          number,
          entry.type === 1 || entry.type === 2
            ? `codec ${codec || 'unknown'} is not carried from Matroska (V_VP9, V_AV1, A_OPUS)`
            : `track type ${entry.type ?? 'unknown'}`,
        );
      }
    }
    if (!this.video && !this.audio) {
      throw new ParseError('the Matroska stream has no track this reader carries (V_VP9, V_AV1, A_OPUS)');
    }
    this.describeWhenReady();
  }

  private describeWhenReady(): void {
    if (this.described || (this.video && !this.video.track)) {
      return;
    }
    const tracks = [this.video?.track, this.audio?.track].filter((track): track is Track => track !== undefined);
    this.described = true;
    this.sink.setDescription({ tracks });
    const held = this.held;
    this.held = [];
    for (const unit of held) {
      this.sink.write(unit);
    }
  }

  private frame(block: Uint8Array, key: boolean): void {
    if (block.byteLength === 0) {
      return;
    }
    const headerLength = blockHeaderLength(block);
    if (block.byteLength < headerLength) {
      this.sink.dropped?.('truncated Matroska block');
      return;
    }
    const number = readDataSize(block, 0)?.value;
    const carried =
      number === this.video?.entry.number ? this.video : number === this.audio?.entry.number ? this.audio : undefined;
    if (!carried) {
      return;
    }
    const flags = block[headerLength - 1] ?? 0;
    if ((flags & 0x06) !== 0) {
      this.sink.dropped?.('laced Matroska block');
      return;
    }
    const relative = (((block[headerLength - 3] ?? 0) << 24) >> 16) | (block[headerLength - 2] ?? 0);
    const ms = ((this.clusterTime + relative) * this.timestampScale) / 1_000_000;
    const data = block.subarray(headerLength);
    if (carried === this.video) {
      if (!carried.track) {
        if (!key) {
          return;
        }
        carried.track = vp9Track(carried.entry, data);
        this.describeWhenReady();
      }
      const dts = Math.round(ms * (VIDEO_TIMESCALE / 1000));
      this.deliver({ trackId: carried.track.id, dts, pts: dts, key, data });
      return;
    }
    const track = carried.track as AudioTrack;
    let samples: number;
    try {
      samples = opusPacketSamples(data);
    } catch {
      this.sink.dropped?.('unreadable Opus packet');
      return;
    }
    const dts = carried.clock?.dts(ms, samples) ?? 0;
    this.deliver({ trackId: track.id, dts, pts: dts, key: true, data });
  }

  private deliver(unit: MediaUnit): void {
    if (this.described) {
      this.sink.write(unit);
    } else if (this.held.length < MAX_PENDING_UNITS) {
      this.held.push(unit);
    } else {
      this.sink.dropped?.('audio before the first video key frame');
    }
  }
}

/** Bytes of a block's header: track number, 16-bit relative timestamp, flags. */
function blockHeaderLength(block: Uint8Array): number {
  const number = readDataSize(block, 0);
  return (number?.length ?? block.byteLength) + 3;
}

function fpsOf(entry: TrackEntry): number | undefined {
  return entry.defaultDurationNs ? Math.round(1e11 / entry.defaultDurationNs) / 100 : undefined;
}

function av1Track(entry: TrackEntry): VideoTrack {
  if (!entry.codecPrivate) {
    throw new ParseError('V_AV1 track without CodecPrivate (av1C)');
  }
  const d = describeAv1C(entry.codecPrivate);
  const fps = fpsOf(entry) ?? d.fps;
  return {
    kind: 'video',
    id: 1,
    codec: 'av1',
    timescale: VIDEO_TIMESCALE,
    config: entry.codecPrivate,
    codecString: d.codecString,
    width: entry.width ?? d.width,
    height: entry.height ?? d.height,
    ...(fps ? { fps } : {}),
  };
}

function vp9Track(entry: TrackEntry, keyFrame: Uint8Array): VideoTrack {
  const frame = parseFrameSize(keyFrame);
  if (!frame) {
    throw new ParseError('VP9 block flagged key is not a key frame');
  }
  const fps = fpsOf(entry);
  const config = buildVpcC(vpcCFieldsFromFrame(frame, vp9LevelFor(frame.width, frame.height, fps ?? 30)));
  return {
    kind: 'video',
    id: 1,
    codec: 'vp9',
    timescale: VIDEO_TIMESCALE,
    config,
    codecString: describeVpcC(config).codecString,
    width: entry.width ?? frame.width,
    height: entry.height ?? frame.height,
    ...(fps ? { fps } : {}),
  };
}

function opusTrack(entry: TrackEntry): AudioTrack {
  if (!entry.codecPrivate) {
    throw new ParseError('A_OPUS track without CodecPrivate (OpusHead)');
  }
  const head = parseOpusHead(entry.codecPrivate);
  return {
    kind: 'audio',
    id: 2,
    codec: 'opus',
    timescale: OPUS_SAMPLE_RATE,
    config: entry.codecPrivate,
    codecString: opusCodecString(),
    sampleRate: OPUS_SAMPLE_RATE,
    channels: head.channels,
  };
}
