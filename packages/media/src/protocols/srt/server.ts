/**
 * SRT listener for live publishing (draft-sharabayko-srt-01 §4.3.1, caller-listener handshake v5):
 * an INDUCTION is answered with a SYN cookie and nothing is kept; a CONCLUSION carrying a valid
 * cookie is checked (HSREQ, Stream ID, congestion/filter/group extensions, KMREQ), its stream key
 * authorized and, when the stream has a passphrase (its own or the node's), its key material
 * unwrapped; then the connection is created and answered with HSRSP (+ KMRSP), or the caller is
 * refused with an SRT rejection code. One UDP socket serves every connection; one timer drives
 * delivery, ACK, NAK, keepalive and idle timeouts of all connections.
 */
import { randomInt } from 'node:crypto';
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { AlreadyPublishingError, type Hub, type Publisher } from '../../hub/hub.js';
import type {
  IngestConnectionSink,
  IngestConnectionStats,
  Logger,
  PublishAuthorizer,
  PublishGrant,
} from '../../ports.js';
import { type Conclusion, Refusal, readConclusion } from './conclusion.js';
import { SrtConnection } from './connection.js';
import { type StreamKeys, unwrapKeyMaterial } from './crypto.js';
import {
  ExtensionFlag,
  ExtensionType,
  type Handshake,
  HandshakeType,
  PROTOCOL_MTU,
  parseHandshake,
  peerIpField,
  RECEIVER_FLAGS,
  RejectReason,
  rejectionHandshakeType,
  SRT_MAGIC,
  SRT_VERSION,
  writeHandshake,
  writeSrtHandshakeInfo,
} from './handshake.js';
import { type ControlPacket, ControlType, parsePacket, writeControlPacket } from './packet.js';
import { SynCookies } from './syn-cookie.js';

/** Options of an SRT listener. */
export interface SrtServerOptions {
  readonly hub: Hub;
  readonly authorizer: PublishAuthorizer;
  readonly log: Logger;
  /** Receiver latency offered (ms, default 120); the larger of this and the caller's is used. */
  readonly latencyMs?: number;
  /** The node's passphrase, for streams without their own. */
  readonly passphrase?: string;
  /** A connection without any packet for this long closes (default 5000 ms). */
  readonly idleTimeoutMs?: number;
  /** Most connections (default 1000); more are refused with SRT_REJ_BACKLOG. */
  readonly maxConnections?: number;
  /** Most conclusions being authorized at once (default 256). */
  readonly maxPendingHandshakes?: number;
  /** Receive buffer per connection in packets (default 8192). */
  readonly bufferPackets?: number;
  /** Receives connection statistics (connect, every `statsIntervalMs`, disconnect). */
  readonly connections?: IngestConnectionSink;
  /** Interval of statistics reports (default 5000 ms). */
  readonly statsIntervalMs?: number;
}

/** Counters of a listener. */
export interface SrtServerStats {
  packets: number;
  /** Datagrams that are not SRT packets, or handshakes that do not parse. */
  badPackets: number;
  /** Packets for an unknown socket id or from another address than the connection's peer. */
  strayPackets: number;
  inductions: number;
  /** Conclusions with a cookie this listener did not make (or made too long ago). */
  badCookies: number;
  conclusions: number;
  accepted: number;
  rejected: number;
}

/** A refused caller gets the same answer to its repeated conclusions for this long. */
const REJECTION_MEMORY_MS = 10_000;
const TICK_MS = 5;

interface Established {
  readonly connection: SrtConnection<Publisher>;
  readonly response: Uint8Array;
  readonly grant: PublishGrant;
  readonly sessionId: string;
  readonly encrypted: boolean;
  readonly peer: string;
}

function nowUs(): number {
  return Math.round(performance.now() * 1000);
}

/** The SRT ingest listener. */
export class SrtServer {
  readonly stats: SrtServerStats = {
    packets: 0,
    badPackets: 0,
    strayPackets: 0,
    inductions: 0,
    badCookies: 0,
    conclusions: 0,
    accepted: 0,
    rejected: 0,
  };
  private readonly socket: Socket;
  private readonly cookies = new SynCookies();
  private readonly log: Logger;
  private readonly listenerSocketId = randomInt(1, 0x7fffffff);
  private readonly start = performance.now();
  /** Established connections by our socket id. */
  private readonly bySocket = new Map<number, Established>();
  /** Established, pending or refused callers by address|port|caller socket id. */
  private readonly byPeer = new Map<
    string,
    | { state: 'pending' }
    | { state: 'established'; socketId: number }
    | { state: 'refused'; response: Uint8Array; at: number }
  >();
  private pending = 0;
  private timer: NodeJS.Timeout | undefined;
  private statsTimer: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(private readonly options: SrtServerOptions) {
    this.log = options.log.child({ component: 'srt' });
    this.socket = createSocket({ type: 'udp4', recvBufferSize: 4 * 1024 * 1024 });
    this.socket.on('message', (message, remote) => this.onMessage(message, remote));
    this.socket.on('error', (error) => this.log.error({ err: error }, 'SRT socket error'));
  }

