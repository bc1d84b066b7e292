/**
 * Chooses the input of an attempt by source kind: our DTSC, UDP and RTSP readers (RTSP handing
 * the sources only ffmpeg reads to it), the in-process ones given (SRT), or an ffmpeg child for the rest.
 */
import { openDtscInput } from './dtsc-input.js';
import type { PullInputFactory } from './pull-input.js';
import type { PullKind } from './pull-target.js';
import { rtspInputs } from './rtsp/rtsp-input.js';
import { udpInputs } from './udp-input.js';

/** Which reader takes RTSP sources, and in-process inputs made elsewhere (by kind). */
export interface PullInputChoices {
  /** `in-process` (default): our client, ffmpeg for what only it reads; `ffmpeg`: always the child. */
  readonly rtsp?: 'in-process' | 'ffmpeg';
  /** In-process RTSP and UDP sources nobody watches are read at most once per this many ms (0: as bytes arrive, UDP every 20 ms). */
  readonly mergedReadMs?: number;
  /** Inputs of other layers by kind (the SRT caller lives in the server's ingest). */
  readonly inProcess?: Partial<Record<PullKind, PullInputFactory>>;
}

/** The input factory of every kind, given the ffmpeg one. */
export function pullInputs(ffmpeg: PullInputFactory, choices: PullInputChoices = {}): PullInputFactory {
  const rtsp =
    choices.rtsp === 'ffmpeg' ? ffmpeg : rtspInputs({ fallback: ffmpeg, mergedReadMs: choices.mergedReadMs ?? 0 });
  const udp = udpInputs({ mergedReadMs: choices.mergedReadMs ?? 0 });
  const inProcess = choices.inProcess ?? {};
  return (context) => {
    const own = inProcess[context.target.kind];
    if (own) {
      return own(context);
    }
    switch (context.target.kind) {
      case 'dtsc':
        return openDtscInput(context);
      case 'udp':
        return udp(context);
      case 'rtsp':
      case 'rtsps':
        return rtsp(context);
      default:
        return ffmpeg(context);
    }
  };
}
