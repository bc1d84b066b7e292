/**
 * Test-only MPEG-TS builders for the demuxer: a program of any stream types and PES payloads
 * (ISO/IEC 13818-1 PAT, PMT, PES through the muxer's own writers), LOAS/LATM frames
 * (ISO/IEC 14496-3 §1.7) and re-signed PMT edits, so cases run without ffmpeg.
 */
import { BitWriter } from '../bits/bit-writer.js';
import { adtsHeader } from '../codecs/aac.js';
import { crc32Mpeg2 } from '../formats/mpegts/crc32-mpeg2.js';
import { TS_PACKET_SIZE, TsPacketWriter } from '../formats/mpegts/packet-writer.js';
import { pesHeader } from '../formats/mpegts/pes.js';
import { patSection, pmtSection } from '../formats/mpegts/psi.js';

/** One elementary stream of the program. */
export interface TestStream {
  readonly pid: number;
  readonly streamType: number;
  readonly descriptors?: Uint8Array;
}

/** One PES packet to write. */
export interface TestPes {
  readonly pid: number;
  /** PES stream_id (default 0xE0 video). */
  readonly streamId?: number;
  readonly pts: number;
  readonly dts?: number;
  readonly payload: Uint8Array;
  /** PCR (90 kHz) in the first packet's adaptation field. */
  readonly pcr?: number;
}

/** PMT PID of the test programs. */
export const TEST_PMT_PID = 0x1000;

/** A transport stream: PAT, PMT of `streams`, then each PES in order. */
export function transportStream(streams: readonly TestStream[], pes: readonly TestPes[]): Uint8Array {
  const writer = new TsPacketWriter();
  const pointer = Uint8Array.of(0);
  writer.writeUnit(0, [pointer, patSection(1, 1, TEST_PMT_PID)]);
  writer.writeUnit(TEST_PMT_PID, [pointer, pmtSection(1, streams[0]?.pid ?? 0x100, streams)]);
  for (const packet of pes) {
    const header = pesHeader(packet.streamId ?? 0xe0, packet.payload.length, packet.pts, packet.dts);
    writer.writeUnit(packet.pid, [header, packet.payload], packet.pcr === undefined ? undefined : { pcr: packet.pcr });
  }
  return writer.take().slice();
}

/** Writes bytes at any bit position. */
function writeUnaligned(writer: BitWriter, bytes: Uint8Array): BitWriter {
  for (const byte of bytes) {
    writer.writeBits(byte, 8);
  }
  return writer;
}

/** One LOAS AudioSyncStream frame with an in-band StreamMuxConfig (version 0) carrying `asc`. */
export function loasFrame(asc: Uint8Array, payload: Uint8Array): Uint8Array {
  const element = new BitWriter();
  element.writeBit(0).writeBit(0).writeBit(1).writeBits(0, 6).writeBits(0, 4).writeBits(0, 3);
  writeUnaligned(element, asc);
  element.writeBits(0, 3).writeBits(0xff, 8).writeBit(0).writeBit(0);
  let length = payload.length;
  while (length >= 255) {
    element.writeBits(255, 8);
    length -= 255;
  }
  writeUnaligned(element.writeBits(length, 8), payload).byteAlign();
  const body = element.toBytes();
  return new BitWriter().writeBits(0x2b7, 11).writeBits(body.length, 13).writeBytes(body).toBytes();
}

/** Rewrites the stream_type of `pid` in every PMT packet of `ts` (a single-packet PMT) and re-signs the section. */
export function withStreamType(ts: Uint8Array, pid: number, streamType: number): Uint8Array {
  const out = ts.slice();
  for (let at = 0; at + TS_PACKET_SIZE <= out.length; at += TS_PACKET_SIZE) {
    const packetPid = (((out[at + 1] as number) & 0x1f) << 8) | (out[at + 2] as number);
    if (packetPid !== TEST_PMT_PID) {
      continue;
    }
    const payloadStart = ((out[at + 3] as number) & 0x20) === 0 ? at + 4 : at + 5 + (out[at + 4] as number);
    const sectionStart = payloadStart + 1 + (out[payloadStart] as number);
    const sectionLength = (((out[sectionStart + 1] as number) & 0x0f) << 8) | (out[sectionStart + 2] as number);
    const sectionEnd = sectionStart + 3 + sectionLength;
    const infoLength = (((out[sectionStart + 10] as number) & 0x0f) << 8) | (out[sectionStart + 11] as number);
    let entry = sectionStart + 12 + infoLength;
    while (entry + 5 <= sectionEnd - 4) {
      const entryPid = (((out[entry + 1] as number) & 0x1f) << 8) | (out[entry + 2] as number);
      if (entryPid === pid) {
        out[entry] = streamType;
      }
      entry += 5 + ((((out[entry + 3] as number) & 0x0f) << 8) | (out[entry + 4] as number));
    }
    const crc = crc32Mpeg2(out.subarray(sectionStart, sectionEnd - 4));
    new DataView(out.buffer, out.byteOffset).setUint32(sectionEnd - 4, crc);
  }
  return out;
}

/** An ADTS header (AAC-LC 48 kHz mono) for a payload of `length` bytes. */
export function adtsHeaderFor(length: number): Uint8Array {
  return adtsHeader(
    {
      objectType: 2,
      coreObjectType: 2,
      sampleRate: 48_000,
      coreSampleRate: 48_000,
      samplingFrequencyIndex: 3,
      channelConfiguration: 1,
      channels: 1,
      samplesPerFrame: 1024,
      frameLengthFlag: false,
      sbr: false,
      ps: false,
    },
    length,
  );
}
