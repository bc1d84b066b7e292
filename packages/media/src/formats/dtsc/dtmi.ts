/**
 * DTMI, the typed binary values inside DTSC packets (MistServer `lib/json.cpp` toPacked/fromDTMI,
 * `lib/dtsc.cpp` Scan — read as the format description, not copied). Each value starts with a
 * type byte: 0x01 integer (8 bytes, big-endian, signed), 0x02 string (4-byte length, raw bytes),
 * 0x03 null, 0x04 double (8 bytes), 0xE0 or 0xFF object (members of 2-byte name length, name,
 * value; ended by 0x00 0x00 0xEE), 0x0A array (values; ended by 0x00 0x00 0xEE).
 */
import { ByteCursor } from '../../bits/byte-cursor.js';
import { concatBytes } from '../../bits/bytes.js';
import { ParseError } from '../../errors.js';

/** A decoded DTMI value: strings stay bytes (DTSC carries binary data and text alike). */
export type DtmiValue = number | Uint8Array | null | DtmiObject | readonly DtmiValue[];

/** A DTMI object: member names to values, in wire order. */
export type DtmiObject = ReadonlyMap<string, DtmiValue>;

/** Deepest nesting accepted (the DTSC header nests four levels). */
export const DTMI_MAX_DEPTH = 16;
/** Most members or entries one object or array may hold. */
export const DTMI_MAX_ENTRIES = 100_000;

const TYPE = { int: 0x01, string: 0x02, null: 0x03, double: 0x04, object: 0xe0, array: 0x0a, container: 0xff } as const;
const text = new TextDecoder('utf-8', { fatal: false });
const encoder = new TextEncoder();

/** Decodes the one value at the start of `bytes`; returns it and the bytes it took. */
export function decodeDtmi(bytes: Uint8Array, offset = 0): { value: DtmiValue; end: number } {
  const cursor = new ByteCursor(bytes, 'DTMI', offset);
  const value = readValue(cursor, 0);
  return { value, end: cursor.offset };
}

function readValue(cursor: ByteCursor, depth: number): DtmiValue {
  const at = cursor.offset;
  const type = cursor.u8('type');
  switch (type) {
    case TYPE.int: {
      const high = cursor.u32('integer');
      const low = cursor.u32('integer');
      return toSafeNumber(high, low);
    }
    case TYPE.string:
      return cursor.take(cursor.u32('string length'), 'string');
    case TYPE.null:
      return null;
    case TYPE.double:
      return cursor.f64('double');
    case TYPE.object:
    case TYPE.container:
      return readObject(cursor, depth + 1, at);
    case TYPE.array:
      return readArray(cursor, depth + 1, at);
    default:
      throw new ParseError(`DTMI: unknown value type 0x${type.toString(16)}`, at);
  }
}

function toSafeNumber(high: number, low: number): number {
  const signed = high >= 0x80000000 ? high - 0x100000000 : high;
  return signed * 0x100000000 + low;
}

function checkDepth(depth: number, at: number): void {
  if (depth > DTMI_MAX_DEPTH) {
    throw new ParseError(`DTMI: nested deeper than ${DTMI_MAX_DEPTH} levels`, at);
  }
}

/** True (and consumed) when the cursor is at the 0x00 0x00 0xEE end marker. */
function atEnd(cursor: ByteCursor): boolean {
  cursor.need(2, 'member');
  const { bytes, offset } = cursor;
  if (bytes[offset] !== 0 || bytes[offset + 1] !== 0) {
    return false;
  }
  cursor.skip(2, 'end marker');
  const marker = cursor.u8('end marker');
  if (marker !== 0xee) {
    throw new ParseError(`DTMI: end marker 0x0000${marker.toString(16)} is not 0x0000ee`, cursor.offset - 3);
  }
  return true;
}

