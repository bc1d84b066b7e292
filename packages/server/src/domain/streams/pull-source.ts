/**
 * Validates pull-source URIs (spec §1, §4 rule 5): RTSP(S), SRT, RIST, HTTP(S) HLS / MPEG-TS /
 * Matroska / WebM files, and MPEG-TS over UDP (unicast or multicast). RTMP pull and
 * FLV-over-HTTP pull are refused. Hosts must be public unless the node allows private sources.
 */
import { ValidationError } from '../errors.js';
import { checkOutboundHost, type HostResolver } from '../outbound-url.js';

/** Longest pull-source URI accepted. */
export const PULL_URI_MAX_LENGTH = 2048;

const FIELD = 'input.pullSource.sourceUri';
const HTTP_EXTENSIONS = ['.m3u8', '.ts', '.mkv', '.webm'];
const PORT_REQUIRED = new Set(['srt:', 'rist:', 'udp:']);

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

function invalid(constraint: string, message: string): ValidationError {
  return new ValidationError(FIELD, constraint, `${FIELD}: ${message}`);
}

/** Checks scheme, shape and address of a pull-source URI; throws a ValidationError naming the rule. */
export async function validatePullSource(raw: string, options: PullSourceOptions): Promise<ValidatedPullSource> {
  const uri = raw.trim();
  if (uri === '') {
    throw invalid('required', 'is required when ingestMode is PULL');
  }
  if (uri.length > PULL_URI_MAX_LENGTH) {
    throw invalid('length', `must be at most ${PULL_URI_MAX_LENGTH} characters`);
  }
  if (/[\s\p{Cc}]/u.test(uri)) {
    throw invalid('format', 'must not contain spaces or control characters');
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw invalid('format', 'is not a valid URI');
  }
  const scheme = url.protocol;
  const path = url.pathname.toLowerCase();
  if (scheme === 'rtmp:' || scheme === 'rtmps:') {
    throw invalid('scheme', 'RTMP pull input is unsupported; push to this stream over RTMP instead');
  }
  if (scheme === 'http:' || scheme === 'https:') {
    if (path.endsWith('.flv')) {
      throw invalid('scheme', 'FLV-over-HTTP pull input is unsupported');
    }
    if (!HTTP_EXTENSIONS.some((extension) => path.endsWith(extension))) {
      throw invalid('format', `HTTP(S) pull sources must be ${HTTP_EXTENSIONS.join(', ')} resources`);
    }
  } else if (!['rtsp:', 'rtsps:', 'srt:', 'rist:', 'udp:'].includes(scheme)) {
    throw invalid(
      'scheme',
      `scheme ${scheme.replace(/:$/, '')} is unsupported; use rtsp, rtsps, srt, rist, http(s) (.m3u8, .ts, .mkv, .webm) or udp`,
    );
  }
  if (PORT_REQUIRED.has(scheme) && url.port === '') {
    throw invalid('port', `${scheme.replace(/:$/, '')} sources need a port`);
  }
  const check = await checkOutboundHost(url.hostname, {
    field: FIELD,
    allowPrivate: options.allowPrivate,
    optInSetting: 'AIRWAVE_ALLOW_PRIVATE_PULL_SOURCES',
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  return { uri, class: check.class };
}

/** The URI without credentials, query values or fragment (they may hold passphrases or tokens). */
export function redactPullUri(uri: string): string {
  let copy: URL;
  try {
    copy = new URL(uri);
  } catch {
    return '***';
  }
  const hadCredentials = copy.username !== '' || copy.password !== '';
  copy.username = '';
  copy.password = '';
  copy.hash = '';
  const keys = [...new Set(copy.searchParams.keys())];
  copy.search = '';
  let text = copy.href;
  if (hadCredentials) {
    text = text.replace('//', '//***@');
  }
  if (keys.length > 0) {
    text += `?${keys.map((key) => `${encodeURIComponent(key)}=***`).join('&')}`;
  }
  return text;
}
