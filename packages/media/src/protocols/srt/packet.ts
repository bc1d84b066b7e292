/**
 * SRT packets (draft-sharabayko-srt-01 §3): the 16-byte header shared by data packets (§3.1:
 * sequence number, PP/O/KK/R flags, message number) and control packets (§3.2: type, subtype,
 * type-specific information, CIF), read from and written to UDP payloads. ACK (§3.2.4), NAK loss
 * lists (§3.2.5, Appendix A) and DROPREQ (§3.2.9) bodies are here too; the handshake CIF is in
 * handshake.ts and key material in key-material.ts.
 */
import { ParseError } from '../../errors.js';

/** Bytes of the header of every SRT packet. */
export const SRT_HEADER_SIZE = 16;

/** Control packet types (§3.2 Table 1). */
export const ControlType = {
  handshake: 0,
  keepalive: 1,
  ack: 2,
  nak: 3,
  congestionWarning: 4,
  shutdown: 5,
  ackack: 6,
  dropRequest: 7,
  peerError: 8,
  userDefined: 0x7fff,
} as const;

/** Subtypes of user-defined control packets carrying key material (§3.2.2). */
export const UserSubtype = { kmRequest: 3, kmResponse: 4 } as const;

/** KK of a data packet: which stream key encrypted its payload (§3.1). */
export type KeySlot = 0 | 1 | 2;

/** A data packet (§3.1). `payload` is a view of the datagram: copy it to keep it. */
export interface DataPacket {
  readonly control: false;
  /** Packet sequence number, 31 bits. */
  readonly sequence: number;
  /** PP: 2 first, 1 last, 3 solo, 0 middle. */
  readonly position: number;
  readonly inOrder: boolean;
  /** KK: 0 clear, 1 even key, 2 odd key. */
  readonly keySlot: KeySlot;
  readonly retransmitted: boolean;
  /** Message number, 26 bits. */
  readonly messageNumber: number;
  /** Sender timestamp in microseconds (32 bits, wraps). */
  readonly timestamp: number;
  readonly destinationSocket: number;
  readonly payload: Uint8Array;
}

/** A control packet (§3.2). `cif` is a view of the datagram. */
export interface ControlPacket {
  readonly control: true;
  readonly type: number;
  readonly subtype: number;
  /** Type-specific information (ACK number, message number, error code). */
  readonly info: number;
  readonly timestamp: number;
  readonly destinationSocket: number;
  readonly cif: Uint8Array;
}

