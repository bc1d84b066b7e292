/**
 * Push-target URIs: which ones are accepted (rtmp, rtmps, srt caller with streamid and
 * passphrase) and the masked form the API reads back — credentials, query and fragment stripped,
 * the stream-key segment cut to a short prefix, so the masked text never contains the key.
 */
import { ValidationError } from '../errors.js';

/** Longest accepted URI. */
export const TARGET_URI_MAX_LENGTH = 2048;

/** SRT query parameters a target may carry (libsrt caller options). */
const SRT_OPTIONS = new Set(['streamid', 'passphrase', 'pbkeylen']);

/** The parts of an accepted URI the service checks further. */
export interface TargetAddress {
  readonly scheme: 'rtmp' | 'rtmps' | 'srt';
  /** Host name or literal address (IPv6 without brackets). */
  readonly host: string;
}

function invalid(field: string, constraint: string, message: string): ValidationError {
  return new ValidationError(field, constraint, `${field}: ${message}`);
}

/** Checks a target URI; answers its scheme and host, or throws a ValidationError on `field`. */
export function parseTargetUri(uri: string, field: string): TargetAddress {
  if (uri.length > TARGET_URI_MAX_LENGTH) {
    throw invalid(field, 'length', `must be at most ${TARGET_URI_MAX_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw invalid(field, 'uri', 'is not a URI (expected rtmp://, rtmps:// or srt://)');
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== 'rtmp' && scheme !== 'rtmps' && scheme !== 'srt') {
    throw invalid(field, 'scheme', `scheme ${scheme}: is not supported (rtmp, rtmps or srt)`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') {
    throw invalid(field, 'host', 'must name a host');
  }
  if (url.username !== '' || url.password !== '') {
    throw invalid(field, 'credentials', 'must not carry user:password (put the stream key where the platform says)');
  }
  if (url.hash !== '') {
    throw invalid(field, 'fragment', 'must not carry a fragment');
  }
  if (scheme === 'srt') {
    checkSrt(url, field);
  } else {
    const segments = url.pathname.split('/').filter((segment) => segment !== '');
    if (segments.length < 2) {
      throw invalid(field, 'path', 'an RTMP target needs /<app>/<stream key>');
    }
  }
  return { scheme, host };
}

function checkSrt(url: URL, field: string): void {
  if (url.port === '') {
    throw invalid(field, 'port', 'an SRT target needs a port');
  }
  if (url.pathname !== '' && url.pathname !== '/') {
    throw invalid(field, 'path', 'an SRT target has no path (use ?streamid=)');
  }
  for (const [name, value] of url.searchParams) {
    if (!SRT_OPTIONS.has(name)) {
      throw invalid(field, 'srt_option', `SRT option ${name} is not supported (streamid, passphrase, pbkeylen)`);
    }
    if (name === 'passphrase' && (value.length < 10 || value.length > 79)) {
      throw invalid(field, 'passphrase', 'an SRT passphrase has 10 to 79 characters');
    }
    if (name === 'pbkeylen' && !['16', '24', '32'].includes(value)) {
      throw invalid(field, 'pbkeylen', 'pbkeylen is 16, 24 or 32');
    }
    if (name === 'streamid' && (value.length === 0 || value.length > 512)) {
      throw invalid(field, 'streamid', 'an SRT streamid has 1 to 512 characters');
    }
  }
  if (url.searchParams.getAll('passphrase').length > 1 || url.searchParams.getAll('streamid').length > 1) {
    throw invalid(field, 'srt_option', 'streamid and passphrase may appear once each');
  }
}

/** A key segment cut to at most a quarter of its length (4 characters at most), then `****`. */
function redactSegment(segment: string): string {
  const kept = Math.min(4, Math.floor(segment.length / 4));
  return `${segment.slice(0, kept)}****`;
}

/** The masked form of an accepted URI. */
export function maskTargetUri(uri: string): string {
  const url = new URL(uri);
  const origin = `${url.protocol}//${url.host}`;
  if (url.protocol === 'srt:') {
    return origin;
  }
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const last = segments.pop() ?? '';
  return `${origin}/${[...segments, redactSegment(last)].join('/')}`;
}
