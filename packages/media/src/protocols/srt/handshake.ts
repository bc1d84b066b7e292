/**
 * The SRT handshake CIF (draft-sharabayko-srt-01 §3.2.1): the 48-byte fixed part and its
 * extensions — HSREQ/HSRSP (§3.2.1.1: SRT version, flags, TSBPD delays), KMREQ/KMRSP (§3.2.1.2,
 * contents in key-material.ts) and the Stream ID (§3.2.1.3, stored as 32-bit little-endian words).
 * Handshake types and rejection codes of §4.3 Table 7.
 */
import { ParseError } from '../../errors.js';

/** Bytes of the handshake CIF before its extensions. */
export const HANDSHAKE_SIZE = 48;

/** Handshake types (§3.2.1 Table 4); rejections are 1000 + reason. */
export const HandshakeType = {
  done: 0xfffffffd,
  agreement: 0xfffffffe,
  conclusion: 0xffffffff,
  waveahand: 0,
  induction: 1,
} as const;

/** The SRT magic the listener puts in the extension field of its induction response. */
export const SRT_MAGIC = 0x4a17;

/** Extension field flags of a conclusion (§3.2.1 Table 3). */
export const ExtensionFlag = { hsreq: 1, kmreq: 2, config: 4 } as const;

/** Extension types (§3.2.1 Table 5). */
export const ExtensionType = {
  hsreq: 1,
  hsrsp: 2,
  kmreq: 3,
  kmrsp: 4,
  streamId: 5,
  congestion: 6,
  filter: 7,
  group: 8,
} as const;

/** HSREQ/HSRSP flags (§3.2.1.1.1). */
export const SrtFlag = {
  tsbpdSend: 0x01,
  tsbpdReceive: 0x02,
  crypt: 0x04,
  tooLatePacketDrop: 0x08,
  periodicNak: 0x10,
  retransmitFlag: 0x20,
  stream: 0x40,
  packetFilter: 0x80,
} as const;

/** SRT version this stack announces in HSREQ/HSRSP (1.5.0: handshake v5 with every extension it reads). */
export const SRT_VERSION = 0x010500;

/** The MTU this stack offers and accepts at most in a handshake. */
export const PROTOCOL_MTU = 1500;

/** HSREQ/HSRSP flags this stack announces as a receiver (and as a sender: the same set). */
export const RECEIVER_FLAGS =
  SrtFlag.tsbpdSend |
  SrtFlag.tsbpdReceive |
  SrtFlag.crypt |
  SrtFlag.tooLatePacketDrop |
  SrtFlag.periodicNak |
  SrtFlag.retransmitFlag;

/** Rejection reasons (§4.3 Table 7; 14xx are the access-control codes of libsrt). */
export const RejectReason = {
  unknown: 1000,
  system: 1001,
  peer: 1002,
  resource: 1003,
  rogue: 1004,
  backlog: 1005,
  close: 1007,
  version: 1008,
  badSecret: 1010,
  unsecure: 1011,
  messageApi: 1012,
  congestion: 1013,
  filter: 1014,
  group: 1015,
  crypto: 1017,
  badRequest: 1400,
  unauthorized: 1401,
  forbidden: 1403,
  notFound: 1404,
  badMode: 1405,
  conflict: 1407,
} as const;

/**
 * The handshake type that carries a rejection: Table 7's codes go out as they are (1010 bad
 * secret); libsrt sends its access-control codes as 1000 + code (1403 forbidden → 2403).
 */
export function rejectionHandshakeType(reason: number): number {
  return reason >= 1400 ? 1000 + reason : reason;
}

/** One handshake extension (type and contents, a view of the packet). */
export interface HandshakeExtension {
  readonly type: number;
  readonly content: Uint8Array;
}

/** A handshake CIF. */
export interface Handshake {
  readonly version: number;
  /** Cipher family and key size: 0 none, 2 AES-128, 3 AES-192, 4 AES-256. */
  readonly encryption: number;
  readonly extensionField: number;
  readonly initialSequence: number;
  readonly mtu: number;
  readonly flowWindow: number;
  readonly type: number;
  readonly socketId: number;
  readonly cookie: number;
  /** 16 bytes: IPv4 in the first 4 (network order), the rest zero; or IPv6. */
  readonly peerIp: Uint8Array;
  readonly extensions: readonly HandshakeExtension[];
}

/** Most extensions read from one handshake (libsrt sends at most five). */
const MAX_EXTENSIONS = 16;

/** Parses a handshake CIF with its extensions; throws ParseError when it is truncated. */
export function parseHandshake(cif: Uint8Array): Handshake {
  if (cif.byteLength < HANDSHAKE_SIZE) {
    throw new ParseError(`SRT handshake CIF of ${cif.byteLength} bytes (need ${HANDSHAKE_SIZE})`);
  }
  const v = new DataView(cif.buffer, cif.byteOffset, cif.byteLength);
  const extensions: HandshakeExtension[] = [];
  let at = HANDSHAKE_SIZE;
  while (at + 4 <= cif.byteLength) {
    if (extensions.length === MAX_EXTENSIONS) {
      throw new ParseError(`SRT handshake with more than ${MAX_EXTENSIONS} extensions`, at);
    }
    const type = v.getUint16(at);
    const length = v.getUint16(at + 2) * 4;
    if (at + 4 + length > cif.byteLength) {
      throw new ParseError(`SRT handshake extension ${type} of ${length} bytes overruns the packet`, at);
    }
    extensions.push({ type, content: cif.subarray(at + 4, at + 4 + length) });
    at += 4 + length;
  }
  return {
    version: v.getUint32(0),
    encryption: v.getUint16(4),
    extensionField: v.getUint16(6),
    initialSequence: v.getUint32(8) & 0x7fffffff,
    mtu: v.getUint32(12),
    flowWindow: v.getUint32(16),
    type: v.getUint32(20),
    socketId: v.getUint32(24),
    cookie: v.getUint32(28),
    peerIp: cif.subarray(32, 48),
    extensions,
  };
}

