/** Chooses the input of an attempt by source kind: our DTSC and UDP readers, or an ffmpeg child for the rest. */
import { openDtscInput } from './dtsc-input.js';
import type { PullInputFactory } from './pull-input.js';
import { openUdpInput } from './udp-input.js';

/** The input factory of every kind, given the ffmpeg one. */
export function pullInputs(ffmpeg: PullInputFactory): PullInputFactory {
  return (context) => {
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
