/**
 * One RTMP publishing connection (Adobe RTMP Specification 1.0 §5-§7, E-RTMP v2 connect
 * capabilities): handshake, chunk stream, protocol control, NetConnection/NetStream commands,
 * authorization of the stream key and media into the hub through FlvToStream. Any broken
 * handshake, chunk stream or command closes only this session with a logged reason; a bad
 * media packet is counted and logged at a bounded rate.
 */
import type { Socket } from 'node:net';
import { ParseError, ProtocolError, UnsupportedError } from '../../errors.js';
import { amf0Object } from '../../formats/amf0/amf0-value.js';
import { parseMediaTag } from '../../formats/flv/flv-media.js';
import type { FlvPacket } from '../../formats/flv/flv-packet.js';
import { type FlvMetadataHints, metadataHints, parseScriptTag } from '../../formats/flv/flv-script.js';
import { type FlvTag, FlvTagReader, FlvTagType } from '../../formats/flv/flv-tag.js';
import { AlreadyPublishingError, type Hub, type Publisher } from '../../hub/hub.js';
import type { LiveStream } from '../../hub/live-stream.js';
import type { Logger, PublishAuthorizer } from '../../ports.js';
import { ChunkReader } from './chunk-reader.js';
import { ChunkWriter } from './chunk-writer.js';
import { amf0Body, commandMessage, onStatusMessage, parseCommand, type RtmpCommand } from './command.js';
import { ServerHandshake } from './handshake.js';
import {
  acknowledgementMessage,
  MessageType,
  type RtmpMessage,
  readU32,
  setChunkSizeMessage,
  setPeerBandwidthMessage,
  UserControlEvent,
  userControlMessage,
  windowAckSizeMessage,
} from './messages.js';
import { normaliseApp, RTMP_APP, streamKeyOf } from './stream-key.js';
import { FlvToStream } from './to-stream.js';

/** Counters shared by every session of one server. */
export interface RtmpServerStats {
  accepted: number;
  refusedOverLimit: number;
  handshakeFailures: number;
  protocolErrors: number;
  badPackets: number;
  publishes: number;
  refusedPublishes: number;
  timeouts: number;
}

/** What a session needs from its server. */
export interface RtmpSessionOptions {
  readonly hub: Hub;
  readonly authorizer: PublishAuthorizer;
  readonly log: Logger;
  readonly protocol: 'rtmp' | 'rtmps';
  /** A connection without any byte for this long is closed (checked by the server's `sweepIdle` calls). */
  readonly idleTimeoutMs: number;
  readonly handshakeTimeoutMs: number;
  readonly stats: RtmpServerStats;
  /** Largest RTMP message accepted (default 8 MiB). */
  readonly maxMessageSize?: number;
  /** How long to wait for the second track's config (see FlvToStream). */
  readonly descriptionWaitMs?: number;
}

/** Chunk size this server announces for what it sends. */
const OUT_CHUNK_SIZE = 4096;
/** Window acknowledgement size and peer bandwidth announced to the client. */
const WINDOW_SIZE = 2_500_000;
/** Most message streams (createStream) per connection. */
const MAX_MESSAGE_STREAMS = 8;
/** Most messages held while the stream key is being authorized. */
const MAX_QUEUED = 4096;
/** A bad packet is logged the first time and then every this many. */
const BAD_PACKET_LOG_EVERY = 100;

const VIDEO_FOURCCS = ['avc1', 'hvc1', 'av01', 'vp09'] as const;
const AUDIO_FOURCCS = ['mp4a', 'Opus'] as const;
const FOURCC_CAN_FORWARD = 0x04;
const CAPS_EX_MODEX = 0x04;

