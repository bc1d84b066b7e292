/**
 * Reads sample timing out of fragmented MP4 (ISO/IEC 14496-12 §8.8: moof/traf with tfhd, tfdt,
 * trun) as it arrives, so a benchmark client knows which decode times a part, segment or fragment
 * delivered. Also finds the video track id in an init segment (moov/trak tkhd + hdlr `vide`).
 */
import { findBoxes, type IsoBox, readBoxes, viewOf } from '@airwave/media/testing/iso-boxes';

/** The samples of one track in one movie fragment. */
export interface TrafTiming {
  readonly trackId: number;
  /** tfdt baseMediaDecodeTime. */
  readonly baseDecodeTime: number;
  /** Duration of each sample in the track's timescale. */
  readonly durations: readonly number[];
}

/** Timing of every traf in the moof boxes of `data`. */
export function fragmentTiming(data: Uint8Array): TrafTiming[] {
  return findBoxes(data, 'moof/traf').map((traf) => trafTiming(traf));
}

function trafTiming(traf: IsoBox): TrafTiming {
  const inner = readBoxes(traf.payload);
  const box = (type: string): DataView => {
    const found = inner.find((candidate) => candidate.type === type);
    if (!found) {
      throw new Error(`traf without ${type}`);
    }
    return viewOf(found);
  };
  const tfhd = box('tfhd');
  const tfhdFlags = tfhd.getUint32(0) & 0xffffff;
  const trackId = tfhd.getUint32(4);
  let at = 8;
  at += tfhdFlags & 0x01 ? 8 : 0;
  at += tfhdFlags & 0x02 ? 4 : 0;
  const defaultDuration = tfhdFlags & 0x08 ? tfhd.getUint32(at) : 0;
  const tfdt = box('tfdt');
  const baseDecodeTime = tfdt.getUint8(0) === 1 ? Number(tfdt.getBigUint64(4)) : tfdt.getUint32(4);
  const durations: number[] = [];
  for (const trun of inner.filter((candidate) => candidate.type === 'trun').map(viewOf)) {
    const flags = trun.getUint32(0) & 0xffffff;
    const count = trun.getUint32(4);
    let offset = 8 + (flags & 0x01 ? 4 : 0) + (flags & 0x04 ? 4 : 0);
    const perSample = [0x100, 0x200, 0x400, 0x800].filter((bit) => flags & bit).length * 4;
    for (let i = 0; i < count; i++) {
      durations.push(flags & 0x100 ? trun.getUint32(offset) : defaultDuration);
      offset += perSample;
    }
  }
  return { trackId, baseDecodeTime, durations };
}

/** Decode time of each sample of a traf. */
export function sampleTimes(traf: TrafTiming): number[] {
  const times: number[] = [];
  let time = traf.baseDecodeTime;
  for (const duration of traf.durations) {
    times.push(time);
    time += duration;
  }
  return times;
}

/** Track id of the video track of an init segment (moov with one trak per track). */
export function videoTrackId(init: Uint8Array): number | undefined {
  for (const trak of findBoxes(init, 'moov/trak')) {
    const handler = findBoxes(trak.payload, 'mdia/hdlr')[0];
    const tkhd = findBoxes(trak.payload, 'tkhd')[0];
    if (!handler || !tkhd) {
      continue;
    }
    const type = String.fromCharCode(...handler.payload.subarray(8, 12));
    if (type === 'vide') {
      const view = viewOf(tkhd);
      return view.getUint8(0) === 1 ? view.getUint32(20) : view.getUint32(12);
    }
  }
  return undefined;
}

/** Splits an endless fMP4 byte stream into top-level boxes as they complete. */
export class BoxStream {
  private pending = new Uint8Array(0);

  /** Appends bytes and returns the boxes now complete (type and whole box bytes). */
  push(chunk: Uint8Array): { type: string; bytes: Uint8Array }[] {
    const joined = new Uint8Array(this.pending.length + chunk.length);
    joined.set(this.pending);
    joined.set(chunk, this.pending.length);
    const out: { type: string; bytes: Uint8Array }[] = [];
    let offset = 0;
    while (joined.length - offset >= 8) {
      const view = new DataView(joined.buffer, joined.byteOffset + offset, 8);
      const size = view.getUint32(0);
      if (size < 8) {
        throw new Error(`box of size ${size} in the stream`);
      }
      if (joined.length - offset < size) {
        break;
      }
      out.push({
        type: String.fromCharCode(...joined.subarray(offset + 4, offset + 8)),
        bytes: joined.subarray(offset, offset + size),
      });
      offset += size;
    }
    this.pending = joined.slice(offset);
    return out;
  }
}
