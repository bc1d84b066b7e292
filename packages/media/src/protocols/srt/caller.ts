/**
 * SRT caller for live receiving or sending (draft-sharabayko-srt-01 §4.3.1.1 caller-listener handshake v5,
 * §3.2.1 extensions, §6 encryption): an INDUCTION (version 4, extension field 2) repeated every
 * 250 ms until the listener answers with version 5, the SRT magic and a SYN cookie; then a
 * CONCLUSION with HSREQ (TSBPD, our latency), the Stream ID and — with a passphrase — a KMREQ
 * carrying a fresh stream key wrapped with the passphrase's KEK (in HSv5 the caller makes the key
 * both directions use). The listener's CONCLUSION (HSRSP, KMRSP) establishes the call; a
 * rejection ends it with its code. From then on a receiving call reads the data through the
 * listener's receiving connection (ACK, NAK, TSBPD, decryption, key refresh) into the MPEG-TS
 * demuxer; a sending call sends payloads through an SrtSender (retransmission, too-late drop),
 * with keepalives and the idle timeout kept here. One UDP socket per
 * call, connected to the address given (already checked by the caller of this module); one
 * timer drives every established call, and an established receiving call's datagrams are read
 * on that timer in one batch (net/datagram-drain.ts) rather than one event each.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { isIP } from 'node:net';
import { ByteSlab } from '../../bits/byte-slab.js';
import { DatagramDrain } from '../../net/datagram-drain.js';
import type { Logger } from '../../ports.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { StreamDescription } from '../../stream/track.js';
import { SrtConnection, type SrtMediaSink } from './connection.js';
import { deriveKek, type StreamKeys, wrapKeys } from './crypto.js';
import {
  ExtensionFlag,
  ExtensionType,
  type Handshake,
  type HandshakeExtension,
  HandshakeType,
  PROTOCOL_MTU,
  parseHandshake,
  parseSrtHandshakeInfo,
  peerIpField,
  RECEIVER_FLAGS,
  SRT_MAGIC,
  SRT_VERSION,
  SrtFlag,
  writeHandshake,
  writeSrtHandshakeInfo,
  writeStreamIdExtension,
} from './handshake.js';
import { KmCipher, writeKeyMaterial } from './key-material.js';
import { ControlType, parsePacket, type SrtPacket, writeControlPacket } from './packet.js';
import { rejectionText } from './rejections.js';
import { SrtSender } from './sender.js';

/** Where a call delivers the program it receives. */
export interface SrtCallSink {
  describe(description: StreamDescription): void;
  unit(unit: MediaUnit): void;
}

/** How a call ended. */
export interface SrtCallEnd {
  /** `refused`: the listener rejected the handshake; `timeout`: it never answered; `ended`: it sent SHUTDOWN. */
  readonly kind: 'refused' | 'timeout' | 'ended' | 'failed' | 'stopped';
  readonly message: string;
}

/** What a call dials and how. */
export interface SrtCallOptions {
  /** A literal IPv4 or IPv6 address (checked before the call). */
  readonly address: string;
  readonly port: number;
  /** Sent as the Stream ID extension when given (at most 512 bytes). */
  readonly streamId?: string;
  /** Encrypts the call (10–79 characters, libsrt's SRTO_PASSPHRASE). */
  readonly passphrase?: string;
  /** Stream key bytes: 16, 24 or 32 (default: what the listener advertises, else 16). */
  readonly keyLength?: number;
  /** Receiver latency asked for (ms, default 120); the listener's larger one wins. */
  readonly latencyMs?: number;
  /** The handshake must complete within this (default 3000 ms, libsrt's connect timeout). */
  readonly connectTimeoutMs?: number;
  /** An established call without any packet for this long ends (default 5000 ms). */
  readonly idleTimeoutMs?: number;
  /** Receive buffer in packets (default 8192). */
  readonly bufferPackets?: number;
  /** `receive` (default): the listener sends us its stream; `send`: we send ours (push targets). */
  readonly role?: 'receive' | 'send';
  /** Where a receiving call delivers the program (a sending call has none). */
  readonly sink?: SrtCallSink;
  /** Called once the handshake completed. */
  readonly onEstablished?: () => void;
  readonly log: Logger;
  /** Called once when the call is over. */
  readonly onEnd: (end: SrtCallEnd) => void;
}

