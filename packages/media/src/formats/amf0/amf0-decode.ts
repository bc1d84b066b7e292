/**
 * AMF0 decoder (Action Message Format AMF0, Adobe, 2006) with depth, count and size limits.
 * Every malformed input raises ParseError; AMF3 switches and references raise UnsupportedError.
 */
import { ByteCursor } from '../../bits/byte-cursor.js';
import { ParseError, UnsupportedError } from '../../errors.js';
import { Amf0EcmaArray, Amf0Marker, type Amf0Object, type Amf0Value, amf0Object } from './amf0-value.js';

/** Limits of one decode call. */
export interface Amf0Limits {
  /** Deepest nesting of objects and arrays (default 16). */
  readonly maxDepth?: number;
  /** Most values in total, nested ones included (default 65,536). */
  readonly maxValues?: number;
  /** Most input bytes accepted (default 16 MiB). */
  readonly maxBytes?: number;
}

const textDecoder = new TextDecoder('utf-8', { fatal: false });

class Amf0Decoder extends ByteCursor {
  private values = 0;
  private readonly maxDepth: number;
  private readonly maxValues: number;

  constructor(bytes: Uint8Array, offset: number, limits: Amf0Limits) {
    super(bytes, 'AMF0', offset);
    this.maxDepth = limits.maxDepth ?? 16;
    this.maxValues = limits.maxValues ?? 65_536;
    const maxBytes = limits.maxBytes ?? 16 * 1024 * 1024;
    if (bytes.byteLength > maxBytes) {
      throw new ParseError(`AMF0 input of ${bytes.byteLength} bytes exceeds ${maxBytes}`);
    }
  }

  private utf8(length: number, what: string): string {
    return textDecoder.decode(this.take(length, what));
  }

  /** Reads one value. */
  value(depth: number): Amf0Value {
    this.values++;
    if (this.values > this.maxValues) {
      throw new ParseError(`AMF0 input holds more than ${this.maxValues} values`, this.offset);
    }
    const at = this.offset;
    const marker = this.u8('type marker');
    switch (marker) {
      case Amf0Marker.number:
        return this.f64('number');
      case Amf0Marker.boolean:
        return this.u8('boolean') !== 0;
      case Amf0Marker.string:
        return this.utf8(this.u16('string length'), 'string');
      case Amf0Marker.longString:
      case Amf0Marker.xmlDocument:
        return this.utf8(this.u32('long string length'), 'long string');
      case Amf0Marker.null:
        return null;
      case Amf0Marker.undefined:
      case Amf0Marker.unsupported:
        return undefined;
      case Amf0Marker.object:
        return this.properties(depth, amf0Object());
      case Amf0Marker.typedObject:
        this.utf8(this.u16('class name length'), 'class name');
        return this.properties(depth, amf0Object());
      case Amf0Marker.ecmaArray:
        this.u32('ECMA array count');
        return new Amf0EcmaArray(this.properties(depth, amf0Object()));
      case Amf0Marker.strictArray:
        return this.strictArray(depth);
      case Amf0Marker.date: {
        const ms = this.f64('date');
        this.u16('date time zone');
        return new Date(ms);
      }
      case Amf0Marker.reference:
        throw new UnsupportedError('AMF0 references are not supported');
      case Amf0Marker.avmplusObject:
        throw new UnsupportedError('AMF3 values (AVM+ switch) are not supported; send AMF0');
      case Amf0Marker.objectEnd:
        throw new ParseError('AMF0 object end marker outside an object', at);
      default:
        throw new ParseError(`AMF0 type marker 0x${marker.toString(16)} is not valid`, at);
    }
  }

  private enter(depth: number): number {
    if (depth + 1 > this.maxDepth) {
      throw new ParseError(`AMF0 nesting deeper than ${this.maxDepth}`, this.offset);
    }
    return depth + 1;
  }

  private properties(depth: number, into: Amf0Object): Amf0Object {
    const inner = this.enter(depth);
    for (;;) {
      const key = this.utf8(this.u16('property name length'), 'property name');
      if (key === '' && this.remaining >= 1 && this.bytes[this.offset] === Amf0Marker.objectEnd) {
        this.offset += 1;
        return into;
      }
      into[key] = this.value(inner);
    }
  }

  private strictArray(depth: number): Amf0Value[] {
    const inner = this.enter(depth);
    const count = this.u32('strict array count');
    if (count > this.remaining) {
      throw new ParseError(`AMF0 strict array claims ${count} values in ${this.remaining} bytes`, this.offset);
    }
    const out: Amf0Value[] = [];
    for (let i = 0; i < count; i++) {
      out.push(this.value(inner));
    }
    return out;
  }
}

/** Decodes one AMF0 value at `offset`; returns it and the offset after it. */
export function decodeAmf0Value(
  bytes: Uint8Array,
  offset = 0,
  limits: Amf0Limits = {},
): { value: Amf0Value; next: number } {
  const decoder = new Amf0Decoder(bytes, offset, limits);
  const value = decoder.value(0);
  return { value, next: decoder.offset };
}

/** Decodes every AMF0 value in `bytes` (an RTMP command or data message body). */
export function decodeAmf0(bytes: Uint8Array, limits: Amf0Limits = {}): Amf0Value[] {
  const decoder = new Amf0Decoder(bytes, 0, limits);
  const out: Amf0Value[] = [];
  while (decoder.remaining > 0) {
    out.push(decoder.value(0));
  }
  return out;
}
