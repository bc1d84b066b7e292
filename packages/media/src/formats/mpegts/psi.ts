/**
 * Program-specific information of ISO/IEC 13818-1 §2.4.4: the program association section
 * (PAT, Table 2-30) and the TS program map section (PMT, Table 2-33) of a single program.
 */
import { BitWriter } from '../../bits/bit-writer.js';
import { crc32Mpeg2 } from './crc32-mpeg2.js';

/** One elementary stream of the program map. */
export interface PmtStream {
  readonly streamType: number;
  readonly pid: number;
  /** Descriptors of the ES_info loop, already serialised. */
  readonly descriptors?: Uint8Array;
}

const PAT_TABLE_ID = 0x00;
const PMT_TABLE_ID = 0x02;
const CRC_SIZE = 4;

/** A program association section naming one program and its PMT PID. */
export function patSection(transportStreamId: number, programNumber: number, pmtPid: number): Uint8Array {
  const body = new BitWriter().writeBits(programNumber, 16).writeBits(0b111, 3).writeBits(pmtPid, 13).toBytes();
  return section(PAT_TABLE_ID, transportStreamId, body);
}

/** A program map section for one program with its PCR PID and elementary streams. */
export function pmtSection(programNumber: number, pcrPid: number, streams: readonly PmtStream[]): Uint8Array {
  const body = new BitWriter().writeBits(0b111, 3).writeBits(pcrPid, 13).writeBits(0b1111, 4).writeBits(0, 12);
  for (const stream of streams) {
    const descriptors = stream.descriptors ?? new Uint8Array(0);
    body
      .writeBits(stream.streamType, 8)
      .writeBits(0b111, 3)
      .writeBits(stream.pid, 13)
      .writeBits(0b1111, 4)
      .writeBits(descriptors.length, 12)
      .writeBytes(descriptors);
  }
  return section(PMT_TABLE_ID, programNumber, body.toBytes());
}

/** A long-form section (§2.4.4.10 syntax): header, body, CRC_32; version 0, current, one section. */
function section(tableId: number, idExtension: number, body: Uint8Array): Uint8Array {
  const sectionLength = 5 + body.length + CRC_SIZE;
  const head = new BitWriter()
    .writeBits(tableId, 8)
    .writeBit(1)
    .writeBit(0)
    .writeBits(0b11, 2)
    .writeBits(sectionLength, 12)
    .writeBits(idExtension, 16)
    .writeBits(0b11, 2)
    .writeBits(0, 5)
    .writeBit(1)
    .writeBits(0, 8)
    .writeBits(0, 8)
    .writeBytes(body)
    .toBytes();
  const out = new Uint8Array(head.length + CRC_SIZE);
  out.set(head);
  new DataView(out.buffer).setUint32(head.length, crc32Mpeg2(head));
  return out;
}
