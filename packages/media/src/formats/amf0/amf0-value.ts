/**
 * AMF0 value model (Action Message Format AMF0, Adobe, 2006): what the decoder returns and the
 * encoder accepts.
 */

/** An anonymous AMF0 object (type 0x03) or a typed object's properties, keyed by name. */
export interface Amf0Object {
  [key: string]: Amf0Value;
}

/** An AMF0 ECMA array (type 0x08): associative, encoded with a count hint. */
export class Amf0EcmaArray {
  /** `properties` keeps the pairs in wire order. */
  constructor(readonly properties: Amf0Object) {}
}

/** Any AMF0 value. `undefined` is AMF0 undefined, `null` is AMF0 null. */
export type Amf0Value =
  | number
  | boolean
  | string
  | null
  | undefined
  | Date
  | Amf0Object
  | Amf0EcmaArray
  | readonly Amf0Value[];

/** AMF0 type markers (AMF0 spec §2.1). */
export const Amf0Marker = {
  number: 0x00,
  boolean: 0x01,
  string: 0x02,
  object: 0x03,
  movieclip: 0x04,
  null: 0x05,
  undefined: 0x06,
  reference: 0x07,
  ecmaArray: 0x08,
  objectEnd: 0x09,
  strictArray: 0x0a,
  date: 0x0b,
  longString: 0x0c,
  unsupported: 0x0d,
  recordset: 0x0e,
  xmlDocument: 0x0f,
  typedObject: 0x10,
  avmplusObject: 0x11,
} as const;

/** Creates an AMF0 object with no prototype, so keys such as `__proto__` stay plain data. */
export function amf0Object(entries: Record<string, Amf0Value> = {}): Amf0Object {
  const object: Amf0Object = Object.create(null);
  for (const [key, value] of Object.entries(entries)) {
    object[key] = value;
  }
  return object;
}

/** True for a plain AMF0 object (not an array, date or ECMA array). */
export function isAmf0Object(value: Amf0Value): value is Amf0Object {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !(value instanceof Amf0EcmaArray)
  );
}

/** The properties of an object or ECMA array (how onMetaData and command objects are read), else undefined. */
export function amf0Properties(value: Amf0Value): Amf0Object | undefined {
  if (value instanceof Amf0EcmaArray) {
    return value.properties;
  }
  return isAmf0Object(value) ? value : undefined;
}
