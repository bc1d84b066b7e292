/**
 * AMF0 encoder (Action Message Format AMF0, Adobe, 2006). Strings longer than 65,535 bytes
 * become long strings; arrays become strict arrays; Amf0EcmaArray becomes an ECMA array.
 */
import { ByteWriter } from '../../bits/byte-writer.js';
import { Amf0EcmaArray, Amf0Marker, type Amf0Object, type Amf0Value } from './amf0-value.js';

const textEncoder = new TextEncoder();

class Amf0Writer extends ByteWriter {
  shortString(text: string): void {
    const bytes = textEncoder.encode(text);
    if (bytes.byteLength > 0xffff) {
      throw new RangeError(`AMF0 property name of ${bytes.byteLength} bytes exceeds 65535`);
    }
    this.u16(bytes.byteLength);
    this.raw(bytes);
  }

  properties(object: Amf0Object): void {
    for (const [key, value] of Object.entries(object)) {
      this.shortString(key);
      this.value(value);
    }
    this.u16(0);
    this.u8(Amf0Marker.objectEnd);
  }

  value(value: Amf0Value): void {
    if (value === undefined) {
      this.u8(Amf0Marker.undefined);
    } else if (value === null) {
      this.u8(Amf0Marker.null);
    } else if (typeof value === 'number') {
      this.u8(Amf0Marker.number);
      this.f64(value);
    } else if (typeof value === 'boolean') {
      this.u8(Amf0Marker.boolean);
      this.u8(value ? 1 : 0);
    } else if (typeof value === 'string') {
      const bytes = textEncoder.encode(value);
      if (bytes.byteLength > 0xffff) {
        this.u8(Amf0Marker.longString);
        this.u32(bytes.byteLength);
      } else {
        this.u8(Amf0Marker.string);
        this.u16(bytes.byteLength);
      }
      this.raw(bytes);
    } else if (value instanceof Date) {
      this.u8(Amf0Marker.date);
      this.f64(value.getTime());
      this.u16(0);
    } else if (value instanceof Amf0EcmaArray) {
      this.u8(Amf0Marker.ecmaArray);
      this.u32(Object.keys(value.properties).length);
      this.properties(value.properties);
    } else if (Array.isArray(value)) {
      this.u8(Amf0Marker.strictArray);
      this.u32(value.length);
      for (const item of value as readonly Amf0Value[]) {
        this.value(item);
      }
    } else {
      this.u8(Amf0Marker.object);
      this.properties(value as Amf0Object);
    }
  }
}

/** Encodes values one after another (an RTMP command: name, transaction id, objects...). */
export function encodeAmf0(...values: readonly Amf0Value[]): Uint8Array {
  const writer = new Amf0Writer(256);
  for (const value of values) {
    writer.value(value);
  }
  return writer.bytes();
}
