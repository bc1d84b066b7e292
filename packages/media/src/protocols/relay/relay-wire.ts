/**
 * Airwave relay protocol, version 1 (docs/relay-protocol.md): how an edge node receives a live
 * stream from the node that ingests it. The body of `GET /internal/relay/<streamId>` is a
 * sequence of frames, each `type (u8) | length (u32, big-endian) | payload`:
 *
 * - 0x01 HELLO        JSON `{"version":1,"streamId","playbackId"}`, first and once
 * - 0x02 DESCRIPTION  JSON `{"tracks":[…]}`: the publisher's tracks, `config` in base64
 * - 0x03 UNIT         `trackId u16 | flags u8 (1 key, 2 discontinuity) | dts f64 | pts f64 |
 *                     arrivedAt f64 (ms since the epoch, when the origin received it) | data`
 * - 0x04 INTERRUPTED  empty: the publisher dropped; the stream waits for it to return
 * - 0x05 CAUGHT_UP    empty: the recent history is replayed; what follows is live
 * - 0x06 END          JSON `{"reason"}`: the stream ended for good
 *
 * Timestamps are the origin's normalised ones, carried exactly (f64 holds every integer up to
 * 2^53), so the edge packages the same timeline as the origin.
 */
import { concatBytes } from '../../bits/bytes.js';
import { ParseError } from '../../errors.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { AudioCodec, StreamDescription, Track, VideoCodec } from '../../stream/track.js';

/** Frame types. */
export const RelayFrame = {
  hello: 0x01,
  description: 0x02,
  unit: 0x03,
  interrupted: 0x04,
  caughtUp: 0x05,
  end: 0x06,
} as const;

/** Protocol version this implementation speaks. */
export const RELAY_VERSION = 1;
/** Media type of a relay body. */
export const RELAY_CONTENT_TYPE = 'application/vnd.airwave.relay.v1';
/** Largest unit payload accepted (one access unit). */
export const MAX_UNIT_BYTES = 16 * 1024 * 1024;
/** Largest JSON payload accepted. */
export const MAX_JSON_BYTES = 64 * 1024;
/** Most tracks a description may carry. */
export const MAX_TRACKS = 8;
const HEADER = 5;
const UNIT_HEADER = 2 + 1 + 8 + 8 + 8;

/** The first frame. */
export interface RelayHello {
  readonly version: number;
  readonly streamId: string;
  readonly playbackId: string;
}

/** A unit with the time the origin received it. */
export interface RelayedUnit {
  readonly unit: MediaUnit;
  readonly arrivedAt: number;
}

/** One decoded frame. */
export type RelayEvent =
  | { readonly type: 'hello'; readonly hello: RelayHello }
  | { readonly type: 'description'; readonly description: StreamDescription }
  | ({ readonly type: 'unit' } & RelayedUnit)
  | { readonly type: 'interrupted' }
  | { readonly type: 'caught-up' }
  | { readonly type: 'end'; readonly reason: string };

function frame(type: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER + payload.byteLength);
  const view = new DataView(out.buffer);
  view.setUint8(0, type);
  view.setUint32(1, payload.byteLength);
  out.set(payload, HEADER);
  return out;
}

function jsonFrame(type: number, value: unknown): Uint8Array {
  return frame(type, new TextEncoder().encode(JSON.stringify(value)));
}

/** Encodes HELLO. */
export function encodeHello(hello: RelayHello): Uint8Array {
  return jsonFrame(RelayFrame.hello, hello);
}

/** Encodes DESCRIPTION. */
export function encodeDescription(description: StreamDescription): Uint8Array {
  return jsonFrame(RelayFrame.description, {
    tracks: description.tracks.map((track) => ({ ...track, config: Buffer.from(track.config).toString('base64') })),
  });
}

/** Encodes the header of a UNIT frame; its data follows as a second chunk (no copy of the payload). */
export function encodeUnitHeader(unit: MediaUnit, arrivedAt: number): Uint8Array {
  const out = new Uint8Array(HEADER + UNIT_HEADER);
  const view = new DataView(out.buffer);
  view.setUint8(0, RelayFrame.unit);
  view.setUint32(1, UNIT_HEADER + unit.data.byteLength);
  view.setUint16(5, unit.trackId);
  view.setUint8(7, (unit.key ? 1 : 0) | (unit.discontinuity ? 2 : 0));
  view.setFloat64(8, unit.dts);
  view.setFloat64(16, unit.pts);
  view.setFloat64(24, arrivedAt);
  return out;
}

