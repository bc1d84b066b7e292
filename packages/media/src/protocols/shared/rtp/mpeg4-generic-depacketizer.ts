/**
 * MPEG-4 elementary streams over RTP in the `mpeg4-generic` format (RFC 3640), as AAC uses it
 * (`mode=AAC-hbr` / `AAC-lbr`, any field sizes the SDP names): the AU-header section (§3.2.1)
 * gives each access unit's size and index, the auxiliary section (§3.2.2) is skipped, and the
 * access units follow; one access unit too large for a packet is fragmented over packets of the
 * same timestamp (§3.2.3) and joined. Each access unit gets the packet timestamp plus its index
 * times the frame duration.
 */
import { BitReader } from '../../../bits/bit-reader.js';
import { concatBytes } from '../../../bits/bytes.js';
import { ParseError, UnsupportedError } from '../../../errors.js';

/** The fmtp fields of RFC 3640 §4.1 that shape the payload. */
export interface Mpeg4GenericFormat {
  readonly sizeLength: number;
  readonly indexLength: number;
  readonly indexDeltaLength: number;
  readonly ctsDeltaLength: number;
  readonly dtsDeltaLength: number;
  readonly randomAccessIndication: boolean;
  readonly streamStateIndication: number;
  readonly auxiliaryDataSizeLength: number;
  /** Size of every access unit when `sizeLength` is 0. */
  readonly constantSize: number;
}

/** One access unit and its RTP timestamp. */
export interface Mpeg4AccessUnit {
  readonly timestamp: number;
  readonly data: Uint8Array;
}

/** Largest access unit joined from fragments. */
const MAX_FRAGMENTED_BYTES = 64 * 1024;
/** Most access units in one packet. */
const MAX_UNITS_PER_PACKET = 512;

/** Reads the RFC 3640 fields of an fmtp (names lower-cased); throws UnsupportedError on sizes past 32 bits. */
export function mpeg4GenericFormat(fmtp: ReadonlyMap<string, string>): Mpeg4GenericFormat {
  const field = (name: string): number => {
    const text = fmtp.get(name);
    const value = text === undefined ? 0 : Number(text);
    if (!Number.isInteger(value) || value < 0 || value > 32) {
      throw new UnsupportedError(`mpeg4-generic ${name}=${text} is not a field size of 0..32 bits`);
    }
    return value;
  };
  const constantSize = Number(fmtp.get('constantsize') ?? 0);
  return {
    sizeLength: field('sizelength'),
    indexLength: field('indexlength'),
    indexDeltaLength: field('indexdeltalength'),
    ctsDeltaLength: field('ctsdeltalength'),
    dtsDeltaLength: field('dtsdeltalength'),
    randomAccessIndication: fmtp.get('randomaccessindication') === '1',
    streamStateIndication: field('streamstateindication'),
    auxiliaryDataSizeLength: field('auxiliarydatasizelength'),
    constantSize: Number.isInteger(constantSize) && constantSize > 0 ? constantSize : 0,
  };
}

/** Splits one `mpeg4-generic` RTP stream into access units. */
export class Mpeg4GenericDepacketizer {
  private readonly hasHeaders: boolean;
  private fragment: { timestamp: number; size: number; parts: Uint8Array[]; have: number } | undefined;

  /** `frameDuration` is one access unit's duration in RTP clock ticks (1024 samples for AAC at its rate). */
  constructor(
    private readonly format: Mpeg4GenericFormat,
    private readonly frameDuration: number,
  ) {
    this.hasHeaders =
      format.sizeLength + format.indexLength + format.indexDeltaLength + format.ctsDeltaLength + format.dtsDeltaLength >
        0 ||
      format.randomAccessIndication ||
      format.streamStateIndication > 0;
  }

  /** Packets were lost: a fragment in progress is dropped. */
  lost(): void {
    this.fragment = undefined;
  }

