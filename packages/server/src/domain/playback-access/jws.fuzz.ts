/**
 * Fuzz target of the playback token parser (tokens arrive from any viewer in `?jwt=` or
 * `Authorization: Bearer`). Seeds are real ES256 tokens signed with a fresh P-256 key.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { FuzzTarget } from '@airwave/media/testing/fuzz';
import { parsePlaybackJws } from './jws.js';
import { signPlaybackToken } from './sign-playback-token.js';

const { privateKey } = generateKeyPairSync('ec', {
  namedCurve: 'P-256',
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const seeds = [
  signPlaybackToken(privateKey, { sub: 'pb-1', exp: 1_800_000_000 }, { kid: 'kid-a' }),
  signPlaybackToken(privateKey, { sub: 'pb-2', exp: 1_800_000_000, nbf: 1_700_000_000, aud: 'v' }, { kid: 'k' }),
  signPlaybackToken(privateKey, { sub: 'pb-3' }, { kid: 'kid-c', alg: 'none' }),
].map((token) => new TextEncoder().encode(token));

/** Fuzz targets of this module. */
export const fuzzTargets: FuzzTarget[] = [
  {
    name: 'parsePlaybackJws',
    seeds,
    run(input) {
      parsePlaybackJws(new TextDecoder().decode(input));
    },
  },
];