/** Encodes INTERRUPTED or CAUGHT_UP. */
export function encodeSignal(type: typeof RelayFrame.interrupted | typeof RelayFrame.caughtUp): Uint8Array {
  return frame(type, new Uint8Array(0));
}

/** Encodes END. */
export function encodeEnd(reason: string): Uint8Array {
  return jsonFrame(RelayFrame.end, { reason: reason.slice(0, 1024) });
}

/**
 * Decodes a relay body incrementally: `push` each received chunk, get the complete frames it
 * finished. Throws ParseError on anything malformed or over the limits (the relay is then dropped).
 */
export class RelayDecoder {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private helloSeen = false;

  /** Adds received bytes; returns the frames they completed. */
  push(chunk: Uint8Array): RelayEvent[] {
    this.chunks.push(chunk);
    this.buffered += chunk.byteLength;
    const events: RelayEvent[] = [];
    for (;;) {
      if (this.buffered < HEADER) {
        return events;
      }
      const head = this.peek(HEADER);
      const view = new DataView(head.buffer, head.byteOffset, HEADER);
      const type = view.getUint8(0);
      const length = view.getUint32(1);
      checkLength(type, length);
      if (this.buffered < HEADER + length) {
        return events;
      }
      const body = this.take(HEADER + length).subarray(HEADER);
      const event = decodeFrame(type, body);
      if ((event.type === 'hello') === this.helloSeen) {
        throw new ParseError(this.helloSeen ? 'a second HELLO frame' : 'the first frame is not HELLO');
      }
      this.helloSeen = true;
      events.push(event);
    }
  }

  /** Bytes received but not yet part of a complete frame. */
  get pending(): number {
    return this.buffered;
  }

  private peek(length: number): Uint8Array {
    const first = this.chunks[0] as Uint8Array;
    if (first.byteLength >= length) {
      return first;
    }
    const joined = concatBytes(this.chunks);
    this.chunks = [joined];
    return joined;
  }

  private take(length: number): Uint8Array {
    const source = this.peek(length);
    const out = source.subarray(0, length);
    const rest = source.subarray(length);
    this.chunks.shift();
    if (rest.byteLength > 0) {
      this.chunks.unshift(rest);
    }
    this.buffered -= length;
    return out;
  }
}

function checkLength(type: number, length: number): void {
  const max =
    type === RelayFrame.unit
      ? UNIT_HEADER + MAX_UNIT_BYTES
      : type === RelayFrame.interrupted || type === RelayFrame.caughtUp
        ? 0
        : MAX_JSON_BYTES;
  if (type < RelayFrame.hello || type > RelayFrame.end) {
    throw new ParseError(`unknown relay frame type ${type}`);
  }
  if (length > max || (type === RelayFrame.unit && length < UNIT_HEADER)) {
    throw new ParseError(`relay frame of type ${type} with a length of ${length} bytes`);
  }
}

function decodeFrame(type: number, body: Uint8Array): RelayEvent {
  switch (type) {
    case RelayFrame.hello:
      return { type: 'hello', hello: helloOf(json(body)) };
    case RelayFrame.description:
      return { type: 'description', description: descriptionOf(json(body)) };
    case RelayFrame.unit:
      return { type: 'unit', ...unitOf(body) };
    case RelayFrame.interrupted:
      return { type: 'interrupted' };
    case RelayFrame.caughtUp:
      return { type: 'caught-up' };
    default: {
      const value = json(body);
      const reason = isRecord(value) && typeof value.reason === 'string' ? value.reason : undefined;
      if (reason === undefined) {
        throw new ParseError('END frame without a reason');
      }
      return { type: 'end', reason };
    }
  }
}

function unitOf(body: Uint8Array): RelayedUnit {
  const view = new DataView(body.buffer, body.byteOffset, UNIT_HEADER);
  const trackId = view.getUint16(0);
  const flags = view.getUint8(2);
  const dts = view.getFloat64(3);
  const pts = view.getFloat64(11);
  const arrivedAt = view.getFloat64(19);
  if (!Number.isSafeInteger(dts) || !Number.isSafeInteger(pts) || !Number.isFinite(arrivedAt) || flags > 3) {
    throw new ParseError('UNIT frame with invalid timestamps or flags');
  }
  const unit: MediaUnit = {
    trackId,
    dts,
    pts,
    key: (flags & 1) !== 0,
    data: body.slice(UNIT_HEADER),
    ...((flags & 2) !== 0 ? { discontinuity: true } : {}),
  };
  return { unit, arrivedAt };
}

