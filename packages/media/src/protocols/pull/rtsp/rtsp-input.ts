/**
 * RTSP/RTSPS pull in process (RFC 2326, the RFC 7826 subset RTSP/1.0 servers speak): one TCP
 * (or TLS, certificate checked against the host name) connection to the guard-checked address
 * carries OPTIONS, DESCRIBE (SDP), one SETUP per track with `RTP/AVP/TCP;interleaved`, PLAY,
 * keep-alives (GET_PARAMETER when the server lists it, else OPTIONS) at half the session
 * timeout, and TEARDOWN; Basic or Digest credentials come from the URI. The interleaved RTP goes
 * through the depacketizers straight into the hub (rtsp-to-stream.ts). A redirect ends the
 * attempt so the next one dials the new location through the guard. A source whose tracks only
 * ffmpeg reads (rtsp-plan.ts) is handed to the ffmpeg input, when one is given. While nobody
 * watches the stream, reads of a plain TCP source are merged (net/paced-reads.ts, as RTMP ingest
 * does): the socket stops after a read that emptied the kernel's buffer and one shared timer
 * restarts it once per period.
 */
import { isIP, type Socket, connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { ParseError, ProtocolError, UnsupportedError } from '../../../errors.js';
import { newReadBuffer, ReadPacer } from '../../../net/paced-reads.js';
import { parseRtpPacket, senderReports } from '../../shared/rtp/rtp-packet.js';
import { checkedAddress, PullRefusedError } from '../address-guard.js';
import {
  EndOnce,
  type PullEndKind,
  type PullInput,
  type PullInputContext,
  type PullInputFactory,
} from '../pull-input.js';
import { redactText, redactUri } from '../redact.js';
import { credentialsOf, RtspAuthenticator } from './rtsp-auth.js';
import { interleavedChannels, rtpTimes, sessionOf, withoutUserInfo } from './rtsp-headers.js';
import { planRtsp } from './rtsp-plan.js';
import { type RtspItem, RtspReader, type RtspServerRequest } from './rtsp-reader.js';
import { RtspEnd, RtspRequests } from './rtsp-requests.js';
import { parseSessionDescription } from './rtsp-sdp.js';
import { RtspToStream } from './rtsp-to-stream.js';

/** What RTSP attempts need. */
export interface RtspInputOptions {
  /** Reads sources whose tracks only ffmpeg carries (an ffmpeg input); none: such tracks are left out. */
  readonly fallback?: PullInputFactory;
  /** How long a request may wait for its response (default 10 s). */
  readonly responseTimeoutMs?: number;
  /** Unwatched streams are read at most once per this many ms (0 or none: as bytes arrive). */
  readonly mergedReadMs?: number;
}

/** Session timeout assumed when SETUP names none (RFC 2326 §12.37). */
const DEFAULT_SESSION_TIMEOUT_S = 60;
/** Logs at most one dropped packet per this many. */
const DROP_LOG_EVERY = 100;

/** Opens in-process RTSP attempts. */
export function rtspInputs(options: RtspInputOptions = {}): PullInputFactory {
  const reads: SharedReads = { pacer: new ReadPacer(options.mergedReadMs ?? 0), buffer: newReadBuffer() };
  return (context) => new RtspInput(context, options, reads);
}

/** What the inputs of one factory share: the pacer's timer and the buffer every read lands in. */
interface SharedReads {
  readonly pacer: ReadPacer;
  /** Overwritten by each read (reads are handled one at a time): what is kept is copied out. */
  readonly buffer: Uint8Array;
}

class RtspInput implements PullInput {
  private readonly end = new EndOnce();
  private readonly reader = new RtspReader();
  private readonly channels = new Map<number, { track: number; rtcp: boolean }>();
  private readonly requestUrl: string;
  private readonly requests: RtspRequests;
  private readonly startedAt = Date.now();
  private socket: Socket | undefined;
  /** The aggregate control URL (PLAY, keep-alives, TEARDOWN) once described. */
  private control: string | undefined;
  private keepalive: NodeJS.Timeout | undefined;
  private converter: RtspToStream | undefined;
  private delegate: PullInput | undefined;
  private drops = 0;

  constructor(
    private readonly context: PullInputContext,
    private readonly options: RtspInputOptions,
    private readonly reads: SharedReads,
  ) {
    const url = new URL(context.target.url.href);
    const credentials = credentialsOf(url);
    this.requests = new RtspRequests(
      (text) => this.socket?.write(text),
      credentials ? new RtspAuthenticator(credentials) : undefined,
      options.responseTimeoutMs ?? 10_000,
      (status) => context.log.info({ status }, 'RTSP source redirected'),
    );
    url.username = '';
    url.password = '';
    url.hash = '';
    this.requestUrl = url.href;
    this.run().catch((error: unknown) => this.failed(error));
  }

  get ended() {
    return this.end.ended;
  }

  stop(reason: string, kind: PullEndKind = 'stopped'): void {
    if (this.delegate) {
      this.delegate.stop(reason, kind);
      return;
    }
    this.finish(kind, reason);
  }

  private async run(): Promise<void> {
    const { target, sink, guard, log } = this.context;
    const address = await checkedAddress(guard, target.host);
    if (this.end.settled) {
      return;
    }
    sink.resolved(address);
    await this.connect(address);
    const options = await this.requests.request('OPTIONS', this.requestUrl);
    const methods = new Set(
      (options.headers.get('public') ?? '')
        .split(',')
        .map((method) => method.trim().toUpperCase())
        .filter(Boolean),
    );
    const describe = await this.requests.request('DESCRIBE', this.requestUrl, { Accept: 'application/sdp' });
    const base = withoutUserInfo(
      describe.headers.get('content-base') ?? describe.headers.get('content-location') ?? this.requestUrl,
    );
    const description = parseSessionDescription(new TextDecoder().decode(describe.body), base);
    this.control = description.control;
    const plan = planRtsp(description);
    if (plan.leftOut.length > 0) {
      log.info({ leftOut: plan.leftOut }, 'RTSP tracks left out');
    }
    if (plan.ffmpegReads && this.options.fallback) {
      this.handOver(`tracks only ffmpeg reads: ${plan.leftOut.join('; ')}`);
      return;
    }
    if (plan.tracks.length === 0) {
      throw new RtspEnd('failed', `the RTSP source has no track this service carries (${plan.leftOut.join('; ')})`);
    }
    this.converter = new RtspToStream(
      plan.tracks,
      sink,
      () => Date.now() - this.startedAt,
      (track, correctionMs) =>
        log.info({ track, correctionMs: Math.round(correctionMs) }, 'RTSP track aligned by sender reports'),
      (track, reason, reorderDepth) => log.warn({ track, reason, reorderDepth }, 'RTSP video decode times'),
    );
    let timeoutS = DEFAULT_SESSION_TIMEOUT_S;
    for (const [index, track] of plan.tracks.entries()) {
      const setup = await this.requests.request('SETUP', track.media.control, {
        Transport: `RTP/AVP/TCP;unicast;interleaved=${index * 2}-${index * 2 + 1}`,
      });
      const session = sessionOf(setup.headers.get('session'));
      if (session) {
        this.requests.session = session.id;
        timeoutS = session.timeoutS ?? timeoutS;
      }
      const { rtp, rtcp } = interleavedChannels(setup.headers.get('transport') ?? '', index * 2);
      this.channels.set(rtp, { track: index, rtcp: false });
      this.channels.set(rtcp, { track: index, rtcp: true });
    }
    const play = await this.requests.request('PLAY', description.control, { Range: 'npt=0.000-' });
    this.converter.rtpInfo(rtpTimes(play.headers.get('rtp-info'), plan.tracks));
    this.converter.describeIfReady();
    const keepaliveMethod = methods.has('GET_PARAMETER') ? 'GET_PARAMETER' : 'OPTIONS';
    this.keepalive = setInterval(
      () => {
        const uri = keepaliveMethod === 'OPTIONS' ? this.requestUrl : description.control;
        this.requests.request(keepaliveMethod, uri).catch(() => undefined);
      },
      Math.max(1000, (timeoutS * 1000) / 2),
    );
    this.keepalive.unref();
  }

  private connect(address: string): Promise<void> {
    const { target } = this.context;
    const tls = target.kind === 'rtsps';
    const port = target.url.port === '' ? (tls ? 322 : 554) : Number(target.url.port);
    let socket: Socket;
    if (tls) {
      socket = tlsConnect({ host: address, port, ...(isIP(target.host) === 0 ? { servername: target.host } : {}) });
      socket.on('data', (chunk: Buffer) => this.received(chunk));
    } else {
      const { buffer, pacer } = this.reads;
      socket = tcpConnect({
        host: address,
        port,
        onread: {
          buffer,
          callback: (nread: number, bytes: Uint8Array) => {
            this.received(bytes.slice(0, nread));
            const drained = nread < bytes.byteLength;
            if (!drained || !pacer.enabled || this.end.settled || this.context.sink.watched?.() !== false) {
              return true;
            }
            pacer.hold(socket);
            return false;
          },
        },
      });
    }
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('error', (error: NodeJS.ErrnoException) =>
      this.finish('failed', `RTSP connection to ${target.host}:${port} failed: ${error.code ?? error.message}`),
    );
    socket.on('close', () => this.finish('source_ended', 'the RTSP source closed the connection'));
    return new Promise((resolve, reject) => {
      socket.once(tls ? 'secureConnect' : 'connect', () => resolve());
      socket.once('close', () => reject(new RtspEnd('source_ended', 'the RTSP source closed the connection')));
    });
  }

  private received(chunk: Uint8Array): void {
    if (this.end.settled) {
      return;
    }
    let items: RtspItem[];
    try {
      items = this.reader.push(chunk);
    } catch (error) {
      this.finish('failed', `bad RTSP data from the source: ${(error as Error).message}`);
      return;
    }
    for (const item of items) {
      if (this.end.settled) {
        return;
      }
      if (item.kind === 'frame') {
        this.frame(item.channel, item.data);
      } else if (item.kind === 'response') {
        this.requests.response(item);
      } else {
        this.answer(item);
      }
    }
  }

  /** A request of the server: OPTIONS and GET_PARAMETER (keep-alive probes) are answered, the rest refused. */
  private answer(request: RtspServerRequest): void {
    const ok = request.method === 'OPTIONS' || request.method === 'GET_PARAMETER';
    const status = ok ? '200 OK' : '501 Not Implemented';
    this.socket?.write(`RTSP/1.0 ${status}\r\nCSeq: ${request.headers.get('cseq') ?? '0'}\r\n\r\n`);
  }

  private frame(channel: number, data: Uint8Array): void {
    const route = this.channels.get(channel);
    const converter = this.converter;
    if (!route || !converter) {
      return;
    }
    try {
      if (route.rtcp) {
        for (const report of senderReports(data)) {
          converter.senderReport(route.track, report);
        }
      } else {
        converter.packet(route.track, parseRtpPacket(data));
      }
    } catch (error) {
      if (error instanceof UnsupportedError && !route.rtcp) {
        this.finish('failed', error.message);
      } else if (error instanceof ParseError || error instanceof UnsupportedError) {
        if (this.drops++ % DROP_LOG_EVERY === 0) {
          this.context.log.warn({ reason: error.message, drops: this.drops }, 'RTSP packet dropped');
        }
      } else {
        this.failed(error);
      }
    }
  }

  /** Gives the attempt to the fallback input (ffmpeg), which reports the end. */
  private handOver(reason: string): void {
    const fallback = this.options.fallback;
    if (!fallback || this.end.settled) {
      return;
    }
    this.context.log.info({ reason }, 'RTSP source read through ffmpeg');
    this.close(false);
    const delegate = fallback(this.context);
    this.delegate = delegate;
    delegate.ended.then((end) => this.end.settle(end));
  }

  private failed(error: unknown): void {
    if (error instanceof RtspEnd) {
      this.finish(error.kind, redactText(error.message), error.redirectTo);
    } else if (error instanceof PullRefusedError) {
      this.finish(error.kind, error.message);
    } else if (error instanceof ParseError || error instanceof ProtocolError || error instanceof UnsupportedError) {
      this.finish('failed', `bad RTSP source: ${redactText(error.message)}`);
    } else {
      this.context.log.error({ err: error, source: redactUri(this.requestUrl) }, 'RTSP input failed');
      this.finish('failed', `RTSP input failed: ${redactText(String(error))}`);
    }
  }

  private finish(kind: PullEndKind, message: string, redirectTo?: string): void {
    if (this.delegate) {
      return;
    }
    if (this.end.settle({ kind, message, ...(redirectTo ? { redirectTo } : {}) })) {
      this.close(true);
    }
  }

  /** Ends the connection (with TEARDOWN when a session is up) and every wait. */
  private close(teardown: boolean): void {
    clearInterval(this.keepalive);
    this.requests.close();
    const socket = this.socket;
    this.socket = undefined;
    if (!socket) {
      return;
    }
    this.reads.pacer.release(socket);
    socket.removeAllListeners('data');
    socket.removeAllListeners('close');
    socket.on('error', () => undefined);
    if (teardown && this.requests.session && socket.writable) {
      socket.end(this.requests.text('TEARDOWN', this.control ?? this.requestUrl));
      setTimeout(() => socket.destroy(), 1000).unref();
    } else {
      socket.destroy();
    }
  }
}