/** One accepted connection. */
export class RtmpSession {
  private readonly handshake = new ServerHandshake();
  private readonly reader: ChunkReader;
  private readonly writer = new ChunkWriter();
  private readonly log: Logger;
  private handshakeTimer: NodeJS.Timeout | undefined;
  private connected = false;
  private nextStreamId = 1;
  private readonly streamIds = new Set<number>();
  private publishStreamId = 0;
  private publisher: Publisher | undefined;
  private bridge: FlvToStream | undefined;
  private queue: RtmpMessage[] | undefined;
  private hints: FlvMetadataHints = {};
  private bytesIn = 0;
  /** `bytesIn` at the last idle sweep, and when it last changed (the first sweep, at the latest). */
  private bytesAtSweep = 0;
  private lastActiveAt: number | undefined;
  private lastAck = 0;
  private peerWindow = 0;
  private badPackets = 0;
  private closing: string | undefined;
  private readonly done: Promise<void>;
  private resolveDone: () => void = () => {};

  constructor(
    private readonly socket: Socket,
    private readonly options: RtmpSessionOptions,
  ) {
    this.log = options.log.child({ remote: socket.remoteAddress, protocol: options.protocol });
    this.reader = new ChunkReader({ maxMessageSize: options.maxMessageSize ?? 8 * 1024 * 1024 });
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
    this.handshakeTimer = setTimeout(() => {
      this.options.stats.timeouts++;
      this.close(`handshake not finished within ${options.handshakeTimeoutMs} ms`, 'warn');
    }, options.handshakeTimeoutMs);
    this.handshakeTimer.unref();
    socket.on('error', (error: Error) => this.close(`socket error: ${error.message}`, 'info'));
    socket.on('close', () => this.close('connection closed by peer', 'info'));
  }

  /** Resolves once the session has closed. */
  get closed(): Promise<void> {
    return this.done;
  }

  /** The stream this session publishes, if any. */
  get publishedStream(): LiveStream | undefined {
    return this.publisher?.stream;
  }

  /**
   * Closes the session when no byte arrived for the idle timeout. The server calls it on one
   * periodic timer for all its sessions (instead of a socket timer refreshed on every read), so
   * the timeout fires between `idleTimeoutMs` and `idleTimeoutMs` plus the sweep period.
   */
  sweepIdle(now: number): void {
    if (this.bytesIn !== this.bytesAtSweep || this.lastActiveAt === undefined) {
      this.bytesAtSweep = this.bytesIn;
      this.lastActiveAt = now;
    } else if (now - this.lastActiveAt >= this.options.idleTimeoutMs && this.closing === undefined) {
      this.options.stats.timeouts++;
      this.close(`no data for ${this.options.idleTimeoutMs} ms`, 'warn');
    }
  }

  /** Ends the session (publisher first, then the socket). */
  close(reason: string, level: 'info' | 'warn' = 'info'): void {
    if (this.closing !== undefined) {
      return;
    }
    this.closing = reason;
    clearTimeout(this.handshakeTimer);
    this.stopPublishing(reason);
    this.log[level]({ reason, bytesIn: this.bytesIn, badPackets: this.badPackets }, 'RTMP session closed');
    this.socket.end();
    const force = setTimeout(() => this.socket.destroy(), 1000);
    force.unref();
    this.socket.once('close', () => clearTimeout(force));
    this.resolveDone();
  }

