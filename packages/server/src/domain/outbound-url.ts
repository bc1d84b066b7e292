/**
 * Checks addresses the service will connect to on a customer's behalf (pull sources, webhook
 * URLs, push targets) against private, loopback, link-local, multicast and reserved ranges
 * (RFC 6890 special-purpose registries), for literal IPv4/IPv6 hosts (IPv4-mapped IPv6
 * included) and for host names after DNS resolution.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ValidationError } from './errors.js';

/** Whether an address is reachable on the public internet or only inside a network. */
export type AddressClass = 'public' | 'private';

/** Resolves a host name to its addresses (the system resolver by default). */
export type HostResolver = (host: string) => Promise<readonly string[]>;

/** Options of an outbound address check. */
export interface OutboundCheckOptions {
  /** Accept private, loopback, link-local and multicast addresses (operator opt-in). */
  readonly allowPrivate: boolean;
  /** The input field named in errors, e.g. `input.pullSource.sourceUri`. */
  readonly field: string;
  /** The setting that allows private addresses, named in the error (e.g. AIRWAVE_ALLOW_PRIVATE_WEBHOOKS). */
  readonly optInSetting: string;
  /** Resolver for host names; defaults to getaddrinfo, like the connection that follows. */
  readonly resolve?: HostResolver;
}

/** What a check found. */
export interface OutboundCheck {
  /** `private` when any resolved address is non-public (only returned when allowed). */
  readonly class: AddressClass;
  /** The addresses the host resolved to (the literal itself for IP hosts). */
  readonly addresses: readonly string[];
}

const NON_PUBLIC = new BlockList();
const V4_RANGES: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
];
const V6_RANGES: readonly [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64 (embeds an IPv4 address)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, …)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];
for (const [network, prefix] of V4_RANGES) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of V6_RANGES) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Classifies one literal IP address; IPv4-mapped IPv6 (`::ffff:a.b.c.d`) is judged as IPv4. */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) {
    throw new TypeError(`not an IP address: ${address}`);
  }
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare)?.[1];
  if (mapped) {
    return classifyAddress(mapped);
  }
  return NON_PUBLIC.check(bare, family === 4 ? 'ipv4' : 'ipv6') ? 'private' : 'public';
}

const systemResolver: HostResolver = async (host) => {
  const results = await lookup(host, { all: true, verbatim: true });
  return results.map((result) => result.address);
};

/**
 * Checks the host of a URL: literal addresses directly, names after resolution. Throws a
 * ValidationError when the host is missing, does not resolve, or is non-public while
 * `allowPrivate` is false. Call it again right before connecting (DNS answers change).
 */
export async function checkOutboundHost(host: string, options: OutboundCheckOptions): Promise<OutboundCheck> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === '') {
    throw new ValidationError(options.field, 'host', `${options.field} must name a host`);
  }
  let addresses: readonly string[];
  if (isIP(bare) !== 0) {
    addresses = [bare];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(bare);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) {
      throw new ValidationError(options.field, 'resolvable', `${options.field}: host ${bare} does not resolve`);
    }
  }
  const isPrivate = addresses.some((address) => classifyAddress(address) === 'private');
  if (isPrivate && !options.allowPrivate) {
    throw new ValidationError(
      options.field,
      'public_address',
      `${options.field}: host ${bare} is a private, loopback, link-local, multicast or reserved address; ` +
        `this node does not allow them (${options.optInSetting}=false)`,
    );
  }
  return { class: isPrivate ? 'private' : 'public', addresses };
}
