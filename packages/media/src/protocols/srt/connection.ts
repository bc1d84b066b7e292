/**
 * One established SRT receiving connection (draft-sharabayko-srt-01 §3, §4.5-§4.10, §6) — a
 * publisher that called our listener, or a source our caller dialled: data
 * packets decrypted with the even or odd stream key (KK) and fed to the receiver; ACKACK, NAK
 * from the peer (ignored: we do not send data), KEEPALIVE, SHUTDOWN, DROPREQ and KM refresh
 * requests handled; what the receiver delivers goes through the MPEG-TS demuxer into the media
 * sink. A connection without any packet for `idleTimeoutMs` closes.
 */
import { TsDemuxer } from '../../formats/mpegts/ts-demuxer.js';
import type { Publisher } from '../../hub/hub.js';
import type { Logger } from '../../ports.js';
import { cryptPayload, type StreamKeys, unwrapKeyMaterial } from './crypto.js';
import { KmState, parseKeyMaterial, writeKmState } from './key-material.js';
import {
  type ControlPacket,
  ControlType,
  type DataPacket,
  parseDropRequest,
  UserSubtype,
  writeAckCif,
  writeControlPacket,
  writeLossList,
} from './packet.js';
import { SrtReceiver } from './receiver.js';

/** Where a connection's media goes: a hub publisher (ingest) or a pull attempt's sink (caller). */
export type SrtMediaSink = Pick<Publisher, 'setDescription' | 'write' | 'close'>;

/** Sends one datagram to the connection's peer. */
export type SendDatagram = (bytes: Uint8Array) => void;

/** What a connection is set up with. */
export interface SrtConnectionOptions<Sink extends SrtMediaSink = SrtMediaSink> {
  /** Our socket id (the peer's destination). */
  readonly socketId: number;
  readonly peerSocketId: number;
  readonly peer: string;
  readonly publisher: Sink;
  readonly log: Logger;
  readonly send: SendDatagram;
  readonly initialSequence: number;
  readonly latencyMs: number;
  /** Local µs minus the sender's µs at the conclusion. */
  readonly timeBaseUs: number;
  readonly bufferPackets: number;
  readonly idleTimeoutMs: number;
  /** The stream keys from the handshake and the passphrase for refreshes (encrypted connections). */
  readonly keys?: { readonly passphrase: string; readonly initial: StreamKeys };
  /** Called once when the connection ends. */
  readonly onClose: (reason: string) => void;
}

/** Counters of one connection beyond the receiver's. */
export interface ConnectionStats {
  /** Malformed or unexpected packets dropped. */
  badPackets: number;
  /** Encrypted packets without a key to decrypt them. */
  undecryptable: number;
  keyRefreshes: number;
}

/** Logs at most one bad packet per this many. */
const BAD_PACKET_LOG_EVERY = 100;

/** An SRT publisher's connection. */
export class SrtConnection<Sink extends SrtMediaSink = SrtMediaSink> {
  readonly receiver: SrtReceiver;
  readonly stats: ConnectionStats = { badPackets: 0, undecryptable: 0, keyRefreshes: 0 };
  readonly startedAt = new Date();
  private readonly start = performance.now();
  private readonly demuxer: TsDemuxer;
  private lastHeard: number;
  private lastSent = 0;
  private closedReason: string | undefined;
  /** Stream key and salt per KK slot (1 even, 2 odd). */
  private readonly keys: ({ key: Buffer; salt: Buffer } | undefined)[] = [undefined, undefined, undefined];
  private drops = 0;
  /** When the peer sent SHUTDOWN (µs), undefined before. */
  private shutdownAt: number | undefined;

  constructor(readonly options: SrtConnectionOptions<Sink>) {
    this.lastHeard = this.now();
    if (options.keys) {
      this.install(options.keys.initial);
    }
    const publisher = options.publisher;
    this.demuxer = new TsDemuxer({
      setDescription: (description) => publisher.setDescription(description),
      write: (unit) => publisher.write(unit),
      unsupported: (pid, reason) => options.log.info({ pid, reason }, 'SRT stream left out'),
      dropped: (reason) => {
        if (this.drops++ % BAD_PACKET_LOG_EVERY === 0) {
          options.log.warn({ reason, drops: this.drops }, 'SRT MPEG-TS input dropped');
        }
      },
    });
    this.receiver = new SrtReceiver(
      {
        initialSequence: options.initialSequence,
        latencyUs: options.latencyMs * 1000,
        timeBaseUs: options.timeBaseUs,
        bufferPackets: options.bufferPackets,
      },
      {
        deliver: (payload) => this.demuxer.push(payload),
        ack: (ackNumber, info) => this.sendControl(ControlType.ack, 0, ackNumber, writeAckCif(info)),
        nak: (ranges) => this.sendControl(ControlType.nak, 0, 0, writeLossList(ranges)),
      },
    );
  }

  /** Microseconds on this process's monotonic clock. */
  now(): number {
    return Math.round(performance.now() * 1000);
  }

  /** Whether the peer sent SHUTDOWN (it ended the connection). */
  get peerShutdown(): boolean {
    return this.shutdownAt !== undefined;
  }

