/**
 * H.264 (ISO/IEC 13818-1 §2.14, stream_type 0x1B) and H.265 (§2.17, stream_type 0x24) elementary
 * streams: each PES payload is one Annex B access unit (ITU-T H.264 Annex B, H.265 Annex B), as
 * every encoder that feeds SRT/UDP writes them. Parameter sets (H.264 §7.3.2.1-2, H.265 §7.3.2.1-3)
 * become the avcC/hvcC of the track (ISO/IEC 14496-15) and are taken out of the units, together
 * with access unit delimiters and filler data, so the units suit `avc1`/`hvc1` sample entries.
 */
import { bytesEqual } from '../../bits/bytes.js';
import { buildAvcC, describeAvcC, H264_NAL, nalType as h264NalType } from '../../codecs/h264.js';
import { buildHvcC, describeHvcC, H265_NAL, nalType as h265NalType, isKeyframeNal } from '../../codecs/h265.js';
import { splitAnnexB, toLengthPrefixed } from '../../codecs/nal.js';
import type { ParameterSetDescription } from '../../codecs/parameter-sets.js';
import { ParseError, UnsupportedError } from '../../errors.js';
import { VIDEO_TIMESCALE, type VideoTrack } from '../../stream/track.js';
import type { EsOutput, EsReader } from './es-reader.js';

/** What one NAL unit is to the reader. */
enum Role {
  /** Parameter set list 0/1/2 (VPS, SPS, PPS for H.265; SPS, PPS for H.264). */
  Set0 = 0,
  Set1 = 1,
  Set2 = 2,
  Picture,
  KeyPicture,
  Dropped,
  Other,
}

/** How one codec names its NAL units and builds its decoder configuration record. */
interface Syntax {
  readonly codec: 'h264' | 'h265';
  /** How many parameter set lists the record holds. */
  readonly setLists: number;
  role(nal: Uint8Array): Role;
  record(sets: readonly (readonly Uint8Array[])[]): Uint8Array;
  describe(record: Uint8Array): ParameterSetDescription;
}

const H264_FILLER = 12;
const H265_FILLER = 38;

const H264_SYNTAX: Syntax = {
  codec: 'h264',
  setLists: 2,
  role(nal) {
    const type = h264NalType(nal);
    if (type === H264_NAL.sps) {
      return Role.Set0;
    }
    if (type === H264_NAL.pps) {
      return Role.Set1;
    }
    if (type === H264_NAL.idr) {
      return Role.KeyPicture;
    }
    if (type >= 1 && type <= 4) {
      return Role.Picture;
    }
    if (type === H264_NAL.aud || type === H264_FILLER) {
      return Role.Dropped;
    }
    return Role.Other;
  },
  record: ([sps = [], pps = []]) => buildAvcC(sps, pps),
  describe: describeAvcC,
};

const H265_SYNTAX: Syntax = {
  codec: 'h265',
  setLists: 3,
  role(nal) {
    const type = h265NalType(nal);
    if (type === H265_NAL.vps) {
      return Role.Set0;
    }
    if (type === H265_NAL.sps) {
      return Role.Set1;
    }
    if (type === H265_NAL.pps) {
      return Role.Set2;
    }
    if (type < 32) {
      return isKeyframeNal(type) ? Role.KeyPicture : Role.Picture;
    }
    if (type === H265_NAL.aud || type === H265_FILLER) {
      return Role.Dropped;
    }
    return Role.Other;
  },
  record: ([vps = [], sps = [], pps = []]) => buildHvcC(vps, sps, pps),
  describe: describeHvcC,
};

function sameList(a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean {
  return a.length === b.length && a.every((nal, index) => bytesEqual(nal, b[index] as Uint8Array));
}

/** Reads an H.264 or H.265 elementary stream into one video track. */
export class AnnexBEsReader implements EsReader {
  private readonly syntax: Syntax;
  private sets: Uint8Array[][];
  private current: VideoTrack | undefined;
  private lastDts: number | undefined;
  private lastStep = 3000;

  constructor(
    codec: 'h264' | 'h265',
    private readonly trackId: number,
  ) {
    this.syntax = codec === 'h264' ? H264_SYNTAX : H265_SYNTAX;
    this.sets = Array.from({ length: this.syntax.setLists }, () => []);
  }

  /** Converts one access unit; parameter sets that differ from the current ones announce a new track first. */
  pes(payload: Uint8Array, pts: number | undefined, dts: number | undefined, out: EsOutput): void {
    let nals: Uint8Array[];
    try {
      nals = splitAnnexB(payload);
    } catch {
      out.drop(`${this.syntax.codec} PES payload without an Annex B start code`);
      return;
    }
    let sets: Uint8Array[][] | undefined;
    const kept: Uint8Array[] = [];
    let pictures = 0;
    let key = false;
    for (const nal of nals) {
      const role = this.syntax.role(nal);
      if (role <= Role.Set2) {
        sets ??= Array.from({ length: this.syntax.setLists }, () => []);
        const list = sets[role] as Uint8Array[];
        if (!list.some((known) => bytesEqual(known, nal))) {
          list.push(nal);
        }
      } else if (role === Role.Picture || role === Role.KeyPicture) {
        pictures++;
        key ||= role === Role.KeyPicture;
        kept.push(nal);
      } else if (role === Role.Other) {
        kept.push(nal);
      }
    }
    if (sets) {
      this.updateSets(sets, out);
    }
    const track = this.current;
    if (!track) {
      out.drop(`${this.syntax.codec} access unit before the first parameter sets`);
      return;
    }
    if (pictures === 0) {
      out.drop(`${this.syntax.codec} PES payload without a picture`);
      return;
    }
    const decode = dts ?? (this.lastDts === undefined ? undefined : this.lastDts + this.lastStep);
    if (decode === undefined) {
      out.drop(`${this.syntax.codec} access unit without a timestamp`);
      return;
    }
    if (this.lastDts !== undefined && decode > this.lastDts) {
      this.lastStep = decode - this.lastDts;
    }
    this.lastDts = decode;
    out.unit({ trackId: this.trackId, dts: decode, pts: pts ?? decode, key, data: toLengthPrefixed(kept) });
  }

  /** Takes the parameter sets of one access unit; a changed set rebuilds the track. */
  private updateSets(found: Uint8Array[][], out: EsOutput): void {
    const next = this.sets.map((list, index) => {
      const seen = found[index] as Uint8Array[];
      return seen.length > 0 ? seen : list;
    });
    if (this.current && next.every((list, index) => sameList(list, this.sets[index] as Uint8Array[]))) {
      return;
    }
    if (next.some((list) => list.length === 0)) {
      this.sets = next.map((list) => list.map((nal) => nal.slice()));
      return;
    }
    try {
      const config = this.syntax.record(next);
      const d = this.syntax.describe(config);
      this.sets = next.map((list) => list.map((nal) => nal.slice()));
      this.current = {
        kind: 'video',
        id: this.trackId,
        codec: this.syntax.codec,
        timescale: VIDEO_TIMESCALE,
        config,
        codecString: d.codecString,
        width: d.width,
        height: d.height,
        ...(d.fps === undefined ? {} : { fps: d.fps }),
      };
      out.track(this.current);
    } catch (error) {
      if (!(error instanceof ParseError || error instanceof UnsupportedError)) {
        throw error;
      }
      out.drop(`${this.syntax.codec} parameter sets refused: ${error.message}`);
    }
  }
}