const HANDSHAKE_REPEAT_MS = 250;
/** Timer of established calls: TSBPD delivery, ACK (every 10–20 ms), NAK, keepalive (the listener's is 5 ms). */
const TICK_MS = 10;
/** The caller's induction asks for HSv5 with this extension field (§4.3.1.1). */
const INDUCTION_EXTENSION = 2;
/**
 * Slab that clear data packets of batched reads are copied into: ~70 packets of 1316 bytes, below
 * glibc's mmap threshold (128 KiB); a slab is freed once its last packet was delivered.
 */
const KEPT_SLAB_BYTES = 96 * 1024;
/** Stream encapsulation of the KM message: 2 = SRT (§3.2.2). */
const ENCAPSULATION_SRT = 2;

/** Something an established call runs every few milliseconds. */
interface Ticking {
  tick(): void;
}

/** The established calls of this process, ticked by one timer. */
const established = new Set<Ticking>();
let ticker: NodeJS.Timeout | undefined;

function track(connection: Ticking): void {
  established.add(connection);
  if (!ticker) {
    ticker = setInterval(() => {
      for (const each of established) {
        each.tick();
      }
    }, TICK_MS);
    ticker.unref();
  }
}

function untrack(connection: Ticking): void {
  established.delete(connection);
  if (established.size === 0 && ticker) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

function nowUs(): number {
  return Math.round(performance.now() * 1000);
}

/** One call to an SRT listener, receiving its live stream. */
export class SrtCall {
  private readonly socket: Socket;
  private readonly socketId = randomInt(1, 0x7fffffff);
  private readonly initialSequence = randomInt(0, 0x7fffffff);
  private readonly start = performance.now();
  private readonly peer: string;
  private state: 'induction' | 'conclusion' | 'established' | 'over' = 'induction';
  private cookie = 0;
  private conclusion: Uint8Array | undefined;
  /** The stream key we made (encrypted calls). */
  private keys: StreamKeys | undefined;
  private repeat: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private connection: SrtConnection | undefined;
  private sender: SrtSender | undefined;
  private readonly sending: Ticking = { tick: () => this.tickSender() };
  /** An established receiving call: its reads (batched when the socket allows) and the connection's timers. */
  private readonly receiving: Ticking = { tick: () => this.tickReceiver() };
  private drain: DatagramDrain | undefined;
  /** Where clear data packets of a batch are copied (the receiver holds them until their delivery time). */
  private readonly kept = new ByteSlab(KEPT_SLAB_BYTES);
  /** Why a send on the batched socket failed (the call ends at its next tick). */
  private sendFailure: string | undefined;
  private readonly onDatagram = (bytes: Uint8Array) => this.onBatchDatagram(bytes);
  private lastHeard = 0;
  private lastSent = 0;
  private finished = false;
  private peerSocketId = 0;

  constructor(private readonly options: SrtCallOptions) {
    this.peer = `${options.address}:${options.port}`;
    this.socket = createSocket({
      type: isIP(options.address) === 6 ? 'udp6' : 'udp4',
      recvBufferSize: 4 * 1024 * 1024,
    });
    this.socket.on('message', (message) => this.onMessage(message));
    this.socket.on('error', (error) => {
      const code = (error as NodeJS.ErrnoException).code ?? error.message;
      this.end(
        'failed',
        code === 'ECONNREFUSED' ? `nothing listens on ${this.peer}` : `SRT socket to ${this.peer}: ${code}`,
      );
    });
    this.socket.connect(options.port, options.address, () => {
      if (this.state === 'over') {
        return;
      }
      this.sendHandshake(this.induction());
      this.repeat = setInterval(() => {
        this.sendHandshake(this.state === 'induction' ? this.induction() : (this.conclusion as Uint8Array));
      }, HANDSHAKE_REPEAT_MS);
    });
    const timeoutMs = options.connectTimeoutMs ?? 3000;
    this.deadline = setTimeout(
      () => this.end('timeout', `${this.peer} did not complete the SRT handshake within ${timeoutMs} ms`),
      timeoutMs,
    );
  }

  /** Whether the handshake completed. */
  get isEstablished(): boolean {
    return this.state === 'established';
  }

  /** The sending side's counters once established (sending calls). */
  get senderStats(): SrtSender['stats'] | undefined {
    return this.sender?.stats;
  }

  /** Packets sent and not yet acknowledged (sending calls). */
  get unacknowledged(): number {
    return this.sender?.unacknowledged ?? 0;
  }

  /**
   * Sends one payload (a sending call; at most 1456 bytes, 1316 = 7 TS packets as usual); answers
   * false before the handshake completed or after the call ended (nothing was sent).
   */
  send(payload: Uint8Array): boolean {
    if (!this.sender || this.finished) {
      return false;
    }
    const now = nowUs();
    this.lastSent = now;
    this.sender.send(payload, now);
    return true;
  }

  /** The receiving connection's counters once established. */
  get receiverStats(): SrtConnection['receiver']['stats'] | undefined {
    return this.connection?.receiver.stats;
  }

  /** Ends the call (SHUTDOWN to the listener when established). */
  close(reason: string): void {
    this.end('stopped', reason);
  }

  private induction(): Uint8Array {
    return writeHandshake({
      version: 4,
      encryption: 0,
      extensionField: INDUCTION_EXTENSION,
      initialSequence: this.initialSequence,
      mtu: PROTOCOL_MTU,
      flowWindow: this.options.bufferPackets ?? 8192,
      type: HandshakeType.induction,
      socketId: this.socketId,
      cookie: 0,
      peerIp: peerIpField(this.options.address),
      extensions: [],
    });
  }

  private makeConclusion(answer: Handshake): Uint8Array {
    const { passphrase, streamId } = this.options;
    const latencyMs = this.options.latencyMs ?? 120;
    const extensions: HandshakeExtension[] = [
      {
        type: ExtensionType.hsreq,
        content: writeSrtHandshakeInfo({
          srtVersion: SRT_VERSION,
          flags: RECEIVER_FLAGS,
          receiverDelayMs: latencyMs,
          senderDelayMs: latencyMs,
        }),
      },
    ];
    let keyLength = 0;
    if (passphrase !== undefined) {
      // The listener advertises its key size (2, 3, 4 for AES-128/192/256) in the induction answer.
      keyLength =
        this.options.keyLength ?? (answer.encryption >= 2 && answer.encryption <= 4 ? answer.encryption * 8 : 16);
      const key = randomBytes(keyLength);
      const salt = randomBytes(16);
      this.keys = { even: key, odd: undefined, salt };
      extensions.push({
        type: ExtensionType.kmreq,
        content: writeKeyMaterial({
          keys: 1,
          keki: 0,
          cipher: KmCipher.aesCtr,
          auth: 0,
          streamEncapsulation: ENCAPSULATION_SRT,
          salt,
          keyLength,
          wrapped: wrapKeys(deriveKek(passphrase, salt, keyLength), key),
        }),
      });
    }
    if (streamId !== undefined && streamId !== '') {
      extensions.push({ type: ExtensionType.streamId, content: writeStreamIdExtension(streamId) });
    }
    return writeHandshake({
      version: 5,
      encryption: keyLength / 8,
      extensionField:
        ExtensionFlag.hsreq |
        (passphrase !== undefined ? ExtensionFlag.kmreq : 0) |
        (streamId ? ExtensionFlag.config : 0),
      initialSequence: this.initialSequence,
      mtu: PROTOCOL_MTU,
      flowWindow: this.options.bufferPackets ?? 8192,
      type: HandshakeType.conclusion,
      socketId: this.socketId,
      cookie: this.cookie,
      peerIp: peerIpField(this.options.address),
      extensions,
    });
  }

  private onMessage(message: Uint8Array): void {
    if (this.state === 'over') {
      return;
    }
    let packet: SrtPacket;
    try {
      packet = parsePacket(message);
    } catch {
      return;
    }
    if (packet.destinationSocket !== this.socketId) {
      return;
    }
    if (this.sender) {
      this.onSenderPacket(packet);
      return;
    }
    const connection = this.connection;
    if (connection) {
      if (!packet.control) {
        connection.data(packet);
      } else if (packet.type !== ControlType.handshake) {
        connection.control(packet);
      }
      return;
    }
    if (packet.control && packet.type === ControlType.handshake) {
      this.onHandshake(packet.cif, packet.timestamp);
    }
  }

  private onHandshake(cif: Uint8Array, timestamp: number): void {
    let hs: Handshake;
    try {
      hs = parseHandshake(cif);
    } catch {
      return;
    }
    if (hs.type >= 1000 && hs.type < HandshakeType.done) {
      this.end('refused', `${this.peer} refused the SRT call: ${rejectionText(hs.type)}`);
      return;
    }
    if (this.state === 'induction' && hs.type === HandshakeType.induction) {
      if (hs.version !== 5 || hs.extensionField !== SRT_MAGIC) {
        this.end('failed', `${this.peer} answered with SRT handshake version ${hs.version} (5 is required)`);
        return;
      }
      this.cookie = hs.cookie;
      this.conclusion = this.makeConclusion(hs);
      this.state = 'conclusion';
      this.sendHandshake(this.conclusion);
      return;
    }
    if (this.state === 'conclusion' && hs.type === HandshakeType.conclusion) {
      this.establish(hs, nowUs() - timestamp);
    }
  }

  private establish(hs: Handshake, timeBaseUs: number): void {
    const extension = (type: number) => hs.extensions.find((item) => item.type === type)?.content;
    const hsrsp = extension(ExtensionType.hsrsp);
    let latencyMs = this.options.latencyMs ?? 120;
    try {
      if (!hsrsp) {
        throw new Error('no HSRSP');
      }
      const info = parseSrtHandshakeInfo(hsrsp);
      // The listener's side of the stream: it sends to a receiving call, receives from a sending one.
      const sends = this.options.role !== 'send';
      if ((info.flags & (sends ? SrtFlag.tsbpdSend : SrtFlag.tsbpdReceive)) === 0) {
        throw new Error(`the listener does not ${sends ? 'send' : 'receive'} with TSBPD (live mode)`);
      }
      latencyMs = Math.max(latencyMs, sends ? info.senderDelayMs : info.receiverDelayMs);
    } catch (error) {
      this.end(
        'failed',
        `${this.peer} answered the SRT conclusion without a usable HSRSP: ${(error as Error).message}`,
      );
      return;
    }
    if (this.keys) {
      const kmrsp = extension(ExtensionType.kmrsp);
      if (!kmrsp || kmrsp.byteLength <= 4) {
        const state = kmrsp && kmrsp.byteLength === 4 ? new DataView(kmrsp.buffer, kmrsp.byteOffset).getUint32(0) : -1;
        this.end('refused', `${this.peer} did not take the SRT key: ${kmStateText(state)}`);
        return;
      }
    }
    clearInterval(this.repeat);
    clearTimeout(this.deadline);
    this.state = 'established';
    if (this.options.role === 'send') {
      this.establishSender(hs, latencyMs);
      return;
    }
    const { sink, passphrase } = this.options;
    const connection = new SrtConnection<SrtMediaSink>({
      socketId: this.socketId,
      peerSocketId: hs.socketId,
      peer: this.peer,
      publisher: {
        setDescription: (description) => sink?.describe(description),
        write: (unit) => sink?.unit(unit),
        close: () => undefined,
      },
      log: this.options.log,
      send: (bytes) => this.datagram(bytes),
      initialSequence: hs.initialSequence,
      latencyMs,
      timeBaseUs,
      bufferPackets: this.options.bufferPackets ?? 8192,
      idleTimeoutMs: this.options.idleTimeoutMs ?? 5000,
      ...(this.keys && passphrase !== undefined ? { keys: { passphrase, initial: this.keys } } : {}),
      onClose: (reason) => {
        untrack(this.receiving);
        this.end(connection.peerShutdown ? 'ended' : 'failed', reason);
      },
    });
    this.connection = connection;
    this.drain = DatagramDrain.take(this.socket);
    track(this.receiving);
    this.options.log.info({ peer: this.peer, latencyMs, encrypted: this.keys !== undefined }, 'SRT call established');
    this.options.onEstablished?.();
  }

  /** A sending call: the listener's latency sets the drop delay (libsrt's: 1.25 × latency, at least 1 s). */
  private establishSender(hs: Handshake, latencyMs: number): void {
    const key = this.keys?.even;
    this.peerSocketId = hs.socketId;
    this.lastHeard = nowUs();
    this.lastSent = this.lastHeard;
    this.sender = new SrtSender({
      initialSequence: hs.initialSequence,
      peerSocketId: hs.socketId,
      dropDelayUs: Math.max(1_000_000, latencyMs * 1250 + 20_000),
      bufferPackets: this.options.bufferPackets ?? 8192,
      ...(key && this.keys ? { key: { key, salt: this.keys.salt } } : {}),
      timestamp: (now) => Math.round(now - this.start * 1000) >>> 0,
      send: (bytes) => this.datagram(bytes),
    });
    track(this.sending);
    this.options.log.info(
      { peer: this.peer, latencyMs, encrypted: this.keys !== undefined },
      'SRT call established (sending)',
    );
    this.options.onEstablished?.();
  }

  private onSenderPacket(packet: SrtPacket): void {
    const now = nowUs();
    this.lastHeard = now;
    if (!packet.control || !this.sender) {
      return;
    }
    try {
      if (packet.type === ControlType.ack) {
        this.sender.ack(packet.info, packet.cif, now);
      } else if (packet.type === ControlType.nak) {
        this.sender.nak(packet.cif);
      } else if (packet.type === ControlType.shutdown) {
        this.end('ended', `${this.peer} sent SHUTDOWN`);
      }
    } catch (error) {
      this.options.log.debug({ err: error, peer: this.peer }, 'bad SRT control packet ignored');
    }
  }

  /** Reads what arrived since the last tick (a batched socket), then runs the connection's timers. */
  private tickReceiver(): void {
    const connection = this.connection;
    if (!connection || this.finished) {
      return;
    }
    const failed = this.sendFailure ?? this.drain?.drain(this.onDatagram);
    if (failed !== undefined) {
      this.end(
        'failed',
        failed === 'ECONNREFUSED' ? `nothing listens on ${this.peer}` : `SRT socket to ${this.peer}: ${failed}`,
      );
      return;
    }
    connection.tick();
  }

  /**
   * One datagram of a batch: a view of the shared read buffer. A clear data packet is copied (the
   * receiver holds its payload until its delivery time); control packets are handled at once and
   * an encrypted payload is decrypted into new memory.
   */
  private onBatchDatagram(bytes: Uint8Array): void {
    const clearData = ((bytes[0] as number) & 0x80) === 0 && (((bytes[4] as number) >>> 3) & 3) === 0;
    this.onMessage(clearData ? this.kept.copy(bytes) : bytes);
  }

  private tickSender(): void {
    const sender = this.sender;
    if (!sender || this.finished) {
      return;
    }
    const now = nowUs();
    const idleMs = this.options.idleTimeoutMs ?? 5000;
    if (now - this.lastHeard > idleMs * 1000) {
      this.end('failed', `no packet from ${this.peer} for ${idleMs} ms`);
      return;
    }
    sender.tick(now);
    if (now - this.lastSent > 1_000_000) {
      this.lastSent = now;
      this.sendControl(ControlType.keepalive);
    }
  }

  private sendControl(type: number, cif?: Uint8Array): void {
    const timestamp = Math.round((performance.now() - this.start) * 1000) >>> 0;
    this.datagram(writeControlPacket(type, 0, 0, timestamp, this.peerSocketId, cif));
  }

  private sendHandshake(cif: Uint8Array): void {
    const timestamp = Math.round((performance.now() - this.start) * 1000) >>> 0;
    this.datagram(writeControlPacket(ControlType.handshake, 0, 0, timestamp, 0, cif));
  }

  private datagram(bytes: Uint8Array): void {
    if (this.state === 'over') {
      return;
    }
    if (this.drain) {
      // A batched call writes its ACKs, NAKs and keepalives straight to the connected socket; a
      // lost one is repeated by the next tick, a refusal ends the call at the next tick.
      const failed = this.drain.send(bytes);
      if (failed !== undefined && failed !== 'EAGAIN' && failed !== 'EWOULDBLOCK' && failed !== 'ENOBUFS') {
        this.sendFailure ??= failed;
      }
      return;
    }
    // No callback: node then tries the send at once instead of queueing a request; a failure
    // comes as the socket's 'error' (ECONNREFUSED once the peer is gone), which ends the call.
    this.socket.send(bytes);
  }

  private end(kind: SrtCallEnd['kind'], message: string): void {
    if (this.finished) {
      return;
    }
    this.finished = true;
    clearInterval(this.repeat);
    clearTimeout(this.deadline);
    const connection = this.connection;
    if (connection) {
      // Our own close sends SHUTDOWN before the socket closes; its onClose comes back here, finished.
      connection.close(message, true);
      untrack(this.receiving);
    }
    if (this.sender) {
      untrack(this.sending);
      if (kind !== 'ended') {
        this.sendControl(ControlType.shutdown, new Uint8Array(4));
      }
    }
    this.state = 'over';
    try {
      this.socket.close();
    } catch {
      // The socket is closed already.
    }
    this.options.onEnd({ kind, message });
  }
}

/** A one-word KMRSP state (§3.2.1.2) in words. */
function kmStateText(state: number): string {
  switch (state) {
    case 3:
      return 'it has no passphrase (NOSECRET)';
    case 4:
      return 'wrong passphrase (BADSECRET)';
    case 5:
      return 'cipher mode refused (BADCRYPTOMODE)';
    default:
      return 'no key material in its answer';
  }
}
