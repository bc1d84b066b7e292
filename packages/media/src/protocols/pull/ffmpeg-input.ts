/**
 * A pull attempt through one supervised ffmpeg child (RTSP/RTSPS, RIST, HLS,
 * MPEG-TS/Matroska/WebM over HTTP(S)): the source's host is resolved and checked
 * first, and ffmpeg is handed only what was checked — the loopback HTTP or RTSP relay (which dial
 * checked addresses themselves) or the literal checked address. ffmpeg copies the first video and
 * audio stream into MPEG-TS (WebM for WebM sources) on stdout, which a reader turns into tracks and
 * units.
 */
import { lastStderrLine, SupervisedChild } from '../../ffmpeg/supervised-child.js';
import type { Logger } from '../../ports.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { StreamDescription } from '../../stream/track.js';
import { checkedAddress, PullRefusedError, withAddress } from './address-guard.js';
import { pullArgs, pullOutputOf } from './ffmpeg-args.js';
import type { HttpRelay, RelaySession } from './http-relay.js';
import {
  EndOnce,
  type PullEndKind,
  type PullInput,
  type PullInputContext,
  type PullInputFactory,
} from './pull-input.js';
import { redactText, redactUri } from './redact.js';
import { type RtspRelay, startRtspRelay } from './rtsp-relay.js';

/** Where a container reader delivers. */
export interface TsReaderOutput {
  describe(description: StreamDescription): void;
  unit(unit: MediaUnit): void;
}

/** Reads ffmpeg's output (any chunking); throws ParseError/ProtocolError on what it cannot read. */
export interface TsReader {
  push(bytes: Uint8Array): void;
}

/** Builds the reader of one attempt's ffmpeg output (the mpegts or Matroska demuxer). */
export type TsReaderFactory = (output: TsReaderOutput, log: Logger) => TsReader;

/** What ffmpeg attempts need. */
export interface FfmpegInputOptions {
  /** The loopback relay of HTTP(S) sources. */
  readonly relay: HttpRelay;
  /** Reader of ffmpeg's MPEG-TS. */
  readonly tsReader: TsReaderFactory;
  /** Reader of ffmpeg's WebM (WebM sources). */
  readonly webmReader: TsReaderFactory;
  /** The ffmpeg binary (default `ffmpeg` on PATH). */
  readonly ffmpegPath?: string;
}

/** Opens ffmpeg attempts. */
export function ffmpegInputs(options: FfmpegInputOptions): PullInputFactory {
  return (context) => new FfmpegInput(context, options);
}

class FfmpegInput implements PullInput {
  private readonly end = new EndOnce();
  private child: SupervisedChild | undefined;
  private relaySession: RelaySession | undefined;
  private rtspRelay: RtspRelay | undefined;
  /** A refusal or relay failure that ends the attempt whatever ffmpeg then says. */
  private cause: { kind: PullEndKind; message: string; redirectTo?: string } | undefined;
  /** The URL ffmpeg reads (a relay URL or a literal address). */
  private inputUrl: string | undefined;

  constructor(
    private readonly context: PullInputContext,
    private readonly options: FfmpegInputOptions,
  ) {
    this.sourceUrl().then(
      (url) => this.spawn(url),
      (error: unknown) => {
        if (error instanceof PullRefusedError) {
          this.finish(error.kind, error.message);
        } else {
          this.finish('failed', redactText(error instanceof Error ? error.message : String(error)));
        }
      },
    );
  }

  get ended() {
    return this.end.ended;
  }

  stop(reason: string, kind: PullEndKind = 'stopped'): void {
    this.cause ??= { kind, message: reason };
    if (this.child && !this.child.ended) {
      this.child.stop(reason);
    } else {
      this.finish(kind, reason);
    }
  }

  /** The URL ffmpeg reads: a relay URL or the checked literal address. */
  private async sourceUrl(): Promise<string> {
    const { target, sink, guard, log } = this.context;
    if (target.kind === 'hls' || target.kind === 'http-file') {
      this.relaySession = this.options.relay.open({
        guard,
        refused: (error) => this.refused(error.kind, error.message),
        resolved: (address) => sink.resolved(address),
        ...(this.context.history ? { history: this.context.history } : {}),
        drained: () => this.refused('source_ended', 'the source ended: its playlist lists nothing new'),
      });
      return this.relaySession.url(target.url);
    }
    const address = await checkedAddress(guard, target.host);
    sink.resolved(address);
    if (target.kind === 'rtsp' || target.kind === 'rtsps') {
      const tls = target.kind === 'rtsps';
      const port = target.url.port === '' ? (tls ? 322 : 554) : Number(target.url.port);
      this.rtspRelay = await startRtspRelay(
        { address, port, host: target.host, tls },
        {
          redirected: (location) => this.refused('redirected', 'the RTSP source redirected', location),
          failed: (message) => this.refused('failed', redactText(message)),
        },
        log,
      );
      const local = new URL(target.url.href);
      local.protocol = 'rtsp:';
      local.hostname = '127.0.0.1';
      local.port = String(this.rtspRelay.port);
      return local.href;
    }
    return withAddress(target.url, address).href;
  }

  private spawn(url: string): void {
    if (this.end.settled || this.cause) {
      this.finish(this.cause?.kind ?? 'stopped', this.cause?.message ?? 'stopped before start');
      return;
    }
    const { target, sink, log } = this.context;
    this.inputUrl = url;
    const output = pullOutputOf(target.kind, target.url);
    const reader = (output === 'webm' ? this.options.webmReader : this.options.tsReader)(sink, log);
    this.child = new SupervisedChild({
      command: this.options.ffmpegPath ?? 'ffmpeg',
      args: pullArgs(target.kind, url, output),
      log,
      onStdout: (chunk) => {
        try {
          reader.push(chunk);
        } catch (error) {
          this.refused(
            'failed',
            `unreadable MPEG-TS from ffmpeg: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      },
    });
    this.child.exited.then((exit) => {
      if (this.cause) {
        this.finish(this.cause.kind, this.cause.message, this.cause.redirectTo);
      } else if (exit.spawnError) {
        this.finish('failed', `ffmpeg could not start: ${exit.spawnError.message}`);
      } else if (exit.code === 0) {
        this.finish('source_ended', 'the source ended');
      } else {
        const said = this.clean(lastStderrLine(exit.stderrTail)) || `ffmpeg exited with ${exit.code ?? exit.signal}`;
        this.finish('failed', said);
      }
    });
  }

  /** An ffmpeg message with the URLs it was given (relay URLs, the RTSP relay) shown as the redacted source. */
  private clean(message: string): string {
    const source = redactUri(this.context.target.url.href);
    const local = this.inputUrl ? message.split(this.inputUrl).join(source) : message;
    return redactText(this.options.relay.unrelay(local));
  }

  private refused(kind: PullEndKind, message: string, redirectTo?: string): void {
    if (this.cause) {
      return;
    }
    this.cause = { kind, message, ...(redirectTo ? { redirectTo } : {}) };
    this.child?.stop(message);
  }

  private finish(kind: PullEndKind, message: string, redirectTo?: string): void {
    if (this.end.settle({ kind, message, ...(redirectTo ? { redirectTo } : {}) })) {
      this.relaySession?.close();
      this.rtspRelay?.close();
      if (this.child && !this.child.ended) {
        this.child.stop(message);
      }
    }
  }
}
