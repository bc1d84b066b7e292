/**
 * Pushes a live stream to an SRT listener in process (SRT live mode, caller; draft-sharabayko-srt-01):
 * units are multiplexed into MPEG-TS here (ISO/IEC 13818-1, the TsMuxer) and sent by our SRT
 * caller in payloads of up to seven 188-byte packets, as libsrt senders do. The target URI's
 * `streamid`, `passphrase`, `pbkeylen` and `latency` (µs, as ffmpeg reads it) go into the
 * handshake; no child process, so the passphrase is on no command line.
 */
import { TsMuxer } from '../../formats/mpegts/ts-muxer.js';
import { type Logger, silentLogger } from '../../ports.js';
import type { MediaUnit } from '../../stream/media-unit.js';
import type { StreamDescription } from '../../stream/track.js';
import type { DestinationResolver, PushOutput } from '../shared/push-output.js';
import { SrtCall } from './caller.js';

/** Options of an SRT push. */
export interface SrtPushOptions {
  /** Where the call logs (default: nowhere). */
  readonly log?: Logger;
}

/** Bytes of one SRT payload: seven transport stream packets. */
const PAYLOAD_BYTES = 7 * 188;

class SrtPushOutput implements PushOutput {
  /** Settles with the handshake: resolved once established, rejected with why the call ended before. */
  readonly connected: Promise<void>;
  readonly closed: Promise<string>;
  private muxer: TsMuxer;
  private videoTrackId: number | undefined;
  private readonly call: SrtCall;
  private onClosed: (reason: string) => void = () => undefined;

  constructor(address: string, url: URL, description: StreamDescription, options: SrtPushOptions) {
    this.muxer = new TsMuxer(description.tracks);
    this.videoTrackId = description.tracks.find((track) => track.kind === 'video')?.id;
    this.closed = new Promise((resolve) => {
      this.onClosed = resolve;
    });
    const params = url.searchParams;
    const latency = params.get('latency');
    const keyLength = params.get('pbkeylen');
    let established = false;
    let onConnected: () => void = () => undefined;
    let onFailed: (error: Error) => void = () => undefined;
    this.connected = new Promise((resolve, reject) => {
      onConnected = resolve;
      onFailed = reject;
    });
    this.call = new SrtCall({
      address,
      port: Number(url.port),
      role: 'send',
      ...(params.get('streamid') ? { streamId: params.get('streamid') as string } : {}),
      ...(params.get('passphrase') ? { passphrase: params.get('passphrase') as string } : {}),
      ...(keyLength ? { keyLength: Number(keyLength) } : {}),
      ...(latency ? { latencyMs: Math.max(20, Math.round(Number(latency) / 1000)) } : {}),
      log: options.log ?? silentLogger,
      onEstablished: () => {
        established = true;
        onConnected();
      },
      onEnd: (end) => {
        if (!established) {
          onFailed(new Error(end.message));
        }
        this.onClosed(`the SRT connection ended: ${end.message}`);
      },
    });
  }

  /** Media flows as soon as the handshake completed (connectSrtPush waits for it). */
  get ready(): Promise<void> {
    return this.connected;
  }

  get bytesSent(): number {
    return this.call.senderStats?.bytesSent ?? 0;
  }

  async describe(description: StreamDescription): Promise<void> {
    this.muxer = new TsMuxer(description.tracks);
    this.videoTrackId = description.tracks.find((track) => track.kind === 'video')?.id;
    this.muxer.writeTables();
    this.send(this.muxer.take());
  }

  write(unit: MediaUnit): undefined {
    if (unit.key && unit.trackId === this.videoTrackId) {
      this.muxer.writeTables();
    }
    this.muxer.writeUnit(unit);
    this.send(this.muxer.take());
    return undefined;
  }

  close(): Promise<void> {
    this.call.close('push stopped');
    return this.closed.then(() => undefined);
  }

  /** Sends whole TS packets, seven to a payload (a live sender never waits: the call drops what is too late). */
  private send(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.byteLength; at += PAYLOAD_BYTES) {
      this.call.send(bytes.subarray(at, Math.min(bytes.byteLength, at + PAYLOAD_BYTES)));
    }
  }
}

/** Connects to an srt:// target; resolves once the SRT handshake completed, rejects with the listener's refusal or the timeout. */
export async function connectSrtPush(
  uri: string,
  description: StreamDescription,
  resolve: DestinationResolver,
  options: SrtPushOptions = {},
): Promise<PushOutput> {
  const url = new URL(uri);
  const address = await resolve(url.hostname.replace(/^\[|\]$/g, ''));
  const output = new SrtPushOutput(address, url, description, options);
  await output.connected;
  return output;
}
