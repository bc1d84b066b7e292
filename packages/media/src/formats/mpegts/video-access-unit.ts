/**
 * H.264 (ISO/IEC 13818-1 §2.14) and H.265 (§2.17) access units as an MPEG-TS video elementary
 * stream carries them: Annex B byte stream starting with an access unit delimiter, with the
 * parameter sets of the decoder configuration record repeated before every keyframe.
 */
import { H264_NAL, nalType as h264NalType, parseAvcC } from '../../codecs/h264.js';
import { H265_NAL, nalType as h265NalType, parseHvcC } from '../../codecs/h265.js';
import { splitLengthPrefixed, toAnnexB, toLengthPrefixed } from '../../codecs/nal.js';

/** H.264 AUD with primary_pic_type 7 (any slice type), H.264 §7.3.2.4. */
const H264_AUD = Uint8Array.of(0, 0, 0, 1, 0x09, 0xf0);
/** H.265 AUD with pic_type 2 (I, P and B slices), H.265 §7.3.2.5. */
const H265_AUD = Uint8Array.of(0, 0, 0, 1, 0x46, 0x01, 0x50);
const LENGTH_SIZE = 4;
/** The 4-byte Annex B start code (B.1.1) put before each NAL unit, as toAnnexB does. */
const START_CODE = Uint8Array.of(0, 0, 0, 1);

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
   * The parts of one Annex B access unit: our AUD (replacing a leading AUD of the unit), the
   * parameter sets when `key`, then a start code and a view of each of the unit's NAL units
   * (the bytes are copied once, into the transport stream packets).
   */
  convert(lengthPrefixed: Uint8Array, key: boolean): Uint8Array[] {
    let body = lengthPrefixed;
    if (body.length > LENGTH_SIZE) {
      const firstLength =
        (body[0] as number) * 0x1000000 +
        (((body[1] as number) << 16) | ((body[2] as number) << 8) | (body[3] as number));
      const first = body.subarray(LENGTH_SIZE, LENGTH_SIZE + firstLength);
      if (first.length > 0 && this.isAud(first)) {
        body = body.subarray(LENGTH_SIZE + firstLength);
      }
    }
    const parts = key ? [this.aud, this.parameterSets] : [this.aud];
    for (const nal of splitLengthPrefixed(body, LENGTH_SIZE)) {
      parts.push(START_CODE, nal);
    }
    return parts;
  }
}