  /** Live connections. */
  get connectionCount(): number {
    return this.bySocket.size;
  }

  /** The established connections (statistics, tests). */
  connections(): SrtConnection<Publisher>[] {
    return [...this.bySocket.values()].map((entry) => entry.connection);
  }

  /** Binds the UDP port; resolves with the bound port (0 for an ephemeral one). */
  listen(port: number, host = '0.0.0.0'): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      this.socket.once('error', onError);
      this.socket.bind(port, host, () => {
        this.socket.off('error', onError);
        const bound = this.socket.address().port;
        this.log.info({ port: bound, host, latencyMs: this.latencyMs }, 'srt ingest listening');
        resolve(bound);
      });
    });
  }

  /** Closes every connection (SHUTDOWN to each peer) and the socket. */
  async close(): Promise<void> {
    this.closing = true;
    for (const entry of [...this.bySocket.values()]) {
      entry.connection.close('server shutting down');
    }
    clearInterval(this.timer);
    clearInterval(this.statsTimer);
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }

  private get latencyMs(): number {
    return this.options.latencyMs ?? 120;
  }

  private onMessage(message: Buffer, remote: RemoteInfo): void {
    this.stats.packets++;
    let packet: ReturnType<typeof parsePacket>;
    try {
      packet = parsePacket(message);
    } catch {
      this.stats.badPackets++;
      return;
    }
    if (packet.destinationSocket === 0) {
      if (packet.control && packet.type === ControlType.handshake) {
        this.onHandshake(packet, remote);
      } else {
        this.stats.strayPackets++;
      }
      return;
    }
    const entry = this.bySocket.get(packet.destinationSocket);
    if (!entry || entry.peer !== `${remote.address}:${remote.port}`) {
      this.stats.strayPackets++;
      return;
    }
    if (packet.control) {
      entry.connection.control(packet);
    } else {
      entry.connection.data(packet);
    }
  }

  private onHandshake(packet: ControlPacket, remote: RemoteInfo): void {
    let hs: Handshake;
    try {
      hs = parseHandshake(packet.cif);
    } catch {
      this.stats.badPackets++;
      return;
    }
    if (hs.type === HandshakeType.induction) {
      this.stats.inductions++;
      this.send(
        remote,
        hs.socketId,
        writeHandshake({
          version: 5,
          encryption: 0,
          extensionField: SRT_MAGIC,
          initialSequence: hs.initialSequence,
          mtu: Math.min(hs.mtu || PROTOCOL_MTU, PROTOCOL_MTU),
          flowWindow: hs.flowWindow,
          type: HandshakeType.induction,
          socketId: this.listenerSocketId,
          cookie: this.cookies.make(remote.address, remote.port),
          peerIp: peerIpField(remote.address),
          extensions: [],
        }),
      );
      return;
    }
    if (hs.type !== HandshakeType.conclusion) {
      this.stats.badPackets++;
      return;
    }
    if (!this.cookies.check(remote.address, remote.port, hs.cookie)) {
      this.stats.badCookies++;
      return;
    }
    this.stats.conclusions++;
    const peerKey = `${remote.address}|${remote.port}|${hs.socketId}`;
    const known = this.byPeer.get(peerKey);
    if (known?.state === 'pending') {
      return;
    }
    if (known?.state === 'established') {
      const entry = this.bySocket.get(known.socketId);
      if (entry) {
        this.send(remote, hs.socketId, entry.response);
      }
      return;
    }
    if (known?.state === 'refused' && Date.now() - known.at < REJECTION_MEMORY_MS) {
      this.send(remote, hs.socketId, known.response);
      return;
    }
    const checked = readConclusion(hs, this.latencyMs, nowUs() - packet.timestamp);
    if (checked instanceof Refusal) {
      this.refuse(peerKey, remote, hs, checked);
      return;
    }
    if (this.closing) {
      this.refuse(peerKey, remote, hs, new Refusal(RejectReason.close, 'listener closing'));
      return;
    }
    if (this.pending >= (this.options.maxPendingHandshakes ?? 256)) {
      this.refuse(peerKey, remote, hs, new Refusal(RejectReason.backlog, 'too many handshakes in progress'));
      return;
    }
    this.pending++;
    this.byPeer.set(peerKey, { state: 'pending' });
    this.conclude(checked, peerKey, remote)
      .catch((error: unknown) => {
        this.log.error({ err: error }, 'SRT conclusion failed');
        this.refuse(peerKey, remote, hs, new Refusal(RejectReason.system, 'internal error'));
      })
      .finally(() => {
        this.pending--;
      });
  }

  private async conclude(conclusion: Conclusion, peerKey: string, remote: RemoteInfo): Promise<void> {
    const { hs, km } = conclusion;
    let grant: PublishGrant | null;
    try {
      grant = await this.options.authorizer.authorize(conclusion.key, 'srt');
    } catch (error) {
      this.log.error({ err: error }, 'stream key authorization failed');
      this.refuse(peerKey, remote, hs, new Refusal(RejectReason.system, 'authorizer failed'));
      return;
    }
    if (this.closing) {
      this.refuse(peerKey, remote, hs, new Refusal(RejectReason.close, 'listener closing'));
      return;
    }
    if (!grant) {
      this.refuse(peerKey, remote, hs, new Refusal(RejectReason.forbidden, 'unknown or inactive stream key'));
      return;
    }
    const passphrase = grant.srtPassphrase ?? this.options.passphrase;
    let keys: StreamKeys | undefined;
    if (passphrase !== undefined && !km) {
      this.refuse(peerKey, remote, hs, new Refusal(RejectReason.unsecure, 'the stream needs a passphrase'));
      return;
    }
    if (km) {
      keys = passphrase === undefined ? undefined : unwrapKeyMaterial(km.parsed, passphrase);
      if (!keys) {
        const refusal =
          passphrase === undefined
            ? new Refusal(RejectReason.unsecure, 'encrypted publish to a stream without a passphrase')
            : new Refusal(RejectReason.badSecret, 'wrong passphrase');
        this.refuse(peerKey, remote, hs, refusal);
        return;
      }
    }
    if (this.bySocket.size >= (this.options.maxConnections ?? 1000)) {
      this.refuse(peerKey, remote, hs, new Refusal(RejectReason.backlog, 'too many connections'));
      return;
    }
    let publisher: Publisher;
    try {
      publisher = this.options.hub.publish(grant, 'srt');
    } catch (error) {
      if (error instanceof AlreadyPublishingError) {
        this.refuse(peerKey, remote, hs, new Refusal(RejectReason.conflict, 'the stream already has a publisher'));
        return;
      }
      throw error;
    }
    this.establish(
      conclusion,
      peerKey,
      remote,
      grant,
      publisher,
      keys && passphrase ? { passphrase, keys } : undefined,
    );
  }

  private establish(
    conclusion: Conclusion,
    peerKey: string,
    remote: RemoteInfo,
    grant: PublishGrant,
    publisher: Publisher,
    crypto: { passphrase: string; keys: StreamKeys } | undefined,
  ): void {
    const { hs, km } = conclusion;
    let socketId = randomInt(1, 0x7fffffff);
    while (this.bySocket.has(socketId)) {
      socketId = randomInt(1, 0x7fffffff);
    }
    const peer = `${remote.address}:${remote.port}`;
    const sessionId = `srt-${socketId.toString(16)}`;
    const log = this.log.child({ streamId: grant.streamId, peer, sessionId });
    const bufferPackets = this.options.bufferPackets ?? 8192;
    const connection = new SrtConnection({
      socketId,
      peerSocketId: hs.socketId,
      peer,
      publisher,
      log,
      send: (bytes) => this.socket.send(bytes, remote.port, remote.address),
      initialSequence: hs.initialSequence,
      latencyMs: conclusion.latencyMs,
      timeBaseUs: conclusion.timeBaseUs,
      bufferPackets,
      idleTimeoutMs: this.options.idleTimeoutMs ?? 5000,
      ...(crypto ? { keys: { passphrase: crypto.passphrase, initial: crypto.keys } } : {}),
      onClose: (reason) => {
        const entry = this.bySocket.get(socketId);
        this.bySocket.delete(socketId);
        this.byPeer.delete(peerKey);
        if (entry) {
          this.options.connections?.disconnected(grant.streamId, this.statsOf(entry), reason);
        }
        if (this.bySocket.size === 0) {
          clearInterval(this.timer);
          clearInterval(this.statsTimer);
          this.timer = undefined;
          this.statsTimer = undefined;
        }
      },
    });
    const info = writeSrtHandshakeInfo({
      srtVersion: SRT_VERSION,
      flags: RECEIVER_FLAGS,
      receiverDelayMs: conclusion.latencyMs,
      senderDelayMs: conclusion.latencyMs,
    });
    const response = writeHandshake({
      version: 5,
      encryption: hs.encryption,
      extensionField: ExtensionFlag.hsreq | (km ? ExtensionFlag.kmreq : 0),
      initialSequence: hs.initialSequence,
      mtu: Math.min(hs.mtu || PROTOCOL_MTU, PROTOCOL_MTU),
      flowWindow: Math.min(hs.flowWindow, bufferPackets),
      type: HandshakeType.conclusion,
      socketId,
      cookie: hs.cookie,
      peerIp: peerIpField(remote.address),
      extensions: [
        { type: ExtensionType.hsrsp, content: info },
        ...(km ? [{ type: ExtensionType.kmrsp, content: km.raw }] : []),
      ],
    });
    const entry: Established = { connection, response, grant, sessionId, encrypted: crypto !== undefined, peer };
    this.bySocket.set(socketId, entry);
    this.byPeer.set(peerKey, { state: 'established', socketId });
    this.stats.accepted++;
    this.send(remote, hs.socketId, response);
    log.info(
      { latencyMs: conclusion.latencyMs, encrypted: entry.encrypted, resumed: publisher.resumed },
      'SRT publish started',
    );
    this.options.connections?.connected(grant.streamId, this.statsOf(entry));
    this.startTimers();
  }

  private refuse(peerKey: string, remote: RemoteInfo, hs: Handshake, refusal: Refusal): void {
    this.stats.rejected++;
    const response = writeHandshake({
      ...hs,
      version: 5,
      extensionField: 0,
      type: rejectionHandshakeType(refusal.reason),
      socketId: this.listenerSocketId,
      peerIp: peerIpField(remote.address),
      extensions: [],
    });
    this.byPeer.set(peerKey, { state: 'refused', response, at: Date.now() });
    setTimeout(() => {
      const known = this.byPeer.get(peerKey);
      if (known?.state === 'refused') {
        this.byPeer.delete(peerKey);
      }
    }, REJECTION_MEMORY_MS).unref();
    this.log.info(
      { peer: `${remote.address}:${remote.port}`, code: refusal.reason, reason: refusal.message },
      'SRT caller refused',
    );
    this.send(remote, hs.socketId, response);
  }

  private send(remote: RemoteInfo, destination: number, handshake: Uint8Array): void {
    const timestamp = Math.round((performance.now() - this.start) * 1000) >>> 0;
    this.socket.send(
      writeControlPacket(ControlType.handshake, 0, 0, timestamp, destination, handshake),
      remote.port,
      remote.address,
    );
  }

  private startTimers(): void {
    if (!this.timer) {
      this.timer = setInterval(() => {
        for (const entry of this.bySocket.values()) {
          entry.connection.tick();
        }
      }, TICK_MS);
      this.timer.unref();
    }
    const sink = this.options.connections;
    if (sink && !this.statsTimer) {
      this.statsTimer = setInterval(() => {
        for (const entry of this.bySocket.values()) {
          sink.updated(entry.grant.streamId, this.statsOf(entry));
        }
      }, this.options.statsIntervalMs ?? 5000);
      this.statsTimer.unref();
    }
  }

  private statsOf(entry: Established): IngestConnectionStats {
    const connection = entry.connection;
    const stats = connection.receiver.stats;
    return {
      sessionId: entry.sessionId,
      protocol: 'srt',
      remote: entry.peer,
      connectedAt: connection.startedAt,
      packetsReceived: stats.packetsReceived,
      packetsLost: stats.packetsLost,
      packetsRetransmitted: stats.packetsRetransmitted,
      packetsDropped: stats.packetsDropped,
      bytesReceived: stats.bytesReceived,
      rttMs: stats.rttUs / 1000,
      bitrateBps: connection.receiver.bytesPerSecond * 8,
      receiveBufferPackets: connection.receiver.bufferedPackets,
      latencyMs: connection.options.latencyMs,
      encrypted: entry.encrypted,
    };
  }
}
