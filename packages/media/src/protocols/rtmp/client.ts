/**
 * A small RTMP/RTMPS publisher (Adobe RTMP Specification 1.0 §5-§7, E-RTMP v2 connect
 * `fourCcList`): handshake, connect, createStream, publish, then FLV tags as audio/video/data
 * messages. Used by scripts/publish-flv.ts, tests and benchmarks to send what ffmpeg cannot
 * (E-RTMP AV1/HEVC/Opus).
 */
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { ProtocolError } from '../../errors.js';
import { decodeAmf0 } from '../../formats/amf0/amf0-decode.js';
import { type Amf0Object, type Amf0Value, amf0Object, amf0Properties } from '../../formats/amf0/amf0-value.js';
import { type AudioTagInput, buildAudioTag, buildVideoTag, type VideoTagInput } from '../../formats/flv/flv-build.js';
import { type FlvTag, FlvTagType } from '../../formats/flv/flv-tag.js';
import { ChunkReader } from './chunk-reader.js';
import { ChunkWriter } from './chunk-writer.js';
import { commandMessage, parseCommand } from './command.js';
import { ClientHandshake } from './handshake.js';
import {
  Csid,
  MessageType,
  type RtmpMessage,
  readU32,
  setChunkSizeMessage,
  UserControlEvent,
  userControlMessage,
} from './messages.js';

/** Connection options of the publisher. */
export interface RtmpPublisherConnectOptions {
  /** TLS options for rtmps:// (`rejectUnauthorized: false` for self-signed test certificates). */
  readonly tls?: { readonly rejectUnauthorized?: boolean; readonly ca?: string | Buffer; readonly servername?: string };
  /** Give up when publish has not started within this time (default 10 s). */
  readonly timeoutMs?: number;
  /** Dial this address instead of resolving the URL's host (a checked address); tcUrl and TLS SNI keep the host name. */
  readonly address?: string;
}

/** The parts of an RTMP URL. */
export interface RtmpUrl {
  readonly secure: boolean;
  readonly host: string;
  readonly port: number;
  readonly app: string;
  /** Publish name (stream key with any query). */
  readonly name: string;
  /** tcUrl as sent in connect. */
  readonly tcUrl: string;
}

/** Parses `rtmp[s]://host[:port]/app/name`. */
export function parseRtmpUrl(url: string): RtmpUrl {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'rtmps:';
  if (!secure && parsed.protocol !== 'rtmp:') {
    throw new ProtocolError(`not an rtmp:// or rtmps:// URL: ${parsed.protocol}`);
  }
  const path = parsed.pathname.replace(/^\/+/, '');
  const slash = path.indexOf('/');
  if (slash <= 0 || slash === path.length - 1) {
    throw new ProtocolError('RTMP URL needs /<app>/<stream name>');
  }
  const app = path.slice(0, slash);
  const port = parsed.port ? Number(parsed.port) : secure ? 443 : 1935;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  return {
    secure,
    host,
    port,
    app,
    name: decodeURIComponent(path.slice(slash + 1)) + parsed.search,
    tcUrl: `${parsed.protocol}//${parsed.host}/${app}`,
  };
}

const OUT_CHUNK_SIZE = 4096;

/** The FourCCs an E-RTMP server lists in its connect answer's properties. */
function announcedFourCcs(properties: Amf0Object | undefined): string[] {
  const list = properties?.fourCcList;
  const fromList = Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
  const map = amf0Properties(properties?.videoFourCcInfoMap);
  return [...new Set([...fromList, ...Object.keys(map ?? {})])];
}

/** Publishes one stream to an RTMP server. */
export class RtmpPublisher {
  private socket: Socket | undefined;
  private readonly reader = new ChunkReader();
  private readonly writer = new ChunkWriter();
  private readonly handshake = new ClientHandshake(true);
  private handshakeDone = false;
  /** rtmps:// (TLS). */
  private secure = false;
  private queued: Uint8Array[] = [];
  private transactionId = 1;
  private readonly pendingResults = new Map<
    number,
    { resolve: (v: Amf0Value[]) => void; reject: (e: Error) => void }
  >();
  private statusWaiter: { resolve: (code: string) => void; reject: (e: Error) => void } | undefined;
  private streamId = 0;
  private closedReason: string | undefined;
  private onClosed: ((reason: string) => void) | undefined;
  /** Resolves with the reason once the connection closed (by either side). */
  readonly closed: Promise<string>;
  /** Status codes received (`NetStream.Publish.Start`, ...). */
  readonly statuses: string[] = [];
  /** The FourCCs the server announced in its connect answer (E-RTMP v2 `fourCcList`, `videoFourCcInfoMap`); empty for a legacy server. */
  serverFourCcs: readonly string[] = [];
  /** Bytes written to the connection (handshake excluded). */
  bytesWritten = 0;

  constructor() {
    this.closed = new Promise((resolve) => {
      this.onClosed = resolve;
    });
  }