  /** Feeds bytes read from the socket (the server wires its reads here). */
  receive(chunk: Uint8Array): void {
    if (this.closing !== undefined) {
      return;
    }
    this.bytesIn += chunk.byteLength;
    try {
      let bytes: Uint8Array = chunk;
      if (this.handshakeTimer) {
        const step = this.handshake.push(bytes);
        if (step.reply.byteLength > 0) {
          this.socket.write(step.reply);
        }
        if (!step.done) {
          return;
        }
        clearTimeout(this.handshakeTimer);
        this.handshakeTimer = undefined;
        bytes = step.rest;
      }
      for (const message of this.reader.push(bytes)) {
        if (this.closing !== undefined) {
          return;
        }
        this.dispatch(message);
      }
      this.acknowledge();
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    if (this.handshakeTimer) {
      this.options.stats.handshakeFailures++;
      this.close(`bad handshake: ${messageOf(error)}`, 'warn');
      return;
    }
    this.options.stats.protocolErrors++;
    const expected = error instanceof ParseError || error instanceof ProtocolError || error instanceof UnsupportedError;
    if (!expected) {
      this.log.error({ err: error }, 'unexpected error in RTMP session');
    }
    this.close(`protocol error: ${messageOf(error)}`, 'warn');
  }

  private acknowledge(): void {
    if (this.peerWindow > 0 && this.bytesIn - this.lastAck >= this.peerWindow) {
      this.lastAck = this.bytesIn;
      this.send(acknowledgementMessage(this.bytesIn));
    }
  }

  private send(message: RtmpMessage): void {
    if (!this.socket.destroyed && this.socket.writable) {
      this.socket.write(this.writer.write(message));
    }
  }

  private dispatch(message: RtmpMessage): void {
    if (this.queue && message.typeId !== MessageType.userControl) {
      if (this.queue.length >= MAX_QUEUED) {
        throw new ProtocolError(`more than ${MAX_QUEUED} messages sent while the stream key was being checked`);
      }
      this.queue.push(message);
      return;
    }
    switch (message.typeId) {
      case MessageType.setChunkSize:
      case MessageType.abort:
      case MessageType.acknowledgement:
      case MessageType.setPeerBandwidth:
        return;
      case MessageType.windowAckSize:
        this.peerWindow = readU32(message.payload) ?? 0;
        return;
      case MessageType.userControl:
        this.onUserControl(message.payload);
        return;
      case MessageType.commandAmf0:
      case MessageType.commandAmf3:
        this.onCommand(message, parseCommand(message));
        return;
      case MessageType.dataAmf0:
      case MessageType.dataAmf3:
        try {
          this.onData0(amf0Body(message));
        } catch (error) {
          this.badPacketFrom(error, 'data message');
        }
        return;
      case MessageType.audio:
      case MessageType.video:
        this.onMedia(message.typeId, message.timestamp, message.payload);
        return;
      case MessageType.aggregate:
        this.onAggregate(message);
        return;
      default:
        this.badPacket(`message type ${message.typeId} is not handled`);
    }
  }

  private onUserControl(payload: Uint8Array): void {
    if (payload.byteLength < 2) {
      this.badPacket('User Control message shorter than 2 bytes');
      return;
    }
    const event = (payload[0] ?? 0) * 256 + (payload[1] ?? 0);
    if (event === UserControlEvent.pingRequest) {
      this.send(userControlMessage(UserControlEvent.pingResponse, readU32(payload, 2) ?? 0));
    }
  }

  private onCommand(message: RtmpMessage, command: RtmpCommand): void {
    if (!this.connected && command.name !== 'connect') {
      throw new ProtocolError(`command ${command.name} before connect`);
    }
    switch (command.name) {
      case 'connect':
        this.onConnect(command);
        return;
      case 'releaseStream':
      case 'FCPublish':
      case 'FCUnpublish':
        if (command.name === 'FCUnpublish') {
          this.stopPublishing('publisher sent FCUnpublish');
        }
        this.send(commandMessage(0, '_result', command.transactionId, null, undefined));
        return;
      case 'createStream':
        this.onCreateStream(command);
        return;
      case 'publish':
        this.onPublish(message.streamId, command);
        return;
      case 'deleteStream':
      case 'closeStream':
        this.stopPublishing(`publisher sent ${command.name}`);
        return;
      case 'play':
        this.send(
          onStatusMessage(message.streamId, 'error', 'NetStream.Play.Failed', 'This server accepts publishing only.'),
        );
        this.close('client asked to play; only publishing is offered', 'info');
        return;
      default:
        this.log.debug({ command: command.name }, 'ignored RTMP command');
    }
  }

  private onConnect(command: RtmpCommand): void {
    if (this.connected) {
      throw new ProtocolError('second connect on one connection');
    }
    const app = typeof command.object?.app === 'string' ? normaliseApp(command.object.app) : '';
    if (app !== RTMP_APP) {
      this.send(
        commandMessage(
          0,
          '_error',
          command.transactionId,
          null,
          amf0Object({
            level: 'error',
            code: 'NetConnection.Connect.Rejected',
            description: `Unknown application "${app.slice(0, 64)}"; publish to rtmp://host/${RTMP_APP}/<streamKey>.`,
          }),
        ),
      );
      this.options.stats.refusedPublishes++;
      this.close(`connect to unknown application "${app.slice(0, 64)}"`, 'info');
      return;
    }
    this.connected = true;
    this.send(windowAckSizeMessage(WINDOW_SIZE));
    this.send(setPeerBandwidthMessage(WINDOW_SIZE, 2));
    this.send(setChunkSizeMessage(OUT_CHUNK_SIZE));
    this.writer.chunkSize = OUT_CHUNK_SIZE;
    const enhanced =
      command.object?.fourCcList !== undefined ||
      command.object?.videoFourCcInfoMap !== undefined ||
      command.object?.capsEx !== undefined;
    const capabilities = enhanced
      ? {
          fourCcList: [...VIDEO_FOURCCS, ...AUDIO_FOURCCS],
          videoFourCcInfoMap: amf0Object(Object.fromEntries(VIDEO_FOURCCS.map((f) => [f, FOURCC_CAN_FORWARD]))),
          audioFourCcInfoMap: amf0Object(Object.fromEntries(AUDIO_FOURCCS.map((f) => [f, FOURCC_CAN_FORWARD]))),
          capsEx: CAPS_EX_MODEX,
        }
      : {};
    this.send(
      commandMessage(
        0,
        '_result',
        command.transactionId,
        amf0Object({ fmsVer: 'FMS/3,5,7,7009', capabilities: 31, mode: 1, ...capabilities }),
        amf0Object({
          level: 'status',
          code: 'NetConnection.Connect.Success',
          description: 'Connection succeeded.',
          objectEncoding: 0,
        }),
      ),
    );
  }

  private onCreateStream(command: RtmpCommand): void {
    if (this.streamIds.size >= MAX_MESSAGE_STREAMS) {
      throw new ProtocolError(`more than ${MAX_MESSAGE_STREAMS} createStream calls`);
    }
    const id = this.nextStreamId++;
    this.streamIds.add(id);
    this.send(commandMessage(0, '_result', command.transactionId, null, id));
  }

  private onPublish(streamId: number, command: RtmpCommand): void {
    if (this.publisher || this.queue) {
      throw new ProtocolError('publish while already publishing on this connection');
    }
    const name = command.args[0];
    const key = typeof name === 'string' ? streamKeyOf(name) : undefined;
    if (key === undefined) {
      this.refuse(streamId, 'NetStream.Publish.BadName', 'Missing or malformed stream key.', 'malformed stream key');
      return;
    }
    this.queue = [];
    this.publishStreamId = streamId;
    this.options.authorizer.authorize(key, this.options.protocol).then(
      (grant) => {
        if (this.closing !== undefined) {
          return;
        }
        if (!grant) {
          this.refuse(streamId, 'NetStream.Publish.BadName', 'Unknown or inactive stream key.', 'stream key refused');
          return;
        }
        let publisher: Publisher;
        try {
          publisher = this.options.hub.publish(grant, this.options.protocol);
        } catch (error) {
          if (error instanceof AlreadyPublishingError) {
            this.refuse(
              streamId,
              'NetStream.Publish.BadName',
              'Stream is already publishing from another connection.',
              `stream ${grant.streamId} already has a publisher`,
            );
            return;
          }
          this.fail(error);
          return;
        }
        this.options.stats.publishes++;
        this.publisher = publisher;
        this.bridge = new FlvToStream(publisher, {
          log: this.log.child({ streamId: grant.streamId }),
          ...(this.options.descriptionWaitMs === undefined
            ? {}
            : { descriptionWaitMs: this.options.descriptionWaitMs }),
        });
        this.bridge.setHints(this.hints);
        this.log.info({ streamId: grant.streamId, resumed: publisher.resumed }, 'RTMP publish started');
        this.send(userControlMessage(UserControlEvent.streamBegin, streamId));
        this.send(
          onStatusMessage(streamId, 'status', 'NetStream.Publish.Start', 'Publishing started.', {
            details: grant.playbackId,
          }),
        );
        this.drainQueue();
      },
      (error: unknown) => {
        this.log.error({ err: error }, 'stream key authorization failed');
        this.refuse(
          streamId,
          'NetStream.Publish.Denied',
          'Authorization is unavailable; try again.',
          'authorizer failed',
        );
      },
    );
  }

  private drainQueue(): void {
    const queued = this.queue ?? [];
    this.queue = undefined;
    try {
      for (const message of queued) {
        if (this.closing !== undefined) {
          return;
        }
        this.dispatch(message);
      }
    } catch (error) {
      this.fail(error);
    }
  }

  private refuse(streamId: number, code: string, description: string, reason: string): void {
    this.options.stats.refusedPublishes++;
    this.queue = undefined;
    this.send(onStatusMessage(streamId, 'error', code, description));
    this.close(`publish refused: ${reason}`, 'info');
  }

  private stopPublishing(reason: string): void {
    this.bridge?.close();
    this.bridge = undefined;
    this.publisher?.close(reason);
    this.publisher = undefined;
    this.queue = undefined;
  }

  private onData0(body: Uint8Array): void {
    const script = parseScriptTag(body);
    const hints = metadataHints(script);
    this.hints = { ...this.hints, ...hints };
    this.bridge?.setHints(hints);
  }

  private onMedia(typeId: number, timestamp: number, payload: Uint8Array): void {
    const bridge = this.bridge;
    if (!bridge) {
      this.badPacket('media before a successful publish');
      return;
    }
    let packet: FlvPacket | null;
    try {
      packet = parseMediaTag(typeId, payload, timestamp);
    } catch (error) {
      this.badPacketFrom(error, `${typeId === MessageType.video ? 'video' : 'audio'} tag`);
      return;
    }
    if (!packet) {
      return;
    }
    if (packet.packetType === 'config') {
      bridge.push(packet);
      return;
    }
    try {
      bridge.push(packet);
    } catch (error) {
      this.badPacketFrom(error, `${packet.kind} ${packet.packetType}`);
    }
  }

  private onAggregate(message: RtmpMessage): void {
    let tags: FlvTag[];
    try {
      const reader = new FlvTagReader({ expectHeader: false, maxTagSize: message.payload.byteLength, views: true });
      tags = reader.push(message.payload);
    } catch (error) {
      this.badPacketFrom(error, 'aggregate message');
      return;
    }
    const first = tags[0]?.timestampMs ?? 0;
    for (const tag of tags) {
      const timestamp = (message.timestamp + tag.timestampMs - first) >>> 0;
      if (tag.type === FlvTagType.script) {
        try {
          this.onData0(tag.data);
        } catch (error) {
          this.badPacketFrom(error, 'aggregate script tag');
        }
      } else {
        this.onMedia(tag.type === FlvTagType.video ? MessageType.video : MessageType.audio, timestamp, tag.data);
      }
    }
  }

  /** Counts an expected media error (ParseError, UnsupportedError) in `what` as a bad packet; rethrows anything else. */
  private badPacketFrom(error: unknown, what: string): void {
    if (error instanceof ParseError || error instanceof UnsupportedError) {
      this.badPacket(`${what}: ${error.message}`);
      return;
    }
    throw error;
  }

  private badPacket(reason: string): void {
    this.badPackets++;
    this.options.stats.badPackets++;
    if (this.badPackets % BAD_PACKET_LOG_EVERY === 1) {
      this.log.warn({ badPackets: this.badPackets, streamId: this.publishStreamId }, `bad RTMP packet: ${reason}`);
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
