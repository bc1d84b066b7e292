/**
 * Reading program-specific information of ISO/IEC 13818-1 §2.4.4: sections reassembled from
 * transport stream payloads (pointer_field §2.4.4.2, sections spanning packets, several sections
 * in one packet, stuffing), checked with their CRC_32 (Annex A), and the program association
 * (Table 2-30) and TS program map (Table 2-33) sections parsed with their descriptor loops (§2.6).
 */
import { bytesEqual } from '../../bits/bytes.js';
import { crc32Mpeg2 } from './crc32-mpeg2.js';

/** One descriptor of a PMT loop (§2.6.1): tag and body. */
export interface Descriptor {
  readonly tag: number;
  readonly data: Uint8Array;
}

/** One elementary stream of a program map. */
export interface PmtEntry {
  readonly streamType: number;
  readonly pid: number;
  readonly descriptors: readonly Descriptor[];
}

/** A parsed TS program map section. */
export interface ProgramMap {
  readonly programNumber: number;
  readonly version: number;
  readonly pcrPid: number;
  readonly programDescriptors: readonly Descriptor[];
  readonly streams: readonly PmtEntry[];
}

/** table_id of a program association section. */
export const PAT_TABLE_ID = 0x00;
/** table_id of a TS program map section. */
export const PMT_TABLE_ID = 0x02;
/** Largest section_length of PAT and PMT sections (§2.4.4.4, §2.4.4.9). */
const MAX_SECTION_LENGTH = 1021;
const STUFFING = 0xff;

/** Why a section was not delivered. */
export type SectionDropReason = 'crc' | 'too-long' | 'truncated';

/**
 * Reassembles the sections carried on one PID. Each complete section whose CRC_32 checks is
 * handed to `onSection` (the whole section, header to CRC) — once: the same bytes again are
 * skipped without a CRC check until another section came between.
 */
export class SectionAssembler {
  private buffer = new Uint8Array(3 + MAX_SECTION_LENGTH);
  private filled = 0;
  /** Total bytes of the section being gathered (3 + section_length); 0 while the header is incomplete. */
  private expected = 0;
  /** True between a section start and its end. */
  private gathering = false;
  /** The last section delivered (a repeat of it is not checked or delivered again). */
  private last: Uint8Array | undefined;

  constructor(
    private readonly onSection: (section: Uint8Array) => void,
    private readonly onDrop: (reason: SectionDropReason) => void,
  ) {}

  /** Handles the payload `data[from, to)` of one packet of this PID; `unitStart` is its payload_unit_start_indicator. */
  push(data: Uint8Array, from: number, to: number, unitStart: boolean): void {
    if (!unitStart) {
      if (this.gathering) {
        this.append(data, from, to);
      }
      return;
    }
    const pointer = data[from];
    if (from >= to || pointer === undefined || from + 1 + pointer > to) {
      this.abandon();
      return;
    }
    if (this.gathering) {
      this.append(data, from + 1, from + 1 + pointer);
      if (this.gathering) {
        this.abandon();
      }
    }
    let at = from + 1 + pointer;
    while (at < to && data[at] !== STUFFING) {
      this.gathering = true;
      this.filled = 0;
      this.expected = 0;
      at = this.append(data, at, to);
      if (this.gathering) {
        return;
      }
    }
  }

  /** Forgets a section in progress (its packets were lost). */
  discard(): void {
    if (this.gathering) {
      this.abandon();
    }
  }

  /** Copies bytes from `data[from, to)` into the section; returns where the section ended in `data` (or `to`). */
  private append(data: Uint8Array, from: number, to: number): number {
    let at = from;
    while (at < to && this.gathering) {
      if (this.expected === 0) {
        this.buffer[this.filled++] = data[at++] as number;
        if (this.filled === 3) {
          const length = (((this.buffer[1] as number) & 0x0f) << 8) | (this.buffer[2] as number);
          if (length > MAX_SECTION_LENGTH) {
            this.gathering = false;
            this.onDrop('too-long');
            return to;
          }
          this.expected = 3 + length;
        }
        continue;
      }
      const take = Math.min(this.expected - this.filled, to - at);
      this.buffer.set(data.subarray(at, at + take), this.filled);
      this.filled += take;
      at += take;
      if (this.filled === this.expected) {
        this.gathering = false;
        this.deliver();
      }
    }
    return at;
  }

