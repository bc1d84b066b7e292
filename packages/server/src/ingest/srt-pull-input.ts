/**
 * SRT pull in process (draft-sharabayko-srt-01, caller mode): `srt://host:port?streamid=…&
 * passphrase=…&pbkeylen=…&latency=…` is dialled by the media plane's SRT caller
 * (protocols/srt/caller.ts) at the address the guard checked for this attempt; the MPEG-TS it receives goes straight to the
 * demuxer. Query parameters read as ffmpeg's `srt://` protocol reads them (`latency` in
 * microseconds); `mode` may only be `caller`. No ffmpeg child, and the passphrase never appears
 * on a command line. Here, where the pull and SRT protocols meet (a protocol never imports another).
 */
import { checkedAddress, PullRefusedError } from '@airwave/media/protocols/pull/address-guard';
import {
  EndOnce,
  type PullEndKind,
  type PullInput,
  type PullInputContext,
} from '@airwave/media/protocols/pull/pull-input';
import { SrtCall, type SrtCallEnd } from '@airwave/media/protocols/srt/caller';
import { PASSPHRASE_MAX, PASSPHRASE_MIN } from '@airwave/media/protocols/srt/crypto';

/** What an SRT source URI asks of the call, or why it cannot be dialled. */
export interface SrtSourceParameters {
  readonly streamId?: string;
  readonly passphrase?: string;
  readonly keyLength?: number;
  readonly latencyMs?: number;
}

/** Reads the caller's parameters from an SRT source URI; a string says what is wrong. */
export function srtSourceParameters(url: URL): SrtSourceParameters | string {
  const params = url.searchParams;
  const mode = params.get('mode');
  if (mode !== null && mode !== 'caller') {
    return `SRT ${mode} mode is not pulled (the source must listen; Airwave calls it)`;
  }
  const passphrase = params.get('passphrase') ?? undefined;
  if (passphrase !== undefined && (passphrase.length < PASSPHRASE_MIN || passphrase.length > PASSPHRASE_MAX)) {
    return `the SRT passphrase must have ${PASSPHRASE_MIN} to ${PASSPHRASE_MAX} characters`;
  }
  const pbkeylen = params.get('pbkeylen');
  const keyLength = pbkeylen === null ? undefined : Number(pbkeylen);
  if (keyLength !== undefined && keyLength !== 16 && keyLength !== 24 && keyLength !== 32) {
    return 'pbkeylen must be 16, 24 or 32';
  }
  const latency = params.get('latency') ?? params.get('rcvlatency');
  const latencyUs = latency === null ? undefined : Number(latency);
  if (latencyUs !== undefined && !(Number.isInteger(latencyUs) && latencyUs >= 0 && latencyUs <= 60_000_000)) {
    return 'latency is in microseconds, 0 to 60000000';
  }
  const streamId = params.get('streamid') ?? undefined;
  return {
    ...(streamId ? { streamId } : {}),
    ...(passphrase ? { passphrase } : {}),
    ...(keyLength ? { keyLength } : {}),
    ...(latencyUs === undefined ? {} : { latencyMs: Math.max(20, Math.round(latencyUs / 1000)) }),
  };
}

/** Opens an SRT attempt. */
export function openSrtPullInput(context: PullInputContext): PullInput {
  return new SrtInput(context);
}

/** How a call's end reads as an attempt's end. */
const END_KINDS: Record<SrtCallEnd['kind'], PullEndKind> = {
  refused: 'failed',
  timeout: 'failed',
  failed: 'failed',
  ended: 'source_ended',
  stopped: 'stopped',
};

class SrtInput implements PullInput {
  private readonly end = new EndOnce();
  private call: SrtCall | undefined;

  constructor(private readonly context: PullInputContext) {
    const parameters = srtSourceParameters(context.target.url);
    if (typeof parameters === 'string') {
      this.end.settle({ kind: 'failed', message: parameters });
      return;
    }
    checkedAddress(context.guard, context.target.host).then(
      (address) => this.dial(address, parameters),
      (error: unknown) => {
        if (error instanceof PullRefusedError) {
          this.end.settle({ kind: error.kind, message: error.message });
        } else {
          this.end.settle({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
        }
      },
    );
  }

  get ended() {
    return this.end.ended;
  }

  stop(reason: string, kind: PullEndKind = 'stopped'): void {
    if (this.end.settle({ kind, message: reason })) {
      this.call?.close(reason);
    }
  }

  private dial(address: string, parameters: SrtSourceParameters): void {
    if (this.end.settled) {
      return;
    }
    const { sink, log, target } = this.context;
    sink.resolved(address);
    this.call = new SrtCall({
      address,
      port: Number(target.url.port),
      ...parameters,
      sink,
      log,
      onEnd: (end) => this.end.settle({ kind: END_KINDS[end.kind], message: end.message }),
    });
  }
}
