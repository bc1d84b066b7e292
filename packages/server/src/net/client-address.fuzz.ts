/**
 * Fuzz target of the forwarding-header readers (X-Forwarded-For and Forwarded come from any
 * client when a trusted proxy passes them on). Seeds are real header values.
 */
import type { FuzzTarget } from '@airwave/media/testing/fuzz';
import { parseCidrList } from './cidr.js';
import { clientAddress } from './client-address.js';

const trusted = parseCidrList('127.0.0.0/8 ::1 10.0.0.0/8');
const seeds = [
  '198.51.100.1, 81.2.69.142, 10.1.2.3',
  'for=198.51.100.17;proto=https, for="[2001:db8:cafe::17]:4711";by=10.0.0.1',
  'for=_hidden, for=unknown',
  'for="\\"quoted\\"";host=example.com',
  '::ffff:192.0.2.1, [2001:db8::1]:80',
].map((text) => new TextEncoder().encode(text));

/** Fuzz targets of this module. */
export const fuzzTargets: FuzzTarget[] = [
  {
    name: 'net/client-address forwarding headers',
    seeds,
    run(input) {
      const text = new TextDecoder().decode(input);
      for (const headers of [{ forwarded: text }, { xForwardedFor: text }]) {
        const result = clientAddress({ peer: '127.0.0.1', ...headers }, trusted);
        if (result.ok && !trusted.has(result.ip) && result.ip.length > 45) {
          throw new Error(`an address longer than any IP came out: ${result.ip}`);
        }
      }
    },
  },
];
