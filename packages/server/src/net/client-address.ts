/**
 * The viewer's address behind trusted proxies: the socket peer, unless the peer is a trusted
 * proxy, in which case the forwarding chain is walked from the right (the hop nearest to us) past
 * every trusted proxy to the first address that is not one. `Forwarded` (RFC 7239 §4, `for=`) is
 * read when present, else `X-Forwarded-For` (the de-facto list of addresses). Unknown or
 * obfuscated identifiers (`unknown`, `_hidden`) and malformed entries make the address
 * undeterminable rather than a guess.
 */
import type { CidrSet } from './cidr.js';
import { normalizeIp } from './cidr.js';

/** Longest forwarding header read (characters); longer ones are refused. */
export const MAX_FORWARDING_HEADER = 8192;
/** Most hops read from a forwarding header. */
export const MAX_FORWARDING_HOPS = 64;

/** Why no address could be determined. */
export type ClientAddressProblem = 'no-peer' | 'no-forwarding-header' | 'malformed-forwarding-header' | 'obfuscated';

/** The client address, or why it is unknown. */
export type ClientAddress =
  | { readonly ok: true; readonly ip: string; readonly forwarded: boolean }
  | { readonly ok: false; readonly problem: ClientAddressProblem };

/** What the resolution reads of a request. */
export interface ForwardingInput {
  /** The socket peer (`socket.remoteAddress`). */
  readonly peer: string | undefined;
  readonly forwarded?: string | string[] | undefined;
  readonly xForwardedFor?: string | string[] | undefined;
}

/** Determines the client address of a request given the trusted proxies. */
export function clientAddress(input: ForwardingInput, trusted: CidrSet): ClientAddress {
  const peer = input.peer === undefined ? undefined : normalizeIp(input.peer);
  if (!peer) {
    return { ok: false, problem: 'no-peer' };
  }
  if (!trusted.has(peer.address)) {
    return { ok: true, ip: peer.address, forwarded: false };
  }
  const forwarded = joined(input.forwarded);
  const hops =
    forwarded !== undefined ? forwardedFor(forwarded) : xForwardedFor(joined(input.xForwardedFor) ?? undefined);
  if (hops === undefined) {
    return { ok: false, problem: 'no-forwarding-header' };
  }
  if (hops === 'malformed') {
    return { ok: false, problem: 'malformed-forwarding-header' };
  }
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string | null;
    if (hop === null) {
      return { ok: false, problem: 'obfuscated' };
    }
    if (i === 0 || !trusted.has(hop)) {
      return { ok: true, ip: hop, forwarded: true };
    }
  }
  return { ok: false, problem: 'no-forwarding-header' };
}

function joined(value: string | string[] | undefined): string | undefined {
  if (value === undefined) {
    return undefined;
  }
  return Array.isArray(value) ? value.join(',') : value;
}

/** Addresses of `X-Forwarded-For`, left (client) to right; undefined when absent or empty. */
export function xForwardedFor(value: string | undefined): (string | null)[] | 'malformed' | undefined {
  if (value === undefined || value.trim() === '') {
    return undefined;
  }
  if (value.length > MAX_FORWARDING_HEADER) {
    return 'malformed';
  }
  const parts = value.split(',');
  if (parts.length > MAX_FORWARDING_HOPS) {
    return 'malformed';
  }
  const hops: (string | null)[] = [];
  for (const part of parts) {
    const hop = nodeAddress(part.trim());
    if (hop === undefined) {
      return 'malformed';
    }
    hops.push(hop);
  }
  return hops;
}

/** The `for=` addresses of `Forwarded` elements, left to right (RFC 7239 §4). */
export function forwardedFor(value: string): (string | null)[] | 'malformed' | undefined {
  if (value.length > MAX_FORWARDING_HEADER) {
    return 'malformed';
  }
  const elements = splitOutsideQuotes(value, ',');
  if (elements === undefined || elements.length > MAX_FORWARDING_HOPS) {
    return 'malformed';
  }
  const hops: (string | null)[] = [];
  for (const element of elements) {
    if (element.trim() === '') {
      continue;
    }
    const pairs = splitOutsideQuotes(element, ';');
    if (pairs === undefined) {
      return 'malformed';
    }
    let found: string | null | undefined;
    for (const pair of pairs) {
      const eq = pair.indexOf('=');
      if (eq <= 0) {
        return 'malformed';
      }
      if (pair.slice(0, eq).trim().toLowerCase() !== 'for') {
        continue;
      }
      const raw = unquote(pair.slice(eq + 1).trim());
      found = raw === undefined ? undefined : nodeAddress(raw);
      if (found === undefined) {
        return 'malformed';
      }
    }
    if (found !== undefined) {
      hops.push(found);
    }
  }
  return hops.length === 0 ? undefined : hops;
}

/**
 * One node identifier: an IPv4 address (optionally `:port`), an IPv6 address (bare, or
 * `[addr]` optionally with `:port`); `unknown` and `_obfuscated` are null.
 */
function nodeAddress(text: string): string | null | undefined {
  if (text.toLowerCase() === 'unknown' || text.startsWith('_')) {
    return null;
  }
  let host = text;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    const rest = close < 0 ? '' : text.slice(close + 1);
    if (close < 0 || !(rest === '' || /^:\d{1,5}$/.test(rest))) {
      return undefined;
    }
    host = text.slice(1, close);
  } else if (/^[\d.]+:\d{1,5}$/.test(text)) {
    host = text.slice(0, text.indexOf(':'));
  }
  return normalizeIp(host)?.address;
}

function unquote(text: string): string | undefined {
  if (!text.startsWith('"')) {
    return text;
  }
  if (text.length < 2 || !text.endsWith('"')) {
    return undefined;
  }
  return text.slice(1, -1).replace(/\\(.)/g, '$1');
}

/** Splits on `separator` outside double quotes; undefined when a quote is left open. */
function splitOutsideQuotes(text: string, separator: string): string[] | undefined {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\' && quoted) {
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (char === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (quoted) {
    return undefined;
  }
  parts.push(text.slice(start));
  return parts;
}
