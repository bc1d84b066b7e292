/**
 * What a caller's Stream ID asks for (draft-sharabayko-srt-01 Appendix B, SRT Access Control):
 * either the bare stream key, or `#!::r=<key>,m=publish` (keys u, r, h, s, t, m; a nested `{…}`
 * block is not accepted). Airwave serves publishing only.
 */

/** A Stream ID read. */
export type StreamIdRequest =
  | { readonly ok: true; readonly key: string; readonly mode: 'publish' | 'request' | 'bidirectional' }
  | { readonly ok: false; readonly reason: string };

const MODES = new Set(['publish', 'request', 'bidirectional']);

/**
 * Reads a Stream ID: `key`, or `#!::r=key,m=publish` (m defaults to publish when r is given
 * alone). A percent-encoded `%23%21…` (some tools pass the URL's value undecoded) is decoded first.
 */
export function parseStreamId(raw: string): StreamIdRequest {
  let streamId = raw;
  if (raw.startsWith('%23%21')) {
    try {
      streamId = decodeURIComponent(raw);
    } catch {
      return { ok: false, reason: 'malformed percent-encoding' };
    }
  }
  if (!streamId.startsWith('#!:')) {
    const key = streamId.trim();
    return key.length === 0 ? { ok: false, reason: 'empty Stream ID' } : { ok: true, key, mode: 'publish' };
  }
  if (!streamId.startsWith('#!::')) {
    return { ok: false, reason: 'only the #!:: key=value syntax is understood' };
  }
  const pairs = new Map<string, string>();
  for (const item of streamId.slice(4).split(',')) {
    const equals = item.indexOf('=');
    if (equals <= 0) {
      return { ok: false, reason: `malformed item "${item.slice(0, 32)}"` };
    }
    const name = item.slice(0, equals).trim();
    if (pairs.has(name)) {
      return { ok: false, reason: `key ${name.slice(0, 32)} given twice` };
    }
    pairs.set(name, item.slice(equals + 1).trim());
  }
  const key = pairs.get('r') ?? '';
  if (key.length === 0) {
    return { ok: false, reason: 'no resource (r=<streamKey>)' };
  }
  const mode = pairs.get('m') ?? 'publish';
  if (!MODES.has(mode)) {
    return { ok: false, reason: `unknown mode m=${mode.slice(0, 32)}` };
  }
  const type = pairs.get('t') ?? 'stream';
  if (type !== 'stream') {
    return { ok: false, reason: `type t=${type.slice(0, 32)} (only stream)` };
  }
  return { ok: true, key, mode: mode as 'publish' | 'request' | 'bidirectional' };
}
