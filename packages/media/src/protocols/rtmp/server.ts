/**
 * RTMP and RTMPS ingest server (Adobe RTMP Specification 1.0; RTMPS = RTMP over TLS via node:tls):
 * accepts connections up to a limit, runs one RtmpSession each, and closes them all on close().
 * Idle connections are found by one periodic sweep over the sessions (not a per-socket timer,
 * which Node refreshes on every read). Plain RTMP sockets read into slabs (`net/paced-reads.ts`)
 * and, with `mergedReadMs`, publishers nobody watches are read once per period (merged reads).
 */
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import type { Hub } from '../../hub/hub.js';
import type { LiveStream } from '../../hub/live-stream.js';
import { adoptWithReusedReads, newReadBuffer, ReadPacer } from '../../net/paced-reads.js';
import type { Logger, PublishAuthorizer } from '../../ports.js';
import { type RtmpServerStats, RtmpSession } from './session.js';

/** Longest interval between two idle sweeps (the idle timeout's precision). */
const IDLE_SWEEP_MS = 1000;

/** Options of an RTMP(S) server. */
export interface RtmpServerOptions {
  readonly hub: Hub;
  readonly authorizer: PublishAuthorizer;
  readonly log: Logger;
  /** PEM certificate and key: the server speaks RTMPS. */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  /** A connection without any byte for this long is closed (default 30 s). */
  readonly idleTimeoutMs?: number;
  /** The handshake must finish within this time (default 10 s). */
  readonly handshakeTimeoutMs?: number;
  /** Most concurrent connections; more are refused at once (default 1000). */
  readonly maxConnections?: number;
  /** Largest RTMP message accepted (default 8 MiB). */
  readonly maxMessageSize?: number;
  /** Wait for the second track's config after the first frame (default 1000 ms). */
  readonly descriptionWaitMs?: number;
  /**
   * Merged reads: a publisher whose stream nobody watches (`LiveStream.watched`) is read at most
   * once per this many ms, the kernel gathering its bytes meanwhile (default 0: every publisher
   * is read as bytes arrive). Plain RTMP only; RTMPS reads through TLS as bytes arrive.
   */
  readonly mergedReadMs?: number;
}

/** An RTMP or RTMPS listener. */
export class RtmpServer {
  /** Counters since start. */
  readonly stats: RtmpServerStats = {
    accepted: 0,
    refusedOverLimit: 0,
    handshakeFailures: 0,
    protocolErrors: 0,
    badPackets: 0,
    publishes: 0,
    refusedPublishes: 0,
    timeouts: 0,
  };
  private readonly server: Server;
  private readonly sessions = new Set<RtmpSession>();
  private readonly protocol: 'rtmp' | 'rtmps';
  private readonly log: Logger;
  private readonly idleTimeoutMs: number;
  private idleSweep: NodeJS.Timeout | undefined;
  private readonly mergedReads: ReadPacer;
  /** Where every plain-TCP connection's reads land (each is parsed, and what is kept copied, before the next). */
  private readonly readBuffer = newReadBuffer();

  constructor(private readonly options: RtmpServerOptions) {
    this.protocol = options.tls ? 'rtmps' : 'rtmp';
    this.log = options.log.child({ component: this.protocol });
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
    this.mergedReads = new ReadPacer(options.mergedReadMs ?? 0);
    if (options.tls) {
      const server = createTlsServer({ cert: options.tls.cert, key: options.tls.key }, (socket) => this.accept(socket));
      server.on('tlsClientError', (error: Error) => {
        this.stats.handshakeFailures++;
        this.log.warn({ reason: error.message }, 'TLS handshake failed');
      });
      this.server = server;
    } else {
      this.server = createTcpServer({ pauseOnConnect: true }, (socket) => this.accept(socket));
    }
    this.server.on('error', (error: Error) => this.log.error({ err: error }, `${this.protocol} listener error`));
  }

  /** Live connections. */
  get connectionCount(): number {
    return this.sessions.size;
  }

  /** Starts listening; resolves with the bound port (pass 0 for an ephemeral one). */
  listen(port: number, host = '0.0.0.0'): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      this.server.once('error', onError);
      this.server.listen(port, host, () => {
        this.server.off('error', onError);
        const address = this.server.address();
        const bound = typeof address === 'object' && address ? address.port : port;
        this.log.info({ port: bound, host }, `${this.protocol} ingest listening`);
        resolve(bound);
      });
    });
  }

  /** Stops listening and closes every session (their publishers enter the reconnect window). */
  async close(): Promise<void> {
    const closing = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.mergedReads.close();
    const sessions = [...this.sessions];
    for (const session of sessions) {
      session.close('server shutting down');
    }
    await Promise.all(sessions.map((session) => session.closed));
    await closing;
  }

  private accept(socket: Socket | TLSSocket): void {
    const limit = this.options.maxConnections ?? 1000;
    if (this.sessions.size >= limit) {
      this.stats.refusedOverLimit++;
      this.log.warn({ remote: socket.remoteAddress, limit }, 'connection refused: too many connections');
      socket.destroy();
      return;
    }
    this.stats.accepted++;
    let session: RtmpSession | undefined;
    /** While reads merge: wakes the held socket when the first viewer of its stream connects. */
    let waking: { readonly stream: LiveStream; readonly stop: () => void } | undefined;
    if (this.options.tls) {
      socket.on('data', (chunk: Buffer) => session?.receive(chunk));
    } else {
      const adopted = adoptWithReusedReads(socket, this.readBuffer, (bytes, reading, drained) => {
        session?.receive(bytes);
        const stream = session?.publishedStream;
        if (!drained || !this.mergedReads.enabled || stream === undefined || stream.watched) {
          return true;
        }
        if (waking?.stream !== stream) {
          waking?.stop();
          const stop = stream.viewers.subscribe((event) => {
            if (event.type === 'connect') {
              this.mergedReads.release(reading);
            }
          });
          waking = { stream, stop };
        }
        this.mergedReads.hold(reading);
        return false;
      });
      if (!adopted) {
        return;
      }
      socket = adopted;
    }
    socket.setNoDelay(true);
    session = new RtmpSession(socket, {
      hub: this.options.hub,
      authorizer: this.options.authorizer,
      log: this.log,
      protocol: this.protocol,
      idleTimeoutMs: this.idleTimeoutMs,
      handshakeTimeoutMs: this.options.handshakeTimeoutMs ?? 10_000,
      stats: this.stats,
      ...(this.options.maxMessageSize === undefined ? {} : { maxMessageSize: this.options.maxMessageSize }),
      ...(this.options.descriptionWaitMs === undefined ? {} : { descriptionWaitMs: this.options.descriptionWaitMs }),
    });
    const opened = session;
    this.sessions.add(opened);
    this.startIdleSweep();
    void opened.closed.then(() => {
      waking?.stop();
      this.sessions.delete(opened);
      if (this.sessions.size === 0) {
        clearInterval(this.idleSweep);
        this.idleSweep = undefined;
      }
    });
  }

  /** Sweeps every session for idleness about once a second (more often for timeouts under 4 s) while any is open. */
  private startIdleSweep(): void {
    if (this.idleSweep) {
      return;
    }
    const period = Math.max(10, Math.min(IDLE_SWEEP_MS, Math.floor(this.idleTimeoutMs / 4)));
    this.idleSweep = setInterval(() => {
      const now = Date.now();
      for (const session of this.sessions) {
        session.sweepIdle(now);
      }
    }, period);
    this.idleSweep.unref();
  }
}