/** Writes a handshake CIF with its extensions. */
export function writeHandshake(hs: Handshake): Uint8Array {
  let length = HANDSHAKE_SIZE;
  for (const extension of hs.extensions) {
    length += 4 + Math.ceil(extension.content.byteLength / 4) * 4;
  }
  const out = new Uint8Array(length);
  const v = new DataView(out.buffer);
  v.setUint32(0, hs.version >>> 0);
  v.setUint16(4, hs.encryption & 0xffff);
  v.setUint16(6, hs.extensionField & 0xffff);
  v.setUint32(8, hs.initialSequence & 0x7fffffff);
  v.setUint32(12, hs.mtu >>> 0);
  v.setUint32(16, hs.flowWindow >>> 0);
  v.setUint32(20, hs.type >>> 0);
  v.setUint32(24, hs.socketId >>> 0);
  v.setUint32(28, hs.cookie >>> 0);
  out.set(hs.peerIp.subarray(0, 16), 32);
  let at = HANDSHAKE_SIZE;
  for (const extension of hs.extensions) {
    const words = Math.ceil(extension.content.byteLength / 4);
    v.setUint16(at, extension.type);
    v.setUint16(at + 2, words);
    out.set(extension.content, at + 4);
    at += 4 + words * 4;
  }
  return out;
}

/** The contents of HSREQ/HSRSP (§3.2.1.1). */
export interface SrtHandshakeInfo {
  /** major * 0x10000 + minor * 0x100 + patch. */
  readonly srtVersion: number;
  readonly flags: number;
  /** TSBPD delay of the receiver, ms. */
  readonly receiverDelayMs: number;
  /** TSBPD delay of the sender, ms. */
  readonly senderDelayMs: number;
}

/** Reads an HSREQ/HSRSP extension. */
export function parseSrtHandshakeInfo(content: Uint8Array): SrtHandshakeInfo {
  if (content.byteLength < 12) {
    throw new ParseError(`SRT HSREQ of ${content.byteLength} bytes (need 12)`);
  }
  const v = new DataView(content.buffer, content.byteOffset, content.byteLength);
  return {
    srtVersion: v.getUint32(0),
    flags: v.getUint32(4),
    receiverDelayMs: v.getUint16(8),
    senderDelayMs: v.getUint16(10),
  };
}

/** Writes an HSREQ/HSRSP extension's contents. */
export function writeSrtHandshakeInfo(info: SrtHandshakeInfo): Uint8Array {
  const out = new Uint8Array(12);
  const v = new DataView(out.buffer);
  v.setUint32(0, info.srtVersion >>> 0);
  v.setUint32(4, info.flags >>> 0);
  v.setUint16(8, info.receiverDelayMs & 0xffff);
  v.setUint16(10, info.senderDelayMs & 0xffff);
  return out;
}

/** Longest Stream ID (§3.2.1.3). */
export const MAX_STREAM_ID_BYTES = 512;

/** Reads a Stream ID extension: 32-bit little-endian words, zero padded. */
export function parseStreamIdExtension(content: Uint8Array): string {
  if (content.byteLength > MAX_STREAM_ID_BYTES || content.byteLength % 4 !== 0) {
    throw new ParseError(`SRT Stream ID of ${content.byteLength} bytes (whole words, at most ${MAX_STREAM_ID_BYTES})`);
  }
  const bytes = new Uint8Array(content.byteLength);
  for (let at = 0; at < content.byteLength; at += 4) {
    bytes[at] = content[at + 3] as number;
    bytes[at + 1] = content[at + 2] as number;
    bytes[at + 2] = content[at + 1] as number;
    bytes[at + 3] = content[at] as number;
  }
  let end = bytes.byteLength;
  while (end > 0 && bytes[end - 1] === 0) {
    end--;
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, end));
}

/** Writes a Stream ID extension's contents (tests and callers). */
export function writeStreamIdExtension(streamId: string): Uint8Array {
  const text = new TextEncoder().encode(streamId);
  const out = new Uint8Array(Math.ceil(text.byteLength / 4) * 4);
  for (let at = 0; at < text.byteLength; at++) {
    out[(at & ~3) + 3 - (at & 3)] = text[at] as number;
  }
  return out;
}

/** The handshake's peer address field for an IPv4 address, as libsrt writes it (one little-endian word). */
export function peerIpField(address: string): Uint8Array {
  const out = new Uint8Array(16);
  const parts = address.split('.').map((part) => Number(part));
  if (parts.length === 4) {
    out[0] = parts[3] as number;
    out[1] = parts[2] as number;
    out[2] = parts[1] as number;
    out[3] = parts[0] as number;
  }
  return out;
}
