/**
 * H.264 (ISO/IEC 13818-1 §2.14, stream_type 0x1B) and H.265 (§2.17, stream_type 0x24) elementary
 * streams: each PES payload is one Annex B access unit (ITU-T H.264 Annex B, H.265 Annex B), as
 * every encoder that feeds SRT/UDP writes them. Parameter sets (H.264 §7.3.2.1-2, H.265 §7.3.2.1-3)
 * become the avcC/hvcC of the track (ISO/IEC 14496-15) and are taken out of the units, together
 * with access unit delimiters and filler data, so the units suit `avc1`/`hvc1` sample entries.
 */
import { bytesEqual } from '../../bits/bytes.js';
import { buildAvcC, describeAvcC, H264_NAL } from '../../codecs/h264.js';
import { buildHvcC, describeHvcC, H265_NAL, isKeyframeNal } from '../../codecs/h265.js';
import { annexBRanges, writeLengthPrefixed } from '../../codecs/nal.js';
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
  /** The role of the NAL unit at `data[start, end)` (one too short for its header is dropped). */
  role(data: Uint8Array, start: number, end: number): Role;
  record(sets: readonly (readonly Uint8Array[])[]): Uint8Array;
  describe(record: Uint8Array): ParameterSetDescription;
}

const H264_FILLER = 12;
const H265_FILLER = 38;

const H264_SYNTAX: Syntax = {
  codec: 'h264',
  setLists: 2,
  role(data, start) {
    const type = (data[start] as number) & 0x1f;
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
  role(data, start, end) {
    if (end - start < 2) {
      return Role.Dropped;
    }
    const type = ((data[start] as number) >>> 1) & 0x3f;
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
  /** NAL unit offsets of the access unit being read (reused). */
  private readonly ranges: number[] = [];

  constructor(
    codec: 'h264' | 'h265',
    private readonly trackId: number,
  ) {
    this.syntax = codec === 'h264' ? H264_SYNTAX : H265_SYNTAX;
    this.sets = Array.from({ length: this.syntax.setLists }, () => []);
  }

  /** Converts one access unit; parameter sets that differ from the current ones announce a new track first. */
  pes(payload: Uint8Array, pts: number | undefined, dts: number | undefined, out: EsOutput): void {
    const ranges = this.ranges;
    let count: number;
    try {
      count = annexBRanges(payload, ranges);
    } catch {
      out.drop(`${this.syntax.codec} PES payload without an Annex B start code`);
      return;
    }
    let sets: Uint8Array[][] | undefined;
    let size = 0;
    let pictures = 0;
    let key = false;
    for (let i = 0; i < count; i++) {
      const start = ranges[2 * i] as number;
      const end = ranges[2 * i + 1] as number;
      const role = this.syntax.role(payload, start, end);
      if (role <= Role.Set2) {
        sets ??= Array.from({ length: this.syntax.setLists }, () => []);
        const list = sets[role] as Uint8Array[];
        const nal = payload.subarray(start, end);
        if (!list.some((known) => bytesEqual(known, nal))) {
          list.push(nal);
        }
        ranges[2 * i + 1] = start;
      } else if (role === Role.Picture || role === Role.KeyPicture || role === Role.Other) {
        if (role !== Role.Other) {
          pictures++;
          key ||= role === Role.KeyPicture;
        }
        size += 4 + end - start;
      } else {
        ranges[2 * i + 1] = start;
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
    // The kept NAL units (ranges not emptied above), length-prefixed into one new sample.
    const data = out.bytes?.(size) ?? new Uint8Array(size);
    let at = 0;
    for (let i = 0; i < count; i++) {
      const start = ranges[2 * i] as number;
      const end = ranges[2 * i + 1] as number;
      if (end > start) {
        at = writeLengthPrefixed(data, at, payload, start, end);
      }
    }
    out.unit({ trackId: this.trackId, dts: decode, pts: pts ?? decode, key, data });
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