  /** Hands on a complete section unless it repeats the last one delivered byte for byte (tables are resent every ~100 ms). */
  private deliver(): void {
    const section = this.buffer.subarray(0, this.expected);
    const last = this.last;
    if (last && bytesEqual(last, section)) {
      return;
    }
    if (section.length < 12 || crc32Mpeg2(section) !== 0) {
      this.onDrop('crc');
      return;
    }
    this.last = section.slice();
    this.onSection(this.last);
  }

  private abandon(): void {
    this.gathering = false;
    this.onDrop('truncated');
  }
}

/** The long-form header fields every PAT/PMT section shares (§2.4.4.10). */
interface LongSection {
  readonly tableId: number;
  readonly idExtension: number;
  readonly version: number;
  readonly current: boolean;
  /** The bytes between the header and the CRC. */
  readonly body: Uint8Array;
}

/** Splits a CRC-checked section into its header fields and body; undefined when it is not long-form. */
function longSection(section: Uint8Array): LongSection | undefined {
  if (((section[1] as number) & 0x80) === 0 || section.length < 12) {
    return undefined;
  }
  return {
    tableId: section[0] as number,
    idExtension: ((section[3] as number) << 8) | (section[4] as number),
    version: ((section[5] as number) >>> 1) & 0x1f,
    current: ((section[5] as number) & 1) === 1,
    body: section.subarray(8, section.length - 4),
  };
}

/** The program_number → program_map_PID pairs of a current PAT section (network PID entries left out); undefined when it is not one. */
export function parsePat(section: Uint8Array): Map<number, number> | undefined {
  const parsed = longSection(section);
  if (parsed?.tableId !== PAT_TABLE_ID || !parsed.current) {
    return undefined;
  }
  const programs = new Map<number, number>();
  const body = parsed.body;
  for (let at = 0; at + 4 <= body.length; at += 4) {
    const program = ((body[at] as number) << 8) | (body[at + 1] as number);
    const pid = (((body[at + 2] as number) & 0x1f) << 8) | (body[at + 3] as number);
    if (program !== 0) {
      programs.set(program, pid);
    }
  }
  return programs;
}

/** Reads a descriptor loop; stops at a descriptor that overruns it. */
function readDescriptors(data: Uint8Array): Descriptor[] {
  const out: Descriptor[] = [];
  let at = 0;
  while (at + 2 <= data.length) {
    const length = data[at + 1] as number;
    if (at + 2 + length > data.length) {
      break;
    }
    out.push({ tag: data[at] as number, data: data.subarray(at + 2, at + 2 + length) });
    at += 2 + length;
  }
  return out;
}

/** Parses a current PMT section; undefined when it is not one or its loops overrun the section. */
export function parsePmt(section: Uint8Array): ProgramMap | undefined {
  const parsed = longSection(section);
  if (parsed?.tableId !== PMT_TABLE_ID || !parsed.current || parsed.body.length < 4) {
    return undefined;
  }
  const body = parsed.body;
  const pcrPid = (((body[0] as number) & 0x1f) << 8) | (body[1] as number);
  const infoLength = (((body[2] as number) & 0x0f) << 8) | (body[3] as number);
  if (4 + infoLength > body.length) {
    return undefined;
  }
  const streams: PmtEntry[] = [];
  let at = 4 + infoLength;
  while (at + 5 <= body.length) {
    const streamType = body[at] as number;
    const pid = (((body[at + 1] as number) & 0x1f) << 8) | (body[at + 2] as number);
    const esInfoLength = (((body[at + 3] as number) & 0x0f) << 8) | (body[at + 4] as number);
    const end = at + 5 + esInfoLength;
    if (end > body.length) {
      return undefined;
    }
    streams.push({ streamType, pid, descriptors: readDescriptors(body.subarray(at + 5, end)) });
    at = end;
  }
  return {
    programNumber: parsed.idExtension,
    version: parsed.version,
    pcrPid,
    programDescriptors: readDescriptors(body.subarray(4, 4 + infoLength)),
    streams,
  };
}
