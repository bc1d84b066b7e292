/**
 * Opus in MPEG-2 transport streams per the Xiph.Org "Opus in MPEG-TS" encapsulation (stream_type
 * 0x06 in private_stream_1): PMT registration descriptor 'Opus' plus the DVB extension descriptor
 * (tag 0x7F, extension 0x80) carrying channel_config_code, and the opus_control_header that
 * precedes each Opus packet in a PES payload.
 */
import type { OpusHead } from '../../codecs/opus.js';
import { UnsupportedError } from '../../errors.js';

const REGISTRATION_DESCRIPTOR_TAG = 0x05;
const EXTENSION_DESCRIPTOR_TAG = 0x7f;
const OPUS_AUDIO_DESCRIPTOR_TAG = 0x80;
const OPUS_FORMAT_IDENTIFIER = [0x4f, 0x70, 0x75, 0x73] as const;
const CONTROL_HEADER_PREFIX = [0x7f, 0xe0] as const;

/** ES_info descriptors of an Opus elementary stream (mapping family 0: mono or stereo). */
export function opusDescriptors(head: OpusHead): Uint8Array {
  const channels = head.channels;
  if (head.mappingFamily !== 0) {
    throw new UnsupportedError(
      `Opus in MPEG-TS supports channel mapping family 0 (mono, stereo), got family ${head.mappingFamily}`,
    );
  }
  return Uint8Array.of(
    REGISTRATION_DESCRIPTOR_TAG,
    4,
    ...OPUS_FORMAT_IDENTIFIER,
    EXTENSION_DESCRIPTOR_TAG,
    2,
    OPUS_AUDIO_DESCRIPTOR_TAG,
    channels,
  );
}

/** Length of the opus_control_header for one packet of `size` bytes. */
export function opusControlHeaderLength(size: number): number {
  return CONTROL_HEADER_PREFIX.length + Math.floor(size / 255) + 1;
}

/**
 * Writes the opus_control_header for one packet of `size` bytes (no trim or extension fields) into
 * `out` at `offset` and returns the offset after it.
 */
export function writeOpusControlHeader(out: Uint8Array, offset: number, size: number): number {
  const end = offset + opusControlHeaderLength(size);
  out[offset] = CONTROL_HEADER_PREFIX[0];
  out[offset + 1] = CONTROL_HEADER_PREFIX[1];
  out.fill(0xff, offset + CONTROL_HEADER_PREFIX.length, end - 1);
  out[end - 1] = size % 255;
  return end;
}

/** The opus_control_header for one packet of `size` bytes, without trim or extension fields. */
export function opusControlHeader(size: number): Uint8Array {
  const out = new Uint8Array(opusControlHeaderLength(size));
  writeOpusControlHeader(out, 0, size);
  return out;
}