  /** Connects, handshakes, sends connect/releaseStream/FCPublish/createStream/publish; resolves once publishing started. */
  async connect(url: string, options: RtmpPublisherConnectOptions = {}): Promise<void> {
    const target = parseRtmpUrl(url);
    const timeoutMs = options.timeoutMs ?? 10_000;
    const dialHost = options.address ?? target.host;
    const socket = await new Promise<Socket>((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      const s = target.secure
        ? connectTls(
            {
              host: dialHost,
              port: target.port,
              rejectUnauthorized: options.tls?.rejectUnauthorized ?? true,
              ...(options.tls?.ca ? { ca: options.tls.ca } : {}),
              servername: options.tls?.servername ?? (/^[\d.:]+$/.test(target.host) ? '' : target.host),
            },
            () => resolve(s),
          )
        : connectTcp({ host: dialHost, port: target.port }, () => resolve(s));
      s.once('error', onError);
    });
    this.socket = socket;
    this.secure = target.secure;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error: Error) => this.finish(`socket error: ${error.message}`));
    socket.on('close', () => this.finish('connection closed'));
    const timer = setTimeout(() => this.finish(`publish did not start within ${timeoutMs} ms`), timeoutMs);
    try {
      socket.write(this.handshake.hello());
      const connected = this.call(
        'connect',
        amf0Object({
          app: target.app,
          type: 'nonprivate',
          flashVer: 'FMLE/3.0 (compatible; airwave)',
          tcUrl: target.tcUrl,
          fourCcList: ['av01', 'vp09', 'hvc1', 'avc1', 'Opus', 'mp4a'],
        }),
      );
      const result = await connected;
      const info = amf0Properties(result[1]);
      if (info?.code !== 'NetConnection.Connect.Success') {
        throw new ProtocolError(`connect refused: ${String(info?.code)} ${String(info?.description ?? '')}`);
      }
      this.serverFourCcs = announcedFourCcs(amf0Properties(result[0]));
      this.send(setChunkSizeMessage(OUT_CHUNK_SIZE));
      this.writer.chunkSize = OUT_CHUNK_SIZE;
      this.send(commandMessage(0, 'releaseStream', this.transactionId++, null, target.name));
      this.send(commandMessage(0, 'FCPublish', this.transactionId++, null, target.name));
      const created = await this.call('createStream', null);
      const id = created[1];
      if (typeof id !== 'number') {
        throw new ProtocolError('createStream returned no stream id');
      }
      this.streamId = id;
      const status = new Promise<string>((resolve, reject) => {
        this.statusWaiter = { resolve, reject };
      });
      this.send(commandMessage(id, 'publish', this.transactionId++, null, target.name, 'live'));
      const code = await status;
      if (code !== 'NetStream.Publish.Start') {
        throw new ProtocolError(`publish refused: ${code}`);
      }
    } catch (error) {
      this.finish(error instanceof Error ? error.message : String(error));
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends one FLV tag (script tags named onMetaData get the `@setDataFrame` wrapper). */
  writeTag(tag: FlvTag): Promise<void> {
    if (tag.type === FlvTagType.script) {
      const values = decodeAmf0(tag.data);
      const wrapped = values[0] === 'onMetaData';
      const message = commandMessage(this.streamId, ...(wrapped ? ['@setDataFrame', ...values] : values));
      return this.send({ ...message, csid: Csid.data, typeId: MessageType.dataAmf0, timestamp: tag.timestampMs });
    }
    const video = tag.type === FlvTagType.video;
    return this.send({
      csid: video ? Csid.video : Csid.audio,
      typeId: video ? MessageType.video : MessageType.audio,
      streamId: this.streamId,
      timestamp: tag.timestampMs,
      payload: tag.data,
    });
  }

  /** Sends a video packet (legacy AVC or E-RTMP for the other codecs). */
  sendVideo(input: VideoTagInput & { readonly timestampMs: number }): Promise<void> {
    return this.writeTag({ type: FlvTagType.video, timestampMs: input.timestampMs, data: buildVideoTag(input) });
  }

  /** Sends an audio packet (legacy AAC, E-RTMP Opus). */
  sendAudio(input: AudioTagInput & { readonly timestampMs: number }): Promise<void> {
    return this.writeTag({ type: FlvTagType.audio, timestampMs: input.timestampMs, data: buildAudioTag(input) });
  }

  /** The outgoing chunk size (what `chunkMessages` must cut for, for `sendChunks`). */
  get chunkSize(): number {
    return this.writer.chunkSize;
  }

  /** The message stream id the server gave to the publish (what `sendChunks` bytes must carry). */
  get messageStreamId(): number {
    return this.streamId;
  }

  /**
   * Sends messages already cut into chunks (`chunkMessages`) for this connection's chunk size and
   * message stream id, as one write, without copying them. Answers false when the connection's
   * buffer is full: wait for `drained()` before sending more. Throws once closed.
   */
  sendChunks(bytes: Uint8Array): boolean {
    return this.writeNow(bytes);
  }

  /**
   * Whether the connection still holds bytes given to it: not all were handed to the kernel in the
   * write (a full socket buffer, an earlier write still queued), or it encrypts them (TLS, which may
   * keep the cleartext). A caller that reuses the memory it sent must not, while this is true.
   */
  get holdsWrites(): boolean {
    const socket = this.socket;
    return socket !== undefined && (this.secure || !this.handshakeDone || socket.writableLength > 0);
  }

  /** Resolves once the connection's buffer has room again (never, once it closed: watch `closed`). */
  drained(): Promise<void> {
    const socket = this.socket;
    return new Promise((resolve) => socket?.once('drain', () => resolve()));
  }

  /** Sends raw bytes on the connection (tests use it to inject malformed chunks). */
  sendRaw(bytes: Uint8Array): Promise<void> {
    return this.write(bytes);
  }

  /** Unpublishes (FCUnpublish, deleteStream) and closes the connection. */
  async close(): Promise<void> {
    if (this.closedReason === undefined && this.streamId !== 0) {
      this.send(commandMessage(0, 'FCUnpublish', this.transactionId++, null, ''));
      await this.send(commandMessage(0, 'deleteStream', this.transactionId++, null, this.streamId));
    }
    this.socket?.end();
    this.finish('closed by publisher');
    await this.closed;
  }

  /** Closes the connection at once, without unpublishing. */
  abort(reason: string): void {
    this.finish(reason);
  }

  private call(name: string, object: Amf0Value, ...args: Amf0Value[]): Promise<Amf0Value[]> {
    const id = this.transactionId++;
    return new Promise((resolve, reject) => {
      this.pendingResults.set(id, { resolve, reject });
      this.send(commandMessage(0, name, id, object, ...args));
    });
  }

  private send(message: RtmpMessage): Promise<void> {
    return this.write(this.writer.write(message));
  }

  private write(bytes: Uint8Array): Promise<void> {
    try {
      return this.writeNow(bytes) ? Promise.resolve() : this.drained();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Hands bytes to the socket (held until the handshake is done); false when its buffer is full. */
  private writeNow(bytes: Uint8Array): boolean {
    const socket = this.socket;
    if (!socket || this.closedReason !== undefined) {
      throw new ProtocolError(`connection closed: ${this.closedReason ?? 'not connected'}`);
    }
    if (!this.handshakeDone) {
      this.queued.push(bytes);
      return true;
    }
    this.bytesWritten += bytes.byteLength;
    return socket.write(bytes);
  }

  private onData(chunk: Buffer): void {
    try {
      let bytes: Uint8Array = chunk;
      if (!this.handshakeDone) {
        const step = this.handshake.push(bytes);
        if (!step.done) {
          return;
        }
        this.handshakeDone = true;
        this.socket?.write(step.reply);
        for (const queued of this.queued) {
          this.socket?.write(queued);
        }
        this.queued = [];
        bytes = step.rest;
      }
      for (const message of this.reader.push(bytes)) {
        this.onMessage(message);
      }
    } catch (error) {
      this.finish(`bad data from server: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private onMessage(message: RtmpMessage): void {
    if (message.typeId === MessageType.userControl) {
      const event = (message.payload[0] ?? 0) * 256 + (message.payload[1] ?? 0);
      if (event === UserControlEvent.pingRequest) {
        this.send(userControlMessage(UserControlEvent.pingResponse, readU32(message.payload, 2) ?? 0));
      }
      return;
    }
    if (message.typeId !== MessageType.commandAmf0 && message.typeId !== MessageType.commandAmf3) {
      return;
    }
    const command = parseCommand(message);
    if (command.name === '_result' || command.name === '_error') {
      const waiter = this.pendingResults.get(command.transactionId);
      this.pendingResults.delete(command.transactionId);
      if (command.name === '_error') {
        const info = amf0Properties(command.args[0]);
        waiter?.reject(new ProtocolError(`${String(info?.code)}: ${String(info?.description ?? '')}`));
      } else {
        waiter?.resolve([command.object, ...command.args]);
      }
    } else if (command.name === 'onStatus') {
      const info = amf0Properties(command.args[0]);
      const code = typeof info?.code === 'string' ? info.code : 'unknown';
      this.statuses.push(code);
      this.statusWaiter?.resolve(code);
      this.statusWaiter = undefined;
    }
  }

  private finish(reason: string): void {
    if (this.closedReason !== undefined) {
      return;
    }
    this.closedReason = reason;
    const error = new ProtocolError(reason);
    for (const waiter of this.pendingResults.values()) {
      waiter.reject(error);
    }
    this.pendingResults.clear();
    this.statusWaiter?.reject(error);
    this.statusWaiter = undefined;
    this.socket?.destroy();
    this.onClosed?.(reason);
  }
}