function json(body: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)) as unknown;
  } catch {
    throw new ParseError('relay frame is not valid UTF-8 JSON');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function helloOf(value: unknown): RelayHello {
  if (
    !isRecord(value) ||
    value.version !== RELAY_VERSION ||
    typeof value.streamId !== 'string' ||
    typeof value.playbackId !== 'string' ||
    value.streamId.length > 128 ||
    value.playbackId.length > 128
  ) {
    throw new ParseError(`HELLO must be {"version":${RELAY_VERSION},"streamId","playbackId"}`);
  }
  return { version: value.version, streamId: value.streamId, playbackId: value.playbackId };
}

const VIDEO_CODECS: readonly VideoCodec[] = ['h264', 'h265', 'av1', 'vp9'];
const AUDIO_CODECS: readonly AudioCodec[] = ['aac', 'opus'];

function int(value: unknown, min: number, max: number, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ParseError(`DESCRIPTION: ${what} must be an integer within ${min}–${max}`);
  }
  return value;
}

function optionalNumber(value: unknown, what: string): number | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new ParseError(`DESCRIPTION: ${what} must be a non-negative number`);
  }
  return value;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length > 256) {
    throw new ParseError(`DESCRIPTION: ${what} must be a string of at most 256 characters`);
  }
  return value;
}

function config(value: unknown): Uint8Array {
  if (typeof value !== 'string' || value.length > 8192 || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) {
    throw new ParseError('DESCRIPTION: config must be base64 of at most 6 KiB');
  }
  return new Uint8Array(Buffer.from(value, 'base64'));
}

function trackOf(value: unknown): Track {
  if (!isRecord(value)) {
    throw new ParseError('DESCRIPTION: a track is not an object');
  }
  const id = int(value.id, 1, 65_535, 'track id');
  const codecString = text(value.codecString, 'codecString');
  const bitrate = optionalNumber(value.bitrate, 'bitrate');
  if (value.kind === 'video') {
    const codec = VIDEO_CODECS.find((known) => known === value.codec);
    if (!codec) {
      throw new ParseError(`DESCRIPTION: video codec must be one of ${VIDEO_CODECS.join(', ')}`);
    }
    const fps = optionalNumber(value.fps, 'fps');
    return {
      kind: 'video',
      id,
      codec,
      timescale: int(value.timescale, 1, 10_000_000, 'timescale'),
      config: config(value.config),
      codecString,
      width: int(value.width, 0, 65_535, 'width'),
      height: int(value.height, 0, 65_535, 'height'),
      ...(fps === undefined ? {} : { fps }),
      ...(bitrate === undefined ? {} : { bitrate }),
    };
  }
  if (value.kind === 'audio') {
    const codec = AUDIO_CODECS.find((known) => known === value.codec);
    if (!codec) {
      throw new ParseError(`DESCRIPTION: audio codec must be one of ${AUDIO_CODECS.join(', ')}`);
    }
    return {
      kind: 'audio',
      id,
      codec,
      timescale: int(value.timescale, 1, 10_000_000, 'timescale'),
      config: config(value.config),
      codecString,
      sampleRate: int(value.sampleRate, 1, 10_000_000, 'sampleRate'),
      channels: int(value.channels, 1, 255, 'channels'),
      ...(bitrate === undefined ? {} : { bitrate }),
    };
  }
  throw new ParseError('DESCRIPTION: track kind must be video or audio');
}

function descriptionOf(value: unknown): StreamDescription {
  if (!isRecord(value) || !Array.isArray(value.tracks) || value.tracks.length > MAX_TRACKS) {
    throw new ParseError(`DESCRIPTION must be {"tracks":[…]} with at most ${MAX_TRACKS} tracks`);
  }
  const tracks = value.tracks.map(trackOf);
  if (new Set(tracks.map((track) => track.id)).size !== tracks.length) {
    throw new ParseError('DESCRIPTION: two tracks with the same id');
  }
  return { tracks };
}
