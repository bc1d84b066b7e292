/**
 * DTSC packet framing (MistServer `lib/dtsc.h`/`lib/dtsc.cpp`, read as the format description):
 * 4 magic bytes, a 4-byte big-endian length of what follows, then the body. `DTSC` carries the
 * stream header (a DTMI object with `tracks`), `DTCM` a command object (`cmd`), `DTP2` a media
 * packet (4-byte track id, 8-byte time in milliseconds, then a DTMI object with `data`,
 * `keyframe`, `offset`, `bpos`) and the older `DTPD` the same with `trackid` and `time` inside the
 * object.
 */
import { ParseError, ProtocolError } from '../../errors.js';
import { type DtmiInput, type DtmiObject, decodeDtmi, dtmi, encodeDtmi } from './dtmi.js';

/** Largest packet body accepted (a header of a long live buffer is the largest). */
export const DTSC_MAX_PACKET_BYTES = 32 * 1024 * 1024;

/** One decoded DTSC packet. */
export type DtscPacket =
  | { readonly kind: 'header'; readonly body: DtmiObject }
  | { readonly kind: 'command'; readonly body: DtmiObject }
  | {
      readonly kind: 'data';
      readonly trackId: number;
      /** Decode time in milliseconds. */
      readonly time: number;
      /** Presentation minus decode time in milliseconds. */
      readonly offset: number;
      readonly keyframe: boolean;
      readonly data: Uint8Array;
    };

const MAGIC = { header: 'DTSC', command: 'DTCM', data2: 'DTP2', data1: 'DTPD' } as const;

function magicOf(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0);
}

function objectBody(bytes: Uint8Array, what: string): DtmiObject {
  const { value } = decodeDtmi(bytes);
  if (!(value instanceof Map)) {
    throw new ParseError(`DTSC ${what}: body is not a DTMI object`);
  }
  return value;
}

function dataPacket(trackId: number, time: number, body: DtmiObject): DtscPacket {
  const data = dtmi.bytes(body, 'data');
  if (!data) {
    throw new ParseError(`DTSC data packet of track ${trackId} has no data member`);
  }
  return {
    kind: 'data',
    trackId,
    time,
    offset: dtmi.number(body, 'offset') ?? 0,
    keyframe: (dtmi.number(body, 'keyframe') ?? 0) !== 0,
    data,
  };
}

/** Decodes one whole packet (magic, length and body). */
export function decodeDtscPacket(packet: Uint8Array): DtscPacket {
  if (packet.byteLength < 8) {
    throw new ParseError(`DTSC packet of ${packet.byteLength} bytes is shorter than its 8-byte head`);
  }
  const magic = magicOf(packet, 0);
  const body = packet.subarray(8);
  switch (magic) {
    case MAGIC.header:
      return { kind: 'header', body: objectBody(body, 'header') };
    case MAGIC.command:
      return { kind: 'command', body: objectBody(body, 'command') };
    case MAGIC.data2: {
      if (body.byteLength < 12) {
        throw new ParseError('DTP2 packet shorter than its track id and time', 8);
      }
      const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
      const trackId = view.getUint32(0);
      const time = Number(view.getBigUint64(4));
      return dataPacket(trackId, time, objectBody(body.subarray(12), 'DTP2'));
    }
    case MAGIC.data1: {
      const object = objectBody(body, 'DTPD');
      return dataPacket(dtmi.number(object, 'trackid') ?? 0, dtmi.number(object, 'time') ?? 0, object);
    }
    default:
      throw new ParseError(`unknown DTSC packet magic ${JSON.stringify(magic)}`, 0);
  }
}

/** Splits a byte stream into DTSC packets (whatever chunking the socket delivers). */
export class DtscPacketReader {
  private pending: Uint8Array = new Uint8Array(0);

  constructor(private readonly maxPacketBytes = DTSC_MAX_PACKET_BYTES) {}

  /** Bytes held for an incomplete packet. */
  get buffered(): number {
    return this.pending.byteLength;
  }

  /** Adds received bytes; returns every packet they complete. Throws on a malformed head. */
  push(chunk: Uint8Array): DtscPacket[] {
    // A plain view, so that slices below copy (Buffer#slice would share the socket's memory).
    let bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.pending.byteLength > 0) {
      bytes = new Uint8Array(this.pending.byteLength + chunk.byteLength);
      bytes.set(this.pending);
      bytes.set(chunk, this.pending.byteLength);
    }
    const packets: DtscPacket[] = [];
    let at = 0;
    while (bytes.byteLength - at >= 8) {
      if (bytes[at] !== 0x44 || bytes[at + 1] !== 0x54) {
        throw new ProtocolError(`DTSC stream out of sync: packet starts with ${JSON.stringify(magicOf(bytes, at))}`);
      }
      const length = new DataView(bytes.buffer, bytes.byteOffset + at + 4, 4).getUint32(0);
      if (length > this.maxPacketBytes) {
        throw new ProtocolError(`DTSC packet of ${length} bytes exceeds the ${this.maxPacketBytes}-byte limit`);
      }
      if (bytes.byteLength - at < 8 + length) {
        break;
      }
      packets.push(decodeDtscPacket(bytes.subarray(at, at + 8 + length)));
      at += 8 + length;
    }
    this.pending = at === bytes.byteLength ? new Uint8Array(0) : bytes.slice(at);
    return packets;
  }
}

function framed(magic: string, body: Uint8Array, extra?: Uint8Array): Uint8Array {
  const extraLength = extra?.byteLength ?? 0;
  const out = new Uint8Array(8 + extraLength + body.byteLength);
  for (let i = 0; i < 4; i++) {
    out[i] = magic.charCodeAt(i);
  }
  new DataView(out.buffer).setUint32(4, extraLength + body.byteLength);
  if (extra) {
    out.set(extra, 8);
  }
  out.set(body, 8 + extraLength);
  return out;
}

/** A `DTCM` command packet. */
export function encodeDtscCommand(command: { readonly cmd: string; readonly [name: string]: DtmiInput }): Uint8Array {
  return framed(MAGIC.command, encodeDtmi(command));
}

/** A `DTSC` header packet. */
export function encodeDtscHeader(header: { readonly [name: string]: DtmiInput }): Uint8Array {
  return framed(MAGIC.header, encodeDtmi(header));
}

/** A `DTP2` media packet. */
export function encodeDtscData(packet: {
  readonly trackId: number;
  readonly time: number;
  readonly offset?: number;
  readonly keyframe?: boolean;
  readonly data: Uint8Array;
}): Uint8Array {
  const head = new Uint8Array(12);
  const view = new DataView(head.buffer);
  view.setUint32(0, packet.trackId);
  view.setBigUint64(4, BigInt(packet.time));
  const body: Record<string, DtmiInput> = {};
  if (packet.offset) {
    body.offset = packet.offset;
  }
  if (packet.keyframe) {
    body.keyframe = 1;
  }
  body.data = packet.data;
  return framed(MAGIC.data2, encodeDtmi(body), head);
}
