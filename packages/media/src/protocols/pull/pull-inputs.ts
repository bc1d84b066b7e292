/** Chooses the input of an attempt by source kind: our DTSC client, or an ffmpeg child for the rest. */
import { openDtscInput } from './dtsc-input.js';
import type { PullInputFactory } from './pull-input.js';

/** The input factory of every kind, given the ffmpeg one. */
export function pullInputs(ffmpeg: PullInputFactory): PullInputFactory {
  return (context) => (context.target.kind === 'dtsc' ? openDtscInput(context) : ffmpeg(context));
}
