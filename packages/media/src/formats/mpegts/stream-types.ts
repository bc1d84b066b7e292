/**
 * What an elementary stream of a program map carries: stream_type (ISO/IEC 13818-1 Table 2-34;
 * 0x81/0x87 of ATSC A/52 Annex A), registration descriptors (§2.6.8, format identifiers of the
 * SMPTE-RA: 'Opus', 'AC-3', 'EAC3', 'AV01', 'HEVC'), DVB AC-3/E-AC-3 descriptors (ETSI EN 300 468
 * 0x6A/0x7A) and the Opus extension descriptor (ETSI TS 102 366 style, Xiph "Opus in MPEG-TS" §6.1).
 */
import type { Descriptor, PmtEntry } from './psi-reader.js';

/** A stream the demuxer turns into a track. */
export type SupportedStream =
  | { readonly kind: 'h264' | 'h265' | 'adts' | 'latm' }
  | { readonly kind: 'opus'; readonly channels: number };

/** A stream the demuxer leaves out, with the reason users see. */
export interface UnsupportedStream {
  readonly kind: 'unsupported';
  readonly reason: string;
}

const REGISTRATION_DESCRIPTOR = 0x05;
const DVB_AC3_DESCRIPTOR = 0x6a;
const DVB_ENHANCED_AC3_DESCRIPTOR = 0x7a;
const DVB_EXTENSION_DESCRIPTOR = 0x7f;
const OPUS_EXTENSION_TAG = 0x80;
const TELETEXT_DESCRIPTORS = new Set([0x56, 0x46]);
const SUBTITLING_DESCRIPTOR = 0x59;

/** Names of stream types that are known but not carried into tracks. */
const UNSUPPORTED_TYPES: Readonly<Record<number, string>> = {
  1: 'MPEG-1 video',
  2: 'MPEG-2 video',
  3: 'MPEG-1 audio (MP2/MP3)',
  4: 'MPEG-2 audio (MP2/MP3)',
  5: 'private sections',
  11: 'DSM-CC',
  12: 'DSM-CC',
  13: 'DSM-CC',
  16: 'MPEG-4 Part 2 video',
  21: 'timed metadata',
  28: 'MPEG-4 audio without LATM',
  32: 'H.264 MVC sub-bitstream',
  33: 'JPEG 2000 video',
  66: 'AVS video',
  129: 'AC-3 audio',
  130: 'DTS audio',
  131: 'Dolby TrueHD audio',
  132: 'AC-3 Plus audio',
  134: 'SCTE-35 cue messages',
  135: 'E-AC-3 audio',
  209: 'Dirac video',
  234: 'VC-1 video',
};

function formatIdentifier(descriptors: readonly Descriptor[]): string | undefined {
  const registration = descriptors.find((d) => d.tag === REGISTRATION_DESCRIPTOR && d.data.length >= 4);
  return registration ? String.fromCharCode(...registration.data.subarray(0, 4)) : undefined;
}

function opusChannels(descriptors: readonly Descriptor[]): number | undefined {
  const extension = descriptors.find(
    (d) => d.tag === DVB_EXTENSION_DESCRIPTOR && d.data[0] === OPUS_EXTENSION_TAG && d.data.length >= 2,
  );
  return extension?.data[1];
}

/** Classifies one PMT entry; `programDescriptors` may hold a program-wide registration. */
export function classifyStream(
  entry: PmtEntry,
  programDescriptors: readonly Descriptor[],
): SupportedStream | UnsupportedStream {
  const type = entry.streamType;
  const hex = `0x${type.toString(16).padStart(2, '0')}`;
  const registration = formatIdentifier(entry.descriptors) ?? formatIdentifier(programDescriptors);
  if (type === 0x1b) {
    return { kind: 'h264' };
  }
  if (type === 0x24 || (type === 0x06 && registration === 'HEVC')) {
    return { kind: 'h265' };
  }
  if (type === 0x0f) {
    return { kind: 'adts' };
  }
  if (type === 0x11) {
    return { kind: 'latm' };
  }
  if (type === 0x06 && registration === 'Opus') {
    const channels = opusChannels(entry.descriptors) ?? 2;
    if (channels < 1 || channels > 2) {
      return {
        kind: 'unsupported',
        reason: `Opus with channel_config_code ${channels} (mono and stereo are supported)`,
      };
    }
    return { kind: 'opus', channels };
  }
  const ac3 =
    registration === 'AC-3' || entry.descriptors.some((d) => d.tag === DVB_AC3_DESCRIPTOR)
      ? 'AC-3 audio'
      : registration === 'EAC3' || entry.descriptors.some((d) => d.tag === DVB_ENHANCED_AC3_DESCRIPTOR)
        ? 'E-AC-3 audio'
        : undefined;
  const name =
    UNSUPPORTED_TYPES[type] ??
    (type === 0x06 ? ac3 : undefined) ??
    (type === 0x06 && registration === 'AV01' ? 'AV1 video' : undefined) ??
    (type === 0x06 && entry.descriptors.some((d) => TELETEXT_DESCRIPTORS.has(d.tag)) ? 'teletext' : undefined) ??
    (type === 0x06 && entry.descriptors.some((d) => d.tag === SUBTITLING_DESCRIPTOR) ? 'DVB subtitles' : undefined);
  const what = name ?? (registration ? `private data '${registration}'` : 'an unknown stream type');
  return {
    kind: 'unsupported',
    reason: `${what} (stream_type ${hex}) is not supported (H.264, H.265, AAC in ADTS or LATM, and Opus are); the stream is left out`,
  };
}
