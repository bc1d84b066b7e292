/**
 * ISO/IEC 14496-14 §5.6 `esds` box with the ISO/IEC 14496-1 §7.2.6 ES_Descriptor that carries an
 * AAC AudioSpecificConfig (objectTypeIndication 0x40, streamType audio).
 */
import { Fields, fullBox } from './box-writer.js';

const ES_DESCRIPTOR_TAG = 0x03;
const DECODER_CONFIG_DESCRIPTOR_TAG = 0x04;
const DECODER_SPECIFIC_INFO_TAG = 0x05;
const SL_CONFIG_DESCRIPTOR_TAG = 0x06;
const OBJECT_TYPE_AUDIO_ISO_14496_3 = 0x40;
const STREAM_TYPE_AUDIO = 0x05;

/** Builds an `esds` box for an AAC track from its AudioSpecificConfig and optional bitrate. */
export function esdsBox(trackId: number, audioSpecificConfig: Uint8Array, bitrate = 0): Uint8Array {
  const decoderSpecificInfo = descriptor(DECODER_SPECIFIC_INFO_TAG, audioSpecificConfig);
  const decoderConfig = descriptor(
    DECODER_CONFIG_DESCRIPTOR_TAG,
    new Fields()
      .u8(OBJECT_TYPE_AUDIO_ISO_14496_3)
      .u8((STREAM_TYPE_AUDIO << 2) | 1)
      .u24(0)
      .u32(bitrate)
      .u32(bitrate)
      .raw(decoderSpecificInfo)
      .bytes(),
  );
  const slConfig = descriptor(SL_CONFIG_DESCRIPTOR_TAG, Uint8Array.of(2));
  const esDescriptor = descriptor(
    ES_DESCRIPTOR_TAG,
    new Fields()
      .u16(trackId & 0xffff)
      .u8(0)
      .raw(decoderConfig)
      .raw(slConfig)
      .bytes(),
  );
  return fullBox('esds', 0, 0, esDescriptor);
}

/** One descriptor: tag, size in the 7-bits-per-byte expandable form, payload. */
function descriptor(tag: number, payload: Uint8Array): Uint8Array {
  const sizeBytes: number[] = [];
  let size = payload.length;
  do {
    sizeBytes.unshift(size & 0x7f);
    size >>>= 7;
  } while (size > 0);
  for (let i = 0; i < sizeBytes.length - 1; i++) {
    sizeBytes[i] = (sizeBytes[i] as number) | 0x80;
  }
  return new Fields().u8(tag).raw(Uint8Array.from(sizeBytes)).raw(payload).bytes();
}
