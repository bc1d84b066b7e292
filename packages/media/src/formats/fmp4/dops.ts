/**
 * Opus in ISOBMFF (Encapsulation of Opus in ISO Base Media File Format, v0.8.1) §4.3.2 `dOps`
 * box, built from the RFC 7845 §5.1 OpusHead identification header a Track carries.
 */
import { parseOpusHead } from '../../codecs/opus.js';
import { box, Fields } from './box-writer.js';

/** Builds a `dOps` box from an OpusHead header (little-endian fields become big-endian). */
export function dOpsBox(opusHead: Uint8Array): Uint8Array {
  const head = parseOpusHead(opusHead);
  const fields = new Fields()
    .u8(0)
    .u8(head.channels)
    .u16(head.preSkip)
    .u32(head.inputSampleRate)
    .i16(head.outputGain)
    .u8(head.mappingFamily);
  if (head.mappingFamily !== 0) {
    fields
      .u8(head.streamCount ?? 0)
      .u8(head.coupledCount ?? 0)
      .raw(head.channelMapping ?? new Uint8Array(0));
  }
  return box('dOps', fields.bytes());
}
