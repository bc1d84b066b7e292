/**
 * VP9 RTP depacketization (RFC 9628 §4.2): the payload descriptor (picture ID, layer indices,
 * reference indices of flexible mode, scalability structure) is skipped and the frame between
 * its B (start of frame) and E (end of frame) packets is rebuilt, one per RTP timestamp. Only the
 * base spatial layer (SID 0) is kept: the hub carries one resolution per track. A lost packet
 * drops its frame and everything until the next key frame.
 */
import { concatBytes } from '../../../bits/bytes.js';
import { isKeyframe } from '../../../codecs/vp9.js';
import { ParseError } from '../../../errors.js';
import { type DepacketizerStats, MAX_ACCESS_UNIT_BYTES } from './h264-depacketizer.js';

/** One reassembled frame. */
export interface Vp9Frame {
  /** RTP timestamp (90 kHz). */
  readonly timestamp: number;
  readonly data: Uint8Array;
  readonly key: boolean;
}

/** Where the VP9 payload starts after the descriptor, and what the descriptor said. */
interface Descriptor {
  readonly start: boolean;
  readonly end: boolean;
  readonly spatialId: number;
  readonly payloadOffset: number;
}

/** Parses the RFC 9628 §4.2 payload descriptor. */
export function parseVp9Descriptor(payload: Uint8Array): Descriptor {
  let at = 0;
  const byte = (): number => {
    const value = payload[at];
    if (value === undefined) {
      throw new ParseError('VP9 payload descriptor cut short', at);
    }
    at++;
    return value;
  };
  const first = byte();
  const pictureId = (first & 0x80) !== 0;
  const interPicture = (first & 0x40) !== 0;
  const layers = (first & 0x20) !== 0;
  const flexible = (first & 0x10) !== 0;
  const start = (first & 0x08) !== 0;
  const end = (first & 0x04) !== 0;
  const scalability = (first & 0x02) !== 0;
  if (pictureId && (byte() & 0x80) !== 0) {
    byte();
  }
  let spatialId = 0;
  if (layers) {
    spatialId = (byte() >>> 1) & 0x07;
    if (!flexible) {
      byte();
    }
  }
  if (flexible && interPicture) {
    for (let i = 0; i < 3 && (byte() & 0x01) !== 0; i++) {
      if (i === 2) {
        throw new ParseError('VP9 descriptor with more than 3 reference indices', at);
      }
    }
  }
  if (scalability) {
    const ss = byte();
    const spatialLayers = (ss >>> 5) + 1;
    if ((ss & 0x10) !== 0) {
      for (let i = 0; i < spatialLayers * 4; i++) {
        byte();
      }
    }
    if ((ss & 0x08) !== 0) {
      const groups = byte();
      for (let g = 0; g < groups; g++) {
        const references = (byte() >>> 2) & 0x03;
        for (let r = 0; r < references; r++) {
          byte();
        }
      }
    }
  }
  return { start, end, spatialId, payloadOffset: at };
}

/** Reassembles one VP9 RTP stream (packets given in sequence order). */
export class Vp9Depacketizer {
  readonly stats: DepacketizerStats = { units: 0, corrupted: 0, skipped: 0 };
  private timestamp: number | undefined;
  private parts: Uint8Array[] = [];
  private bytes = 0;
  private inFrame = false;
  private frame: Uint8Array | undefined;
  private broken = false;
  private needKey = true;

  /** True while frames are dropped until the next key frame. */
  get waitingForKeyframe(): boolean {
    return this.needKey;
  }

  /** Adds one RTP payload; returns the frames it completed. Throws ParseError on a malformed descriptor. */
  push(payload: Uint8Array, timestamp: number, marker: boolean): Vp9Frame[] {
    const out: Vp9Frame[] = [];
    if (payload.length === 0) {
      return out;
    }
    if (this.timestamp !== undefined && timestamp !== this.timestamp) {
      this.finish(out);
    }
    this.timestamp = timestamp;
    let descriptor: Descriptor;
    try {
      descriptor = parseVp9Descriptor(payload);
    } catch (error) {
      this.broken = true;
      throw error;
    }
    if (descriptor.spatialId === 0) {
      this.add(descriptor, payload.subarray(descriptor.payloadOffset));
    }
    if (marker) {
      this.finish(out);
    }
    return out;
  }

  /** Packets were lost: the frame in progress cannot be decoded. */
  lost(): void {
    if (this.timestamp !== undefined) {
      this.broken = true;
    }
    this.needKey = true;
  }

  private add(descriptor: Descriptor, body: Uint8Array): void {
    if (descriptor.start) {
      if (this.inFrame || this.frame) {
        // A frame without its end, or a second frame in one picture: keep the picture's first.
        this.broken ||= this.inFrame;
        this.parts = [];
        this.bytes = 0;
      }
      this.inFrame = true;
    } else if (!this.inFrame) {
      this.broken = true;
      return;
    }
    this.bytes += body.length;
    if (this.bytes > MAX_ACCESS_UNIT_BYTES) {
      this.inFrame = false;
      this.broken = true;
      throw new ParseError(`VP9 frame larger than ${MAX_ACCESS_UNIT_BYTES} bytes`);
    }
    this.parts.push(body);
    if (descriptor.end) {
      this.inFrame = false;
      this.frame ??= concatBytes(this.parts);
      this.parts = [];
      this.bytes = 0;
    }
  }

  private finish(out: Vp9Frame[]): void {
    const timestamp = this.timestamp;
    const frame = this.frame;
    const broken = this.broken || this.inFrame;
    this.timestamp = undefined;
    this.frame = undefined;
    this.parts = [];
    this.bytes = 0;
    this.inFrame = false;
    this.broken = false;
    if (timestamp === undefined) {
      return;
    }
    if (broken) {
      this.stats.corrupted++;
      this.needKey = true;
      return;
    }
    if (!frame || frame.length === 0) {
      return;
    }
    let key: boolean;
    try {
      key = isKeyframe(frame);
    } catch {
      this.stats.corrupted++;
      this.needKey = true;
      return;
    }
    if (this.needKey && !key) {
      this.stats.skipped++;
      return;
    }
    this.needKey = false;
    this.stats.units++;
    out.push({ timestamp, data: frame, key });
  }
}
