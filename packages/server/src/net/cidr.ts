/**
 * IPv4/IPv6 addresses and CIDR ranges (RFC 4632, RFC 4291 §2.3) for trusted-proxy lists, on
 * node's BlockList. IPv4-mapped IPv6 addresses (`::ffff:192.0.2.1`, what a dual-stack socket
 * reports) are read as the IPv4 address they carry.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** Longest CIDR list accepted (characters). */
const MAX_LIST_LENGTH = 4096;
const MAPPED_V4 = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

/** An address in canonical form for matching: IPv4-mapped IPv6 unwrapped; undefined when not an IP. */
export function normalizeIp(value: string): { readonly address: string; readonly family: 'ipv4' | 'ipv6' } | undefined {
  const mapped = MAPPED_V4.exec(value);
  const address = mapped ? (mapped[1] as string) : value;
  if (isIPv4(address)) {
    return { address, family: 'ipv4' };
  }
  if (isIPv6(address)) {
    return { address: address.toLowerCase(), family: 'ipv6' };
  }
  return undefined;
}

/** A set of CIDR ranges. */
export interface CidrSet {
  /** True when `ip` (any textual form) lies in one of the ranges. */
  has(ip: string): boolean;
  /** Number of ranges. */
  readonly size: number;
}

/**
 * Parses `10.0.0.0/8, 127.0.0.1, ::1/128`: comma- or space-separated ranges (a bare address is
 * its own /32 or /128). Throws an Error naming the first bad entry.
 */
export function parseCidrList(text: string): CidrSet {
  if (text.length > MAX_LIST_LENGTH) {
    throw new Error(`the CIDR list is longer than ${MAX_LIST_LENGTH} characters`);
  }
  const list = new BlockList();
  const entries = text.split(/[\s,]+/).filter((entry) => entry.length > 0);
  for (const entry of entries) {
    const slash = entry.indexOf('/');
    const ip = normalizeIp(slash < 0 ? entry : entry.slice(0, slash));
    const max = ip?.family === 'ipv4' ? 32 : 128;
    const prefixText = slash < 0 ? String(max) : entry.slice(slash + 1);
    const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
    if (!ip || !(prefix >= 0 && prefix <= max)) {
      throw new Error(`"${entry}" is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1/128)`);
    }
    list.addSubnet(ip.address, prefix, ip.family);
  }
  return {
    size: entries.length,
    has(value: string): boolean {
      if (entries.length === 0) {
        return false;
      }
      const ip = normalizeIp(value);
      return ip !== undefined && list.check(ip.address, ip.family);
    },
  };
}
