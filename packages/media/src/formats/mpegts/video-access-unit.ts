/**
 * H.264 (ISO/IEC 13818-1 §2.14) and H.265 (§2.17) access units as an MPEG-TS video elementary
 * stream carries them: Annex B byte stream starting with an access unit delimiter, with the
 * parameter sets of the decoder configuration record repeated before every keyframe.
 */
import { H264_NAL, nalType as h264NalType, parseAvcC } from '../../codecs/h264.js';
import { H265_NAL, nalType as h265NalType, parseHvcC } from '../../codecs/h265.js';
import { toAnnexB, toLengthPrefixed } from '../../codecs/nal.js';
import { ParseError } from '../../errors.js';

/** H.264 AUD with primary_pic_type 7 (any slice type), H.264 §7.3.2.4. */
const H264_AUD = Uint8Array.of(0, 0, 0, 1, 0x09, 0xf0);
/** H.265 AUD with pic_type 2 (I, P and B slices), H.265 §7.3.2.5. */
const H265_AUD = Uint8Array.of(0, 0, 0, 1, 0x46, 0x01, 0x50);
const LENGTH_SIZE = 4;

/** Converts AVCC/HVCC MediaUnit payloads of one track into Annex B access units. */
export class AnnexBAccessUnits {
  private readonly aud: Uint8Array;
  private readonly parameterSets: Uint8Array;
  private readonly isAud: (nal: Uint8Array) => boolean;

  /** `config` is the avcC (h264) or hvcC (h265) record of the track. */
  constructor(codec: 'h264' | 'h265', config: Uint8Array) {
    if (codec === 'h264') {
      const avcC = parseAvcC(config);
      this.aud = H264_AUD;
      this.parameterSets = toAnnexB(toLengthPrefixed([...avcC.sps, ...avcC.pps]));
      this.isAud = (nal) => h264NalType(nal) === H264_NAL.aud;
    } else {
      const hvcC = parseHvcC(config);
      this.aud = H265_AUD;
      this.parameterSets = toAnnexB(toLengthPrefixed([...hvcC.vps, ...hvcC.sps, ...hvcC.pps]));
      this.isAud = (nal) => h265NalType(nal) === H265_NAL.aud;
    }
  }

  /**
   * Bytes the Annex B access unit of `lengthPrefixed` takes: our AUD (replacing a leading AUD of
   * the unit), the parameter sets when `key`, then each NAL unit with a 4-byte start code in place
   * of its 4-byte length. Throws ParseError for a truncated or zero length (nothing is written then).
   */
  sizeOf(lengthPrefixed: Uint8Array, key: boolean): number {
    const from = this.bodyStart(lengthPrefixed);
    let offset = from;
    while (offset < lengthPrefixed.length) {
      if (offset + LENGTH_SIZE > lengthPrefixed.length) {
        throw new ParseError(`truncated ${LENGTH_SIZE}-byte NAL length`, offset);
      }
      const length = readLength(lengthPrefixed, offset);
      if (length === 0) {
        throw new ParseError('zero-length NAL unit', offset);
      }
      offset += LENGTH_SIZE + length;
      if (offset > lengthPrefixed.length) {
        throw new ParseError(`NAL unit of ${length} bytes overruns the sample`, offset - length - LENGTH_SIZE);
      }
    }
    return this.aud.length + (key ? this.parameterSets.length : 0) + lengthPrefixed.length - from;
  }

  /**
   * Writes the access unit sizeOf() measured (and accepted) into `out` at `offset`: the NAL units
   * are copied in one piece and their lengths then overwritten with start codes. Returns the offset
   * after it.
   */
  writeTo(lengthPrefixed: Uint8Array, key: boolean, out: Uint8Array, offset: number): number {
    let at = offset;
    out.set(this.aud, at);
    at += this.aud.length;
    if (key) {
      out.set(this.parameterSets, at);
      at += this.parameterSets.length;
    }
    const from = this.bodyStart(lengthPrefixed);
    out.set(from === 0 ? lengthPrefixed : lengthPrefixed.subarray(from), at);
    const end = at + lengthPrefixed.length - from;
    while (at < end) {
      const length = readLength(out, at);
      out[at] = 0;
      out[at + 1] = 0;
      out[at + 2] = 0;
      out[at + 3] = 1;
      at += LENGTH_SIZE + length;
    }
    return end;
  }

  /** Where the NAL units to carry start: after a leading AUD, which ours replaces. */
  private bodyStart(lengthPrefixed: Uint8Array): number {
    if (lengthPrefixed.length <= LENGTH_SIZE) {
      return 0;
    }
    const end = Math.min(lengthPrefixed.length, LENGTH_SIZE + readLength(lengthPrefixed, 0));
    if (end === LENGTH_SIZE || !this.isAud(lengthPrefixed.subarray(LENGTH_SIZE, end))) {
      return 0;
    }
    return end;
  }
}

/** The 4-byte big-endian NAL unit length at `offset`. */
function readLength(data: Uint8Array, offset: number): number {
  return (
    (data[offset] as number) * 0x1000000 +
    (((data[offset + 1] as number) << 16) | ((data[offset + 2] as number) << 8) | (data[offset + 3] as number))
  );
}
