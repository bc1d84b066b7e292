/**
 * RTMP handshake (Adobe RTMP Specification 1.0 §5.2): C0/C1/C2 and S0/S1/S2. A client whose C1
 * carries a digest (ffmpeg, Flash-era encoders) gets a digest S1/S2 it can verify; any other gets
 * the plain form (S1 with zero version bytes, S2 echoing C1), which librtmp/OBS accept. C2 is
 * taken without checking, as digest clients fill it with their own signature.
 */
import { randomFillSync } from 'node:crypto';
import { ProtocolError } from '../../errors.js';
import { digestReply, findClientDigest, imprintClientDigest, verifyServerDigest } from './handshake-digest.js';

/** RTMP version byte of C0/S0. */
export const RTMP_VERSION = 3;
/** Size of C1/S1/C2/S2. */
export const HANDSHAKE_SIZE = 1536;

/** What the handshake produced after some bytes arrived. */
export interface HandshakeStep {
  /** Bytes to send to the peer now (may be empty). */
  readonly reply: Uint8Array;
  /** True once the handshake is complete. */
  readonly done: boolean;
  /** Bytes after the handshake (the first chunks), when done. */
  readonly rest: Uint8Array;
}

function randomPacket(epochMs: number): Uint8Array {
  const packet = new Uint8Array(HANDSHAKE_SIZE);
  randomFillSync(packet, 8);
  new DataView(packet.buffer).setUint32(0, epochMs >>> 0);
  return packet;
}

function append(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.byteLength === 0) {
    // A copy (Buffer's `slice` would be a view): the caller may reuse the memory of `b` once `push` returns.
    return new Uint8Array(b);
  }
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

function describeVersion(version: number): string {
  if (version === 6 || version === 8 || version === 9) {
    return `C0 version ${version} asks for RTMPE encryption, which is not supported (use RTMPS)`;
  }
  if (version === 0x47 || version === 0x50 || version === 0x16) {
    return `C0 byte 0x${version.toString(16)} looks like HTTP or TLS, not RTMP`;
  }
  return `C0 version ${version} is not RTMP version 3`;
}

/** Server side: waits for C0+C1, answers S0+S1+S2, then waits for C2. */
export class ServerHandshake {
  private buffer: Uint8Array = new Uint8Array(0);
  private state: 'c0c1' | 'c2' | 'done' = 'c0c1';
  private readonly start = Date.now();
  /** True when the client sent a digest C1 and got digest S1/S2. */
  digest = false;

  /** Feeds bytes; throws ProtocolError when C0 is not version 3. */
  push(chunk: Uint8Array): HandshakeStep {
    if (this.state === 'done') {
      return { reply: new Uint8Array(0), done: true, rest: chunk };
    }
    this.buffer = append(this.buffer, chunk);
    let reply = new Uint8Array(0);
    const first = this.buffer[0];
    if (this.state === 'c0c1' && first !== undefined && first !== RTMP_VERSION) {
      throw new ProtocolError(describeVersion(first));
    }
    if (this.state === 'c0c1' && this.buffer.byteLength >= 1 + HANDSHAKE_SIZE) {
      const c1 = this.buffer.subarray(1, 1 + HANDSHAKE_SIZE);
      const uptime = Date.now() - this.start;
      const client = findClientDigest(c1);
      let s1: Uint8Array;
      let s2: Uint8Array;
      if (client) {
        ({ s1, s2 } = digestReply(client, uptime));
      } else {
        s1 = randomPacket(uptime);
        s2 = new Uint8Array(c1);
        new DataView(s2.buffer).setUint32(4, uptime >>> 0);
      }
      this.digest = client !== undefined;
      reply = new Uint8Array(1 + 2 * HANDSHAKE_SIZE);
      reply[0] = RTMP_VERSION;
      reply.set(s1, 1);
      reply.set(s2, 1 + HANDSHAKE_SIZE);
      this.buffer = this.buffer.slice(1 + HANDSHAKE_SIZE);
      this.state = 'c2';
    }
    if (this.state === 'c2' && this.buffer.byteLength >= HANDSHAKE_SIZE) {
      const rest = this.buffer.slice(HANDSHAKE_SIZE);
      this.buffer = new Uint8Array(0);
      this.state = 'done';
      return { reply, done: true, rest };
    }
    return { reply, done: false, rest: new Uint8Array(0) };
  }
}

/** Client side: sends C0+C1 at once, answers S1 with C2 once S0+S1+S2 arrived. */
export class ClientHandshake {
  private buffer: Uint8Array = new Uint8Array(0);
  private done = false;
  private readonly c1 = randomPacket(0);
  /** After the handshake: whether the server answered our digest with a valid digest S1/S2. */
  serverDigestValid = false;

  /** `digest` puts a player digest into C1 (the form ffmpeg sends); default plain. */
  constructor(private readonly digest = false) {
    if (digest) {
      imprintClientDigest(this.c1);
    }
  }

  /** C0+C1, to send when the connection opens. */
  hello(): Uint8Array {
    const out = new Uint8Array(1 + HANDSHAKE_SIZE);
    out[0] = RTMP_VERSION;
    out.set(this.c1, 1);
    return out;
  }

  /** Feeds server bytes; throws ProtocolError when S0 is not version 3. */
  push(chunk: Uint8Array): HandshakeStep {
    if (this.done) {
      return { reply: new Uint8Array(0), done: true, rest: chunk };
    }
    this.buffer = append(this.buffer, chunk);
    const first = this.buffer[0];
    if (first !== undefined && first !== RTMP_VERSION) {
      throw new ProtocolError(`S0 version ${first} is not RTMP version 3`);
    }
    if (this.buffer.byteLength < 1 + 2 * HANDSHAKE_SIZE) {
      return { reply: new Uint8Array(0), done: false, rest: new Uint8Array(0) };
    }
    const c2 = this.buffer.slice(1, 1 + HANDSHAKE_SIZE);
    if (this.digest) {
      this.serverDigestValid = verifyServerDigest(
        this.c1,
        c2,
        this.buffer.subarray(1 + HANDSHAKE_SIZE, 1 + 2 * HANDSHAKE_SIZE),
      );
    }
    const rest = this.buffer.slice(1 + 2 * HANDSHAKE_SIZE);
    this.buffer = new Uint8Array(0);
    this.done = true;
    return { reply: c2, done: true, rest };
  }
}
