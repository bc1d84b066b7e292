/**
 * SRT pull in process (draft-sharabayko-srt-01, caller mode): `srt://host:port?streamid=…&
 * passphrase=…&pbkeylen=…&latency=…` (domain/streams/srt-pull-parameters.ts) is dialled by the
 * media plane's SRT caller (protocols/srt/caller.ts) at the address the guard checked for this
 * attempt; the MPEG-TS it receives goes straight to the demuxer. No ffmpeg child, and the
 * passphrase never appears on a command line. Here, where the pull and SRT protocols meet (a
 * protocol never imports another).
 */
import { checkedAddress, PullRefusedError } from '@airwave/media/protocols/pull/address-guard';
import {
  EndOnce,
  type PullEndKind,
  type PullInput,
  type PullInputContext,
} from '@airwave/media/protocols/pull/pull-input';
import { SrtCall, type SrtCallEnd } from '@airwave/media/protocols/srt/caller';
import { type SrtSourceParameters, srtSourceParameters } from '../domain/streams/srt-pull-parameters.js';

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
