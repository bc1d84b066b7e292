/**
 * Which kind of source a pull URI names, and how it is read: RTSP/RTSPS (RFC 2326), SRT caller,
 * RIST, HLS (`.m3u8`, RFC 8216), files over HTTP(S) (MPEG-TS, Matroska, WebM), MPEG-TS over UDP
 * (unicast or multicast) and DTSC (MistServer). RTMP pull and FLV over HTTP are unsupported
 * (spec §1). The one classification the API validates with and the puller dials by.
 */

/** Kinds of pull source. */
export type PullKind = 'rtsp' | 'rtsps' | 'srt' | 'rist' | 'hls' | 'http-file' | 'udp' | 'dtsc';

/** A classified pull URI. */
export interface PullTarget {
  readonly kind: PullKind;
  readonly url: URL;
  /** The host as written (no brackets), what the address guard checks. */
  readonly host: string;
}

/** Why a URI is not a pull source (`constraint` is the ValidationError's). */
export interface PullUriProblem {
  readonly constraint: 'required' | 'length' | 'format' | 'scheme' | 'port' | 'host';
  readonly message: string;
}

/** Longest pull-source URI accepted. */
export const PULL_URI_MAX_LENGTH = 2048;
/** Default DTSC port (MistServer's). */
export const DTSC_DEFAULT_PORT = 4200;
/** Lowest local UDP port a pull may listen on. */
export const UDP_MIN_PORT = 1024;

const HTTP_FILES = ['.ts', '.mkv', '.webm', '.mka'];
const PORT_REQUIRED = new Set(['srt:', 'rist:', 'udp:']);
const SCHEMES = ['rtsp', 'rtsps', 'srt', 'rist', 'http', 'https', 'dtsc', 'udp'];

/** Classifies a pull URI, or says why it cannot be pulled. */
export function classifyPullUri(raw: string): PullTarget | PullUriProblem {
  const uri = raw.trim();
  if (uri === '') {
    return { constraint: 'required', message: 'is required when ingestMode is PULL' };
  }
  if (uri.length > PULL_URI_MAX_LENGTH) {
    return { constraint: 'length', message: `must be at most ${PULL_URI_MAX_LENGTH} characters` };
  }
  if (/[\s\p{Cc}]/u.test(uri)) {
    return { constraint: 'format', message: 'must not contain spaces or control characters' };
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { constraint: 'format', message: 'is not a valid URI' };
  }
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme === 'rtmp' || scheme === 'rtmps' || scheme === 'rtmpt' || scheme === 'rtmpe') {
    return {
      constraint: 'scheme',
      message: 'RTMP pull input is unsupported; push to this stream over RTMP instead (ingestMode PUSH)',
    };
  }
  if (!SCHEMES.includes(scheme)) {
    return {
      constraint: 'scheme',
      message: `scheme ${scheme} is unsupported; use rtsp, rtsps, srt, rist, http(s) (.m3u8, .ts, .mkv, .webm), dtsc or udp`,
    };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') {
    return { constraint: 'host', message: `${scheme} sources must name a host` };
  }
  if (PORT_REQUIRED.has(url.protocol) && url.port === '') {
    return { constraint: 'port', message: `${scheme} sources need a port` };
  }
  if (scheme === 'udp' && Number(url.port) < UDP_MIN_PORT) {
    return { constraint: 'port', message: `udp sources listen on a port of at least ${UDP_MIN_PORT}` };
  }
  if (scheme === 'http' || scheme === 'https') {
    const path = url.pathname.toLowerCase();
    if (path.endsWith('.flv')) {
      return { constraint: 'scheme', message: 'FLV-over-HTTP pull input is unsupported' };
    }
    if (path.endsWith('.m3u8')) {
      return { kind: 'hls', url, host };
    }
    if (!HTTP_FILES.some((extension) => path.endsWith(extension))) {
      return {
        constraint: 'format',
        message: 'HTTP(S) pull sources must be an HLS playlist (.m3u8) or a .ts, .mkv or .webm resource',
      };
    }
    return { kind: 'http-file', url, host };
  }
  if (scheme === 'dtsc' && url.pathname.replace(/^\/+/, '') === '') {
    return { constraint: 'format', message: 'dtsc sources name the stream: dtsc://host[:4200]/<stream>' };
  }
  return { kind: scheme as PullKind, url, host };
}

/** Type guard: the classification succeeded. */
export function isPullTarget(result: PullTarget | PullUriProblem): result is PullTarget {
  return 'kind' in result;
}
