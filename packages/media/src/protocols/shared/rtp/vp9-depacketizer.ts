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
import { type AssembledUnit, FrameAssembler, MAX_ACCESS_UNIT_BYTES } from './frame-assembler.js';

/** One reassembled frame. */
export interface Vp9Frame extends AssembledUnit {
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
export class Vp9Depacketizer extends FrameAssembler<Vp9Frame> {
  private parts: Uint8Array[] = [];
  private bytes = 0;
  private inFrame = false;
  private frame: Uint8Array | undefined;

  protected parse(payload: Uint8Array): void {
    const descriptor = parseVp9Descriptor(payload);
    if (descriptor.spatialId === 0) {
      this.add(descriptor, payload.subarray(descriptor.payloadOffset));
    }
  }

  protected abandon(): void {
    this.inFrame = false;
    this.parts = [];
    this.bytes = 0;
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

  protected take(timestamp: number): Vp9Frame | undefined {
    if (this.inFrame) {
      // A frame without its end packet.
      this.broken = true;
    }
    const frame = this.frame;
    this.frame = undefined;
    this.abandon();
    if (!frame || frame.length === 0) {
      return undefined;
    }
    try {
      return { timestamp, data: frame, key: isKeyframe(frame) };
    } catch {
      this.broken = true;
      return undefined;
    }
  }
}
