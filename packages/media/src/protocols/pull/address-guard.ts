/**
 * The private-range guard at connect time (spec §4 rule 5): every address a pull dials is
 * resolved and checked right before the socket opens, and the socket opens to exactly that
 * checked address (a DNS answer cannot change between the check and the dial: no rebinding). The checking
 * itself is the server's (its address classes and the node's opt-in); the media plane only asks.
 */
import { isIP } from 'node:net';
import { ProtocolError } from '../../errors.js';

/** Why the guard refused a host. */
export type PullRefusalKind = 'not_found' | 'private_not_allowed' | 'blocked_uri';

/** Thrown when a pull may not dial (or listen on) an address. */
export class PullRefusedError extends ProtocolError {
  constructor(
    readonly kind: PullRefusalKind,
    message: string,
  ) {
    super(message);
  }
}

/** Resolves a host and checks every address it resolves to. */
export interface PullAddressGuard {
  /**
   * The host's addresses, every one of them allowed for this node; the first is the one to dial.
   * Throws PullRefusedError (`not_found`, `private_not_allowed`).
   */
  resolve(host: string): Promise<readonly string[]>;
}

/** A guard that allows every address (tests of the media plane alone). */
export const allowEveryAddress: PullAddressGuard = {
  async resolve(host) {
    return [host];
  },
};

/**
 * The address to dial for `host`: resolved and checked by the guard (IP literals too — node's
 * sockets skip `lookup` for them). Callers connect to exactly this address, keeping the host
 * name for TLS SNI and the HTTP Host header.
 */
export async function checkedAddress(guard: PullAddressGuard, host: string): Promise<string> {
  const addresses = await guard.resolve(host);
  const first = addresses[0];
  if (first === undefined) {
    throw new PullRefusedError('not_found', `${host} does not resolve`);
  }
  return first;
}

/** The URL's host replaced by a literal address (IPv6 bracketed), keeping everything else. */
export function withAddress(url: URL, address: string): URL {
  const copy = new URL(url.href);
  copy.hostname = isIP(address) === 6 ? `[${address}]` : address;
  return copy;
}
