/**
 * Pushes a live stream to an SRT listener (SRT live mode, caller) through ffmpeg's libsrt: units
 * are multiplexed into MPEG-TS here (ISO/IEC 13818-1, the TsMuxer) and written to a supervised
 * ffmpeg that copies them to `srt://address:port?mode=caller&streamid=…&passphrase=…`. ffmpeg's
 * progress report says when the connection carries media and how many bytes it sent.
 */
import { FfmpegProcess } from '../../ffmpeg/ffmpeg-process.js';
import { TsMuxer } from '../../formats/mpegts/ts-muxer.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { StreamDescription } from '../../stream/track.js';
import type { DestinationResolver, PushOutput } from '../shared/push-output.js';

/** Options of an SRT push. */
export interface SrtPushOptions {
  /** ffmpeg executable (default `ffmpeg`). */
  readonly command?: string;
}

/**
 * The ffmpeg output of an srt:// target dialled at `address`: the passphrase and key length as
 * libsrt output options (passed verbatim: ffmpeg does not URL-decode a passphrase), the streamid
 * percent-encoded in the URL (ffmpeg decodes it; `-streamid` is another ffmpeg option).
 */
export function ffmpegSrtOutput(uri: string, address: string): string[] {
  const url = new URL(uri);
  const args = ['-mode', 'caller', '-transtype', 'live'];
  for (const name of ['passphrase', 'pbkeylen']) {
    const value = url.searchParams.get(name);
    if (value !== null) {
      args.push(`-${name}`, value);
    }
  }
  const host = address.includes(':') ? `[${address}]` : address;
  const streamId = url.searchParams.get('streamid');
  return [...args, `srt://${host}:${url.port}${streamId === null ? '' : `?streamid=${encodeURIComponent(streamId)}`}`];
}

class SrtPushOutput implements PushOutput {
  readonly ready: Promise<void>;
  readonly closed: Promise<string>;
  private muxer: TsMuxer;
  private videoTrackId: number | undefined;
  private sent = 0;
  private progress = '';
  private onReady: () => void = () => undefined;
  private onClosed: (reason: string) => void = () => undefined;
  private readonly ffmpeg: FfmpegProcess;

  constructor(output: readonly string[], description: StreamDescription, options: SrtPushOptions) {
    this.muxer = new TsMuxer(description.tracks);
    this.videoTrackId = description.tracks.find((track) => track.kind === 'video')?.id;
    this.ready = new Promise((resolve) => {
      this.onReady = resolve;
    });
    this.closed = new Promise((resolve) => {
      this.onClosed = resolve;
    });
    this.ffmpeg = new FfmpegProcess({
      ...(options.command ? { command: options.command } : {}),
      args: [
        '-loglevel',
        'error',
        '-progress',
        'pipe:1',
        '-stats_period',
        '0.5',
        '-probesize',
        '500000',
        '-analyzeduration',
        '500000',
        '-f',
        'mpegts',
        '-i',
        'pipe:0',
        '-map',
        '0',
        '-c',
        'copy',
        '-f',
        'mpegts',
        ...output,
      ],
      onData: (chunk) => this.onProgress(chunk.toString('latin1')),
      onExit: (reason) => this.onClosed(reason.replace(/^ffmpeg/, 'the SRT connection (ffmpeg)')),
    });
  }

  get bytesSent(): number {
    return this.sent;
  }

  async describe(description: StreamDescription): Promise<void> {
    this.muxer = new TsMuxer(description.tracks);
    this.videoTrackId = description.tracks.find((track) => track.kind === 'video')?.id;
    this.muxer.writeTables();
    await this.send(this.muxer.take());
  }

  write(unit: MediaUnit): Promise<void> | undefined {
    if (unit.key && unit.trackId === this.videoTrackId) {
      this.muxer.writeTables();
    }
    this.muxer.writeUnit(unit);
    return this.send(this.muxer.take());
  }

  close(): Promise<void> {
    this.ffmpeg.stop(500);
    return this.closed.then(() => undefined);
  }

  /** Writes to ffmpeg; a promise only when its pipe is full (resolving once it drained). */
  private send(bytes: Uint8Array): Promise<void> | undefined {
    return bytes.byteLength > 0 && !this.ffmpeg.write(bytes) ? this.ffmpeg.drained() : undefined;
  }

  /** Reads `key=value` lines of `-progress`; `total_size` counts the bytes written to SRT. */
  private onProgress(text: string): void {
    this.progress += text;
    const lines = this.progress.split('\n');
    this.progress = lines.pop() ?? '';
    for (const line of lines) {
      const match = /^total_size=(\d+)/.exec(line.trim());
      if (match) {
        this.sent = Number(match[1]);
        if (this.sent > 0) {
          this.onReady();
        }
      }
    }
  }
}

/** Starts pushing to an srt:// target through ffmpeg; the output is ready once media flows. */
export async function connectSrtPush(
  uri: string,
  description: StreamDescription,
  resolve: DestinationResolver,
  options: SrtPushOptions = {},
): Promise<PushOutput> {
  const address = await resolve(new URL(uri).hostname.replace(/^\[|\]$/g, ''));
  return new SrtPushOutput(ffmpegSrtOutput(uri, address), description, options);
}
