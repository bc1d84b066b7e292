/**
 * What the NAL-based RTP payload formats share (H.264 RFC 6184 §5.8 FU-A, H.265 RFC 7798 §4.4.3
 * FU): an access unit built from whole NAL units and from fragments whose first packet carries
 * the rebuilt NAL header, with bounded size and count. A fragment without its start or end
 * breaks its access unit.
 */
import { concatBytes } from '../../../bits/bytes.js';
import { ParseError } from '../../../errors.js';
import { type AssembledUnit, FrameAssembler, MAX_ACCESS_UNIT_BYTES } from './frame-assembler.js';

/** Most NAL units in one access unit. */
export const MAX_NALS_PER_ACCESS_UNIT = 1024;

/** Groups NAL units (whole or fragmented) into access units; `codec` names them in errors. */
export abstract class NalAssembler<U extends AssembledUnit> extends FrameAssembler<U> {
  private nals: Uint8Array[] = [];
  private bytes = 0;
  private fragment: Uint8Array[] | undefined;
  private fragmentBytes = 0;

  constructor(private readonly codec: string) {
    super();
  }

  /** Adds a fragment: `start` opens a NAL with `nalHeader`, `end` closes it. */
  protected fragmentPart(start: boolean, end: boolean, nalHeader: Uint8Array, body: Uint8Array): void {
    if (start && end) {
      throw new ParseError(`${this.codec} fragmentation unit with both start and end bits`);
    }
    if (start) {
      this.endFragment();
      this.fragment = [nalHeader, body];
      this.fragmentBytes = nalHeader.length + body.length;
    } else {
      if (!this.fragment) {
        // Its start was lost (or never sent): the NAL cannot be rebuilt.
        this.broken = true;
        return;
      }
      this.fragment.push(body);
      this.fragmentBytes += body.length;
    }
    if (this.fragmentBytes + this.bytes > MAX_ACCESS_UNIT_BYTES) {
      this.fragment = undefined;
      throw new ParseError(`${this.codec} access unit larger than ${MAX_ACCESS_UNIT_BYTES} bytes`);
    }
    if (end) {
      const nal = concatBytes(this.fragment);
      this.fragment = undefined;
      this.fragmentBytes = 0;
      this.add(nal);
    }
  }

  /** Ends a fragmented NAL that never saw its end packet (the unit is broken). */
  protected endFragment(): void {
    if (this.fragment) {
      this.fragment = undefined;
      this.fragmentBytes = 0;
      this.broken = true;
    }
  }

  /** Adds one whole NAL unit. */
  protected add(nal: Uint8Array): void {
    if (this.nals.length >= MAX_NALS_PER_ACCESS_UNIT) {
      throw new ParseError(`more than ${MAX_NALS_PER_ACCESS_UNIT} NAL units in one access unit`);
    }
    this.bytes += nal.length;
    if (this.bytes > MAX_ACCESS_UNIT_BYTES) {
      throw new ParseError(`${this.codec} access unit larger than ${MAX_ACCESS_UNIT_BYTES} bytes`);
    }
    this.nals.push(nal);
  }

  /** Adds the NAL units of an aggregation packet: 16-bit sizes and NAL units from `offset` on. */
  protected addAggregated(payload: Uint8Array, offset: number, minSize: number): void {
    let at = offset;
    if (payload.length < at + 2 + minSize) {
      throw new ParseError(`${this.codec} aggregation packet without a NAL unit`, at);
    }
    while (at < payload.length) {
      if (at + 2 > payload.length) {
        throw new ParseError(`${this.codec} aggregated NAL size cut short`, at);
      }
      const size = ((payload[at] as number) << 8) | (payload[at + 1] as number);
      at += 2;
      if (size < minSize || at + size > payload.length) {
        throw new ParseError(`${this.codec} aggregated NAL size ${size} does not fit the packet`, at - 2);
      }
      this.add(payload.subarray(at, at + size));
      at += size;
    }
  }

  protected abandon(): void {
    this.fragment = undefined;
    this.fragmentBytes = 0;
  }

  /** Hands over the NAL units of the unit built so far (ending a dangling fragment). */
  protected takeNals(): Uint8Array[] {
    this.endFragment();
    const nals = this.nals;
    this.nals = [];
    this.bytes = 0;
    return nals;
  }
}
