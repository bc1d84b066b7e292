/**
 * Opus in ISOBMFF (Encapsulation of Opus in ISO Base Media File Format, v0.8.1) §4.3.2 `dOps`
 * box, built from the RFC 7845 §5.1 OpusHead identification header a Track carries.
 */
import { ParseError } from '../../errors.js';
import { box, Fields } from './box-writer.js';

const OPUS_HEAD_MAGIC = 'OpusHead';
const OPUS_HEAD_MIN_SIZE = 19;

/** Builds a `dOps` box from an OpusHead header (little-endian fields become big-endian). */
export function dOpsBox(opusHead: Uint8Array): Uint8Array {
  if (opusHead.length < OPUS_HEAD_MIN_SIZE) {
    throw new ParseError(`OpusHead needs ${OPUS_HEAD_MIN_SIZE} bytes, got ${opusHead.length}`);
  }
  for (let i = 0; i < OPUS_HEAD_MAGIC.length; i++) {
    if (opusHead[i] !== OPUS_HEAD_MAGIC.charCodeAt(i)) {
      throw new ParseError('OpusHead magic signature missing', i);
    }
  }
  const view = new DataView(opusHead.buffer, opusHead.byteOffset, opusHead.byteLength);
  const channels = view.getUint8(9);
  const mappingFamily = view.getUint8(18);
  const fields = new Fields()
    .u8(0)
    .u8(channels)
    .u16(view.getUint16(10, true))
    .u32(view.getUint32(12, true))
    .i16(view.getInt16(16, true))
    .u8(mappingFamily);
  if (mappingFamily !== 0) {
    const tableEnd = OPUS_HEAD_MIN_SIZE + 2 + channels;
    if (opusHead.length < tableEnd) {
      throw new ParseError(`OpusHead with mapping family ${mappingFamily} needs ${tableEnd} bytes`, opusHead.length);
    }
    fields.raw(opusHead.subarray(OPUS_HEAD_MIN_SIZE, tableEnd));
  }
  return box('dOps', fields.bytes());
}