  /** One RTP payload; returns the access units it completed. Throws ParseError when malformed. */
  push(payload: Uint8Array, timestamp: number): Mpeg4AccessUnit[] {
    const format = this.format;
    const r = new BitReader(payload);
    const headers: { size: number; index: number }[] = [];
    if (this.hasHeaders) {
      const headerBits = r.readBits(16);
      const end = 16 + headerBits;
      if (end > payload.length * 8) {
        throw new ParseError(`mpeg4-generic AU headers of ${headerBits} bits do not fit the packet`);
      }
      let index = 0;
      while (r.bitPosition < end) {
        if (headers.length >= MAX_UNITS_PER_PACKET) {
          throw new ParseError(`more than ${MAX_UNITS_PER_PACKET} access units in one packet`);
        }
        const size = format.sizeLength > 0 ? r.readBits(format.sizeLength) : format.constantSize;
        index = headers.length === 0 ? r.readBits(format.indexLength) : index + 1 + r.readBits(format.indexDeltaLength);
        if (format.ctsDeltaLength > 0 && r.readFlag()) {
          r.skipBits(format.ctsDeltaLength);
        }
        if (format.dtsDeltaLength > 0 && r.readFlag()) {
          r.skipBits(format.dtsDeltaLength);
        }
        r.skipBits((format.randomAccessIndication ? 1 : 0) + format.streamStateIndication);
        if (r.bitPosition > end) {
          throw new ParseError('mpeg4-generic AU header runs past the AU-header section');
        }
        headers.push({ size, index });
      }
      r.byteAlign();
    }
    if (format.auxiliaryDataSizeLength > 0) {
      const auxBits = r.readBits(format.auxiliaryDataSizeLength);
      r.skipBits(auxBits);
      r.byteAlign();
    }
    const data = payload.subarray(r.bytePosition);
    if (headers.length === 0) {
      return this.unsized(data, timestamp);
    }
    const first = headers[0] as { size: number; index: number };
    if (headers.length === 1 && (first.size > data.length || this.fragment?.timestamp === timestamp)) {
      return this.fragmentPart(first.size, data, timestamp);
    }
    this.fragment = undefined;
    const out: Mpeg4AccessUnit[] = [];
    let at = 0;
    for (const header of headers) {
      if (header.size === 0 || at + header.size > data.length) {
        throw new ParseError(`mpeg4-generic access unit of ${header.size} bytes does not fit the packet`, at);
      }
      out.push({
        timestamp: (timestamp + header.index * this.frameDuration) >>> 0,
        data: data.subarray(at, at + header.size),
      });
      at += header.size;
    }
    return out;
  }

  /** No AU headers: constant-size units, or the whole payload as one. */
  private unsized(data: Uint8Array, timestamp: number): Mpeg4AccessUnit[] {
    const size = this.format.constantSize;
    if (size === 0) {
      return data.length > 0 ? [{ timestamp, data }] : [];
    }
    if (data.length % size !== 0) {
      throw new ParseError(`mpeg4-generic payload of ${data.length} bytes is not a multiple of constantSize ${size}`);
    }
    const out: Mpeg4AccessUnit[] = [];
    for (let at = 0, i = 0; at < data.length; at += size, i++) {
      if (i >= MAX_UNITS_PER_PACKET) {
        throw new ParseError(`more than ${MAX_UNITS_PER_PACKET} access units in one packet`);
      }
      out.push({ timestamp: (timestamp + i * this.frameDuration) >>> 0, data: data.subarray(at, at + size) });
    }
    return out;
  }

  private fragmentPart(size: number, data: Uint8Array, timestamp: number): Mpeg4AccessUnit[] {
    if (size > MAX_FRAGMENTED_BYTES) {
      this.fragment = undefined;
      throw new UnsupportedError(`mpeg4-generic access unit of ${size} bytes is larger than ${MAX_FRAGMENTED_BYTES}`);
    }
    let fragment = this.fragment;
    if (!fragment || fragment.timestamp !== timestamp || fragment.size !== size) {
      fragment = { timestamp, size, parts: [], have: 0 };
      this.fragment = fragment;
    }
    fragment.parts.push(data);
    fragment.have += data.length;
    if (fragment.have < size) {
      return [];
    }
    this.fragment = undefined;
    if (fragment.have > size) {
      throw new ParseError(`mpeg4-generic fragments of ${fragment.have} bytes for an access unit of ${size}`);
    }
    return [{ timestamp, data: concatBytes(fragment.parts) }];
  }
}