/** Any SRT packet. */
export type SrtPacket = DataPacket | ControlPacket;

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The big-endian 32-bit word at `at` (unsigned). */
function readWord(bytes: Uint8Array, at: number): number {
  return (
    (bytes[at] as number) * 0x1000000 +
    (((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number))
  );
}

/** Parses one UDP payload; throws ParseError when it is shorter than a header or a data packet uses KK=3. */
export function parsePacket(bytes: Uint8Array): SrtPacket {
  if (bytes.byteLength < SRT_HEADER_SIZE) {
    throw new ParseError(`SRT packet of ${bytes.byteLength} bytes is shorter than its 16-byte header`);
  }
  // Read by hand: a DataView per datagram costs more than the four words it reads.
  const word0 = readWord(bytes, 0);
  const word1 = readWord(bytes, 4);
  const timestamp = readWord(bytes, 8);
  const destinationSocket = readWord(bytes, 12);
  if (word0 & 0x80000000) {
    return {
      control: true,
      type: (word0 >>> 16) & 0x7fff,
      subtype: word0 & 0xffff,
      info: word1,
      timestamp,
      destinationSocket,
      cif: bytes.subarray(SRT_HEADER_SIZE),
    };
  }
  const keySlot = (word1 >>> 27) & 3;
  if (keySlot === 3) {
    throw new ParseError('SRT data packet with KK=3 (only control packets may carry both keys)');
  }
  return {
    control: false,
    sequence: word0,
    position: word1 >>> 30,
    inOrder: (word1 & 0x20000000) !== 0,
    keySlot: keySlot as KeySlot,
    retransmitted: (word1 & 0x04000000) !== 0,
    messageNumber: word1 & 0x03ffffff,
    timestamp,
    destinationSocket,
    payload: bytes.subarray(SRT_HEADER_SIZE),
  };
}

/** The fields of a data packet to write. */
export interface DataPacketFields {
  readonly sequence: number;
  readonly messageNumber: number;
  readonly timestamp: number;
  readonly destinationSocket: number;
  readonly payload: Uint8Array;
  readonly keySlot?: KeySlot;
  readonly retransmitted?: boolean;
}

/** Writes a solo, in-order data packet (tests, relays). */
export function writeDataPacket(fields: DataPacketFields): Uint8Array {
  const out = new Uint8Array(SRT_HEADER_SIZE + fields.payload.byteLength);
  const v = view(out);
  v.setUint32(0, fields.sequence & 0x7fffffff);
  v.setUint32(
    4,
    ((0xe0000000 | ((fields.keySlot ?? 0) << 27) | (fields.retransmitted ? 0x04000000 : 0)) >>> 0) +
      (fields.messageNumber & 0x03ffffff),
  );
  v.setUint32(8, fields.timestamp >>> 0);
  v.setUint32(12, fields.destinationSocket >>> 0);
  out.set(fields.payload, SRT_HEADER_SIZE);
  return out;
}

/** Writes a control packet with the given CIF. */
export function writeControlPacket(
  type: number,
  subtype: number,
  info: number,
  timestamp: number,
  destinationSocket: number,
  cif: Uint8Array = new Uint8Array(0),
): Uint8Array {
  const out = new Uint8Array(SRT_HEADER_SIZE + cif.byteLength);
  const v = view(out);
  v.setUint32(0, (0x80000000 | ((type & 0x7fff) << 16) | (subtype & 0xffff)) >>> 0);
  v.setUint32(4, info >>> 0);
  v.setUint32(8, timestamp >>> 0);
  v.setUint32(12, destinationSocket >>> 0);
  out.set(cif, SRT_HEADER_SIZE);
  return out;
}

/** The CIF of a full ACK (§3.2.4). */
export interface AckInfo {
  /** Sequence number of the first packet not yet received. */
  readonly lastAcknowledged: number;
  readonly rttUs: number;
  readonly rttVarianceUs: number;
  readonly availableBuffer: number;
  readonly packetsPerSecond: number;
  readonly linkCapacity: number;
  readonly bytesPerSecond: number;
}

/** Writes the 28-byte CIF of a full ACK. */
export function writeAckCif(ack: AckInfo): Uint8Array {
  const out = new Uint8Array(28);
  const v = view(out);
  v.setUint32(0, ack.lastAcknowledged & 0x7fffffff);
  v.setUint32(4, ack.rttUs >>> 0);
  v.setUint32(8, ack.rttVarianceUs >>> 0);
  v.setUint32(12, ack.availableBuffer >>> 0);
  v.setUint32(16, ack.packetsPerSecond >>> 0);
  v.setUint32(20, ack.linkCapacity >>> 0);
  v.setUint32(24, ack.bytesPerSecond >>> 0);
  return out;
}

/** Reads an ACK CIF: light (4 bytes), small (16) or full (28); missing fields read 0. */
export function parseAckCif(cif: Uint8Array): AckInfo {
  if (cif.byteLength < 4) {
    throw new ParseError(`SRT ACK CIF of ${cif.byteLength} bytes (at least 4)`);
  }
  const v = view(cif);
  const at = (offset: number) => (cif.byteLength >= offset + 4 ? v.getUint32(offset) : 0);
  return {
    lastAcknowledged: v.getUint32(0) & 0x7fffffff,
    rttUs: at(4),
    rttVarianceUs: at(8),
    availableBuffer: at(12),
    packetsPerSecond: at(16),
    linkCapacity: at(20),
    bytesPerSecond: at(24),
  };
}

/** An inclusive range of lost sequence numbers. */
export interface LossRange {
  readonly from: number;
  readonly to: number;
}

/** Encodes a loss list (Appendix A): single numbers, or a range as `from|0x80000000, to`. */
export function writeLossList(ranges: readonly LossRange[]): Uint8Array {
  let words = 0;
  for (const range of ranges) {
    words += range.from === range.to ? 1 : 2;
  }
  const out = new Uint8Array(words * 4);
  const v = view(out);
  let at = 0;
  for (const range of ranges) {
    if (range.from === range.to) {
      v.setUint32(at, range.from & 0x7fffffff);
      at += 4;
    } else {
      v.setUint32(at, (0x80000000 | range.from) >>> 0);
      v.setUint32(at + 4, range.to & 0x7fffffff);
      at += 8;
    }
  }
  return out;
}

/** Decodes a loss list; throws ParseError on a range start without its end or a CIF not in words. */
export function parseLossList(cif: Uint8Array): LossRange[] {
  if (cif.byteLength % 4 !== 0) {
    throw new ParseError(`SRT loss list of ${cif.byteLength} bytes is not whole 32-bit words`);
  }
  const v = view(cif);
  const ranges: LossRange[] = [];
  for (let at = 0; at < cif.byteLength; at += 4) {
    const word = v.getUint32(at);
    if (word & 0x80000000) {
      if (at + 4 >= cif.byteLength) {
        throw new ParseError('SRT loss list: range start without its end', at);
      }
      at += 4;
      ranges.push({ from: word & 0x7fffffff, to: v.getUint32(at) & 0x7fffffff });
    } else {
      ranges.push({ from: word, to: word });
    }
  }
  return ranges;
}

/** Reads the sequence range of a DROPREQ CIF (§3.2.9). */
export function parseDropRequest(cif: Uint8Array): LossRange {
  if (cif.byteLength < 8) {
    throw new ParseError(`SRT DROPREQ CIF of ${cif.byteLength} bytes (need 8)`);
  }
  const v = view(cif);
  return { from: v.getUint32(0) & 0x7fffffff, to: v.getUint32(4) & 0x7fffffff };
}
