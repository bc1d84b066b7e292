/**
 * What an SRT pull URI asks of the caller (draft-sharabayko-srt-01; parameters as ffmpeg's
 * `srt://` protocol reads them: `streamid`, `passphrase`, `pbkeylen`, `latency`/`rcvlatency` in
 * microseconds; `mode` only `caller`): read when the stream is created or updated (a
 * ValidationError) and again by each attempt.
 */
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
