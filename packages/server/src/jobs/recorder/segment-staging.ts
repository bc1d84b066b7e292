/**
 * Recorded segments staged while their units are hot (ADR 0086): each unit's bytes are copied into
 * its track's page-aligned memory as it arrives, after room kept for the appender's carried
 * partial block and for the segment's boxes. When the segment closes, its styp, a `free` box
 * filling the room the boxes do not need, and its moof + mdat header are written in front of the
 * samples, and the memory goes to the pack's direct write as it is: no second pass over samples
 * that arrived up to 2 s before. A segment whose samples are not the staged units (a discarded
 * GOP, several parts, boxes larger than the room, the memory still being written) goes the cold
 * way (its pieces), and the staging lines up again on the units after it.
 */
import type { CmafSegment, CmafTrackName } from '@airwave/media/protocols/shared/cmaf/cmaf-types';
import { GrowableAligned } from '../../storage/aligned-buffers.js';
import { DIRECT_BLOCK } from '../../storage/direct-appends.js';

/** A staged segment for ObjectAppender.appendAligned: `length` bytes at `block[tailLength…]`. */
export interface StagedSegment {
  readonly block: Uint8Array;
  readonly tailLength: number;
  readonly length: number;
}

/** Room kept for the boxes of a track's first segment (a 2 s segment of 60 samples needs ~1.1 KB). */
const FIRST_RESERVE = 2048;
/** The least room kept for the boxes. */
const MIN_RESERVE = 256;
/** Bytes of a free box's header: the smallest gap the boxes can leave. */
const FREE_HEADER = 8;
const FREE = 0x66726565;
const STYP = 0x73747970;

/** The staging of one track. */
class TrackStage {
  readonly memory = new GrowableAligned(256 * 1024);
  /** Bytes in front kept for the appender's carried partial block (the segment's pack offset modulo DIRECT_BLOCK). */
  tail = 0;
  /** Bytes kept for styp, free box, moof and mdat header. */
  reserve = FIRST_RESERVE;
  /** Sample bytes staged after tail + reserve. */
  used = 0;
  /** The staged units' bytes, in order (compared by identity with the segment's samples). */
  units: Uint8Array[] = [];
  /** The memory is lent to a write: units wait as references. */
  busy = false;
  waiting: Uint8Array[] = [];

  copyIn(data: Uint8Array): void {
    const at = this.tail + this.reserve + this.used;
    this.memory.ensure(at + data.byteLength + DIRECT_BLOCK).set(data, at);
    this.used += data.byteLength;
    this.units.push(data);
  }

  /** Lays the stage out again for the next segment, with `carried` units first. */
  restart(carried: readonly Uint8Array[]): void {
    this.used = 0;
    this.units = [];
    for (const data of carried) {
      this.copyIn(data);
    }
  }
}

/** The staging of one recording's tracks. */
export class SegmentStaging {
  private readonly stages = new Map<CmafTrackName, TrackStage>();

  /** Copies a unit's bytes (just handed to the packager's `track` writer) into the track's stage. */
  stage(track: CmafTrackName, data: Uint8Array): void {
    let stage = this.stages.get(track);
    if (!stage) {
      stage = new TrackStage();
      this.stages.set(track, stage);
    }
    if (stage.busy) {
      stage.waiting.push(data);
    } else {
      stage.copyIn(data);
    }
  }

  /**
   * The closed gathered `segment` of `track` laid out in its stage (the memory is then lent until
   * `release`), or undefined when it must go the cold way; call `placed` next either way.
   */
  take(track: CmafTrackName, segment: CmafSegment): StagedSegment | undefined {
    const stage = this.stages.get(track);
    if (!stage) {
      return undefined;
    }
    const pieces = segment.pieces ?? [];
    const boxes = pieces[0] ?? new Uint8Array(0);
    const count = pieces.length - 1;
    const reserve = stage.reserve;
    stage.reserve = Math.max(MIN_RESERVE, Math.ceil((boxes.byteLength * 1.25 + 64) / 64) * 64);
    const stypSize = boxes.byteLength >= 8 ? readUint32(boxes, 0) : 0;
    if (
      count < 1 ||
      stage.busy ||
      segment.parts.length !== 1 ||
      boxes.byteLength + FREE_HEADER > reserve ||
      stypSize < 8 ||
      stypSize > boxes.byteLength ||
      readUint32(boxes, 4) !== STYP ||
      !matches(stage.units, pieces)
    ) {
      // The cold way: the stage lines up again on the units after the segment's last sample.
      const held = stage.busy ? stage.waiting : stage.units;
      const last = pieces[count];
      stage.waiting = last && count >= 1 ? held.slice(held.lastIndexOf(last) + 1) : held.slice();
      if (!stage.busy) {
        stage.units = [];
      }
      return undefined;
    }
    const bytes = stage.memory.bytes;
    const view = new DataView(bytes.buffer);
    const start = stage.tail;
    const free = reserve - boxes.byteLength;
    bytes.set(boxes.subarray(0, stypSize), start);
    view.setUint32(start + stypSize, free);
    view.setUint32(start + stypSize + 4, FREE);
    bytes.fill(0, start + stypSize + FREE_HEADER, start + stypSize + free);
    bytes.set(boxes.subarray(stypSize), start + stypSize + free);
    let payload = 0;
    for (let i = 0; i < count; i++) {
      payload += (stage.units[i] as Uint8Array).byteLength;
    }
    stage.waiting = stage.units.slice(count);
    stage.units = [];
    stage.busy = true;
    return { block: bytes, tailLength: start, length: reserve + payload };
  }

  /** The next segment of `track` will start at `offset` in its pack: the room kept for the carried block. */
  placed(track: CmafTrackName, offset: number): void {
    const stage = this.stages.get(track);
    if (!stage) {
      return;
    }
    stage.tail = offset % DIRECT_BLOCK;
    if (!stage.busy) {
      const carried = stage.waiting;
      stage.waiting = [];
      stage.restart(carried);
    }
  }

  /** The write of `track`'s staged segment is over: the memory takes the units that waited. */
  release(track: CmafTrackName): void {
    const stage = this.stages.get(track);
    if (!stage?.busy) {
      return;
    }
    stage.busy = false;
    const carried = stage.waiting;
    stage.waiting = [];
    stage.restart(carried);
  }
}

function readUint32(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] as number) * 0x1000000 +
      (((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number))) >>>
    0
  );
}

/** Whether the segment's samples (pieces after its boxes) are the first staged units. */
function matches(units: readonly Uint8Array[], pieces: readonly Uint8Array[]): boolean {
  if (units.length < pieces.length - 1) {
    return false;
  }
  for (let i = 1; i < pieces.length; i++) {
    if (units[i - 1] !== pieces[i]) {
      return false;
    }
  }
  return true;
}
