/** Chooses the input of an attempt by source kind: our DTSC and UDP readers, the in-process ones given (SRT), or an ffmpeg child for the rest. */
import { openDtscInput } from './dtsc-input.js';
import type { PullInputFactory } from './pull-input.js';
import type { PullKind } from './pull-target.js';
import { openUdpInput } from './udp-input.js';

/** The input factory of every kind, given the ffmpeg one and in-process inputs made elsewhere (by kind). */
export function pullInputs(
  ffmpeg: PullInputFactory,
  inProcess: Partial<Record<PullKind, PullInputFactory>> = {},
): PullInputFactory {
  return (context) => {
    const own = inProcess[context.target.kind];
    if (own) {
      return own(context);
    }
    switch (context.target.kind) {
      case 'dtsc':
        return openDtscInput(context);
      case 'udp':
        return openUdpInput(context);
      default:
        return ffmpeg(context);
    }
  };
}