function readObject(cursor: ByteCursor, depth: number, at: number): DtmiObject {
  checkDepth(depth, at);
  const members = new Map<string, DtmiValue>();
  let count = 0;
  while (!atEnd(cursor)) {
    if (++count > DTMI_MAX_ENTRIES) {
      throw new ParseError(`DTMI: object with more than ${DTMI_MAX_ENTRIES} members`, at);
    }
    const name = text.decode(cursor.take(cursor.u16('member name length'), 'member name'));
    members.set(name, readValue(cursor, depth));
  }
  return members;
}

function readArray(cursor: ByteCursor, depth: number, at: number): DtmiValue[] {
  checkDepth(depth, at);
  const values: DtmiValue[] = [];
  while (!atEnd(cursor)) {
    if (values.length >= DTMI_MAX_ENTRIES) {
      throw new ParseError(`DTMI: array with more than ${DTMI_MAX_ENTRIES} entries`, at);
    }
    values.push(readValue(cursor, depth));
  }
  return values;
}

/** A value to encode: plain objects and strings are accepted for convenience. */
export type DtmiInput =
  | number
  | boolean
  | string
  | Uint8Array
  | null
  | readonly DtmiInput[]
  | ReadonlyMap<string, DtmiInput>
  | { readonly [name: string]: DtmiInput | undefined };

/** Encodes a value (integers as 0x01, other numbers as doubles, booleans as 0/1, text as UTF-8). */
export function encodeDtmi(value: DtmiInput): Uint8Array {
  const parts: Uint8Array[] = [];
  writeValue(value, parts);
  return concatBytes(parts);
}

const END = Uint8Array.of(0, 0, 0xee);

function writeValue(value: DtmiInput, parts: Uint8Array[]): void {
  if (value === null) {
    parts.push(Uint8Array.of(TYPE.null));
  } else if (typeof value === 'boolean' || typeof value === 'number') {
    const number = typeof value === 'boolean' ? Number(value) : value;
    const out = new Uint8Array(9);
    const view = new DataView(out.buffer);
    if (Number.isSafeInteger(number)) {
      out[0] = TYPE.int;
      view.setBigInt64(1, BigInt(number));
    } else {
      out[0] = TYPE.double;
      view.setFloat64(1, number);
    }
    parts.push(out);
  } else if (typeof value === 'string' || value instanceof Uint8Array) {
    const bytes = typeof value === 'string' ? encoder.encode(value) : value;
    const head = new Uint8Array(5);
    head[0] = TYPE.string;
    new DataView(head.buffer).setUint32(1, bytes.byteLength);
    parts.push(head, bytes);
  } else if (Array.isArray(value)) {
    parts.push(Uint8Array.of(TYPE.array));
    for (const entry of value as readonly DtmiInput[]) {
      writeValue(entry, parts);
    }
    parts.push(END);
  } else {
    parts.push(Uint8Array.of(TYPE.object));
    const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
    for (const [name, member] of entries) {
      if (member === undefined || name === '') {
        continue;
      }
      const nameBytes = encoder.encode(name);
      parts.push(Uint8Array.of(nameBytes.byteLength >> 8, nameBytes.byteLength & 0xff), nameBytes);
      writeValue(member as DtmiInput, parts);
    }
    parts.push(END);
  }
}

/** Reading helpers over a decoded object: absent or mistyped members read as undefined. */
export const dtmi = {
  /** The member as an object. */
  object(value: DtmiValue | undefined, name: string): DtmiObject | undefined {
    const member = value instanceof Map ? value.get(name) : undefined;
    return member instanceof Map ? member : undefined;
  },
  /** The member as a number. */
  number(value: DtmiValue | undefined, name: string): number | undefined {
    const member = value instanceof Map ? value.get(name) : undefined;
    return typeof member === 'number' ? member : undefined;
  },
  /** The member as bytes. */
  bytes(value: DtmiValue | undefined, name: string): Uint8Array | undefined {
    const member = value instanceof Map ? value.get(name) : undefined;
    return member instanceof Uint8Array ? member : undefined;
  },
  /** The member as UTF-8 text. */
  text(value: DtmiValue | undefined, name: string): string | undefined {
    const member = dtmi.bytes(value, name);
    return member === undefined ? undefined : text.decode(member);
  },
};
