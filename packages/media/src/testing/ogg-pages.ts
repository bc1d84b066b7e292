/**
 * Test support: Ogg pages (RFC 3533 §6) written by hand, for tests of the Ogg reader and of what
 * reads Ogg. The CRC field is left zero: the reader does not check it.
 */

/** One Ogg page of logical stream `serial` holding the segments `lacing` describes, taken from `body`. */
export function oggPage(
  serial: number,
  granule: bigint,
  headerType: number,
  lacing: readonly number[],
  body: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(27 + lacing.length + body.length);
  const view = new DataView(out.buffer);
  out.set([0x4f, 0x67, 0x67, 0x53, 0, headerType]);
  view.setBigInt64(6, granule, true);
  view.setUint32(14, serial, true);
  out[26] = lacing.length;
  out.set(lacing, 27);
  out.set(body, 27 + lacing.length);
  return out;
}

/** `parts` one after the other. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
