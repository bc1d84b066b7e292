/**
 * Validates pull-source URIs (spec §1, §4 rules 4–5): RTSP(S), SRT, RIST, HLS (.m3u8), MPEG-TS /
 * Matroska / WebM files over HTTP(S), DTSC and MPEG-TS over UDP (unicast or multicast), as the
 * media plane classifies them. RTMP pull and FLV-over-HTTP pull are refused. Hosts must be
 * public unless the node allows private sources; the puller checks again at every connect.
 */
import { classifyPullUri, isPullTarget } from '@airwave/media/protocols/pull/pull-target';
import { redactUri } from '@airwave/media/protocols/pull/redact';
import { ValidationError } from '../errors.js';
import { checkOutboundHost, type HostResolver } from '../outbound-url.js';
import { srtSourceParameters } from './srt-pull-parameters.js';

export { PULL_URI_MAX_LENGTH } from '@airwave/media/protocols/pull/pull-target';

const FIELD = 'input.pullSource.sourceUri';

/** The setting that allows private pull sources, named in errors. */
export const PRIVATE_PULL_SETTING = 'AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES';

/** A validated pull source. */
export interface ValidatedPullSource {
  /** The URI as given (trimmed). */
  readonly uri: string;
  readonly class: 'public' | 'private';
}

/** Options of pull-source validation. */
export interface PullSourceOptions {
  readonly allowPrivate: boolean;
  readonly resolve?: HostResolver;
}

/** Checks scheme, shape and address of a pull-source URI; throws a ValidationError naming the rule. */
export async function validatePullSource(raw: string, options: PullSourceOptions): Promise<ValidatedPullSource> {
  const target = classifyPullUri(raw);
  if (!isPullTarget(target)) {
    throw new ValidationError(FIELD, target.constraint, `${FIELD}: ${target.message}`);
  }
  const srt = target.kind === 'srt' ? srtSourceParameters(target.url) : undefined;
  if (typeof srt === 'string') {
    throw new ValidationError(FIELD, 'srt_option', `${FIELD}: ${srt}`);
  }
  const check = await checkOutboundHost(target.host, {
    field: FIELD,
    allowPrivate: options.allowPrivate,
    optInSetting: PRIVATE_PULL_SETTING,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  return { uri: raw.trim(), class: check.class };
}

/** The URI without credentials, query values or fragment (they may hold passphrases or tokens). */
export function redactPullUri(uri: string): string {
  return redactUri(uri);
}