  /** True once closed. */
  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** The demuxer's counters (continuity errors, units). */
  get demuxStats(): TsDemuxer['stats'] {
    return this.demuxer.stats;
  }

  /** A data packet for this connection. */
  data(packet: DataPacket): void {
    const now = this.now();
    this.lastHeard = now;
    let payload = packet.payload;
    if (packet.keySlot !== 0) {
      const slot = this.keys[packet.keySlot];
      if (!slot) {
        this.stats.undecryptable++;
        this.bad(`encrypted packet (KK=${packet.keySlot}) without its key`);
        return;
      }
      payload = cryptPayload(slot.key, slot.salt, packet.sequence, payload);
    } else if (this.options.keys) {
      this.stats.undecryptable++;
      this.bad('clear packet on an encrypted connection');
      return;
    }
    this.receiver.receive(packet.sequence, packet.timestamp, packet.retransmitted, payload, now);
  }

  /** A control packet for this connection. */
  control(packet: ControlPacket): void {
    const now = this.now();
    this.lastHeard = now;
    switch (packet.type) {
      case ControlType.ackack:
        this.receiver.ackAcknowledged(packet.info, now);
        return;
      case ControlType.keepalive:
        this.sendControl(ControlType.keepalive, 0, 0);
        return;
      case ControlType.shutdown:
        // Data sent before the SHUTDOWN may still be on its way (reordered): wait for the
        // missing packets up to the latency, then deliver what is here and close.
        this.shutdownAt ??= now;
        return;
      case ControlType.dropRequest:
        this.guard(() => this.receiver.dropRange(parseDropRequest(packet.cif)));
        return;
      case ControlType.ack:
      case ControlType.nak:
      case ControlType.congestionWarning:
      case ControlType.peerError:
      case ControlType.handshake:
        return;
      case ControlType.userDefined:
        if (packet.subtype === UserSubtype.kmRequest) {
          this.guard(() => this.refreshKeys(packet.cif));
        }
        return;
      default:
        this.bad(`unknown control type ${packet.type}`);
    }
  }

  /** Timers: delivery, ACK, NAK, keepalive, idle timeout. */
  tick(): void {
    if (this.closed) {
      return;
    }
    const now = this.now();
    if (
      this.shutdownAt !== undefined &&
      (this.receiver.lossCount === 0 || now - this.shutdownAt > this.options.latencyMs * 1000)
    ) {
      this.receiver.flush();
      this.close('peer sent SHUTDOWN', false);
      return;
    }
    if (now - this.lastHeard > this.options.idleTimeoutMs * 1000) {
      this.close(`no packet for ${this.options.idleTimeoutMs} ms`, true);
      return;
    }
    this.receiver.tick(now);
    if (now - this.lastSent > 1_000_000) {
      this.sendControl(ControlType.keepalive, 0, 0);
    }
  }

  /** Ends the connection: SHUTDOWN to the peer (unless it asked), publisher closed. */
  close(reason: string, notifyPeer = true): void {
    if (this.closed) {
      return;
    }
    this.closedReason = reason;
    if (notifyPeer) {
      this.sendControl(ControlType.shutdown, 0, 0, new Uint8Array(4));
    }
    this.demuxer.end();
    this.options.publisher.close(reason);
    this.options.log.info({ reason, ...this.receiver.stats }, 'SRT connection closed');
    this.options.onClose(reason);
  }

  private refreshKeys(cif: Uint8Array): void {
    const passphrase = this.options.keys?.passphrase;
    const km = parseKeyMaterial(cif);
    const keys = passphrase === undefined ? undefined : unwrapKeyMaterial(km, passphrase);
    if (!keys) {
      this.sendControl(ControlType.userDefined, UserSubtype.kmResponse, 0, writeKmState(KmState.badSecret));
      this.bad('key refresh with a key the passphrase does not unwrap');
      return;
    }
    this.install(keys);
    this.stats.keyRefreshes++;
    this.sendControl(ControlType.userDefined, UserSubtype.kmResponse, 0, cif);
  }

  private install(keys: StreamKeys): void {
    if (keys.even) {
      this.keys[1] = { key: keys.even, salt: keys.salt };
    }
    if (keys.odd) {
      this.keys[2] = { key: keys.odd, salt: keys.salt };
    }
  }

  private guard(action: () => void): void {
    try {
      action();
    } catch (error) {
      this.bad((error as Error).message);
    }
  }

  private bad(reason: string): void {
    if (this.stats.badPackets++ % BAD_PACKET_LOG_EVERY === 0) {
      this.options.log.warn({ reason, badPackets: this.stats.badPackets }, 'bad SRT packet dropped');
    }
  }

  private sendControl(type: number, subtype: number, info: number, cif?: Uint8Array): void {
    const now = this.now();
    this.lastSent = now;
    const timestamp = Math.round(performance.now() * 1000 - this.start * 1000) >>> 0;
    this.options.send(writeControlPacket(type, subtype, info, timestamp, this.options.peerSocketId, cif));
  }
}
