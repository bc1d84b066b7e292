/**
 * The digest ("FP9", complex) form of the RTMP handshake that Flash Player 9+ era clients use on
 * top of RTMP Specification 1.0 §5.2: C1/S1 carry an HMAC-SHA256 digest at a position derived
 * from the packet itself, and S2 ends with an HMAC keyed by the client's digest. The keys are the
 * publicly known protocol constants. Clients that do not put a digest in C1 get the plain handshake.
 */
import { createHmac, randomFillSync } from 'node:crypto';

const KEY_TAIL = [
  0xf0, 0xee, 0xc2, 0x4a, 0x80, 0x68, 0xbe, 0xe8, 0x2e, 0x00, 0xd0, 0xd1, 0x02, 0x9e, 0x7e, 0x57, 0x6e, 0xec, 0x5d,
  0x2d, 0x29, 0x80, 0x6f, 0xab, 0x93, 0xb8, 0xe6, 0x36, 0xcf, 0xeb, 0x31, 0xae,
];
/** "Genuine Adobe Flash Media Server 001" + tail (68 bytes); its first 36 bytes sign S1. */
const SERVER_KEY = Buffer.concat([Buffer.from('Genuine Adobe Flash Media Server 001'), Buffer.from(KEY_TAIL)]);
/** "Genuine Adobe Flash Player 001" + tail (62 bytes); its first 30 bytes sign C1. */
const PLAYER_KEY = Buffer.concat([Buffer.from('Genuine Adobe Flash Player 001'), Buffer.from(KEY_TAIL)]);
const SERVER_KEY_OPEN = SERVER_KEY.subarray(0, 36);
const PLAYER_KEY_OPEN = PLAYER_KEY.subarray(0, 30);

const PACKET = 1536;
const DIGEST = 32;

/** The two places a digest can sit: offset bytes at 8..11 (base 12) or at 772..775 (base 776). */
const SCHEMES = [
  { at: 8, base: 12 },
  { at: 772, base: 776 },
] as const;

/** Digest layout of one handshake packet. */
export type DigestScheme = (typeof SCHEMES)[number];

function digestPosition(packet: Uint8Array, scheme: DigestScheme): number {
  const sum =
    (packet[scheme.at] ?? 0) +
    (packet[scheme.at + 1] ?? 0) +
    (packet[scheme.at + 2] ?? 0) +
    (packet[scheme.at + 3] ?? 0);
  return (sum % 728) + scheme.base;
}

function hmac(key: Uint8Array, ...parts: Uint8Array[]): Buffer {
  const mac = createHmac('sha256', key);
  for (const part of parts) {
    mac.update(part);
  }
  return mac.digest();
}

function digestOf(packet: Uint8Array, position: number, key: Uint8Array): Buffer {
  return hmac(key, packet.subarray(0, position), packet.subarray(position + DIGEST));
}

/** Finds the client's digest in C1: its scheme and the 32 digest bytes, or undefined (plain client). */
export function findClientDigest(c1: Uint8Array): { scheme: DigestScheme; digest: Uint8Array } | undefined {
  if (c1.byteLength !== PACKET || (c1[4] ?? 0) === 0) {
    return undefined;
  }
  for (const scheme of SCHEMES) {
    const position = digestPosition(c1, scheme);
    const claimed = c1.subarray(position, position + DIGEST);
    if (digestOf(c1, position, PLAYER_KEY_OPEN).equals(claimed)) {
      return { scheme, digest: claimed };
    }
  }
  return undefined;
}

/** S1 with a server version and digest in the client's scheme, and S2 signed with the client's digest. */
export function digestReply(
  client: { scheme: DigestScheme; digest: Uint8Array },
  uptimeMs: number,
): { s1: Uint8Array; s2: Uint8Array } {
  const s1 = new Uint8Array(PACKET);
  randomFillSync(s1, 8);
  const view = new DataView(s1.buffer);
  view.setUint32(0, uptimeMs >>> 0);
  s1.set([4, 5, 0, 1], 4);
  const position = digestPosition(s1, client.scheme);
  s1.set(digestOf(s1, position, SERVER_KEY_OPEN), position);
  const s2 = new Uint8Array(PACKET);
  randomFillSync(s2);
  const key = hmac(SERVER_KEY, client.digest);
  s2.set(hmac(key, s2.subarray(0, PACKET - DIGEST)), PACKET - DIGEST);
  return { s1, s2 };
}

/** Client side: puts a player digest into C1 (scheme at bytes 8..11), as Flash Player and ffmpeg do. */
export function imprintClientDigest(c1: Uint8Array): void {
  c1.set([9, 0, 124, 2], 4);
  const position = digestPosition(c1, SCHEMES[0]);
  c1.set(digestOf(c1, position, PLAYER_KEY_OPEN), position);
}

/** Client side: true when S1 carries a valid server digest and S2 is signed with our C1 digest. */
export function verifyServerDigest(c1: Uint8Array, s1: Uint8Array, s2: Uint8Array): boolean {
  const ours = findClientDigest(c1);
  if (!ours) {
    return false;
  }
  const valid = SCHEMES.some((scheme) => {
    const position = digestPosition(s1, scheme);
    return digestOf(s1, position, SERVER_KEY_OPEN).equals(s1.subarray(position, position + DIGEST));
  });
  const key = hmac(SERVER_KEY, ours.digest);
  return valid && hmac(key, s2.subarray(0, PACKET - DIGEST)).equals(s2.subarray(PACKET - DIGEST));
}
