/**
 * RTSP client authentication from the credentials of the source URI (RFC 2326 §D / RFC 7826
 * §19.1, which use HTTP's): `WWW-Authenticate` challenges parsed (RFC 7235 §2.1), answered with
 * Basic (RFC 7617) or Digest (RFC 7616: MD5, MD5-sess, SHA-256, with or without `qop=auth`, and
 * RFC 2069's form without qop that cameras still send). Digest is preferred when offered. The
 * credentials stay in this object; nothing here logs them.
 */
import { createHash, randomBytes } from 'node:crypto';

/** One challenge of a `WWW-Authenticate` header. */
export interface AuthChallenge {
  /** Lower-cased scheme (`basic`, `digest`, …). */
  readonly scheme: string;
  /** Parameters, names lower-cased, quotes removed. */
  readonly params: ReadonlyMap<string, string>;
}

/** Most parameters read from one header (a bound against hostile headers). */
const MAX_PARAMS = 32;

/** Parses `WWW-Authenticate` header values into challenges (unknown schemes included). */
export function parseChallenges(values: readonly string[]): AuthChallenge[] {
  const challenges: AuthChallenge[] = [];
  for (const value of values) {
    let current: { scheme: string; params: Map<string, string> } | undefined;
    let rest = value.trim();
    let count = 0;
    while (rest.length > 0 && count++ < MAX_PARAMS * 4) {
      const param = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^\s,]*)\s*,?\s*/.exec(rest);
      if (param && current) {
        if (current.params.size < MAX_PARAMS) {
          const quoted = param[3];
          const name = (param[1] as string).toLowerCase();
          current.params.set(name, quoted === undefined ? (param[2] as string) : quoted.replace(/\\(.)/g, '$1'));
        }
        rest = rest.slice(param[0].length);
        continue;
      }
      const scheme = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*,?\s*/.exec(rest);
      if (!scheme) {
        break;
      }
      current = { scheme: (scheme[1] as string).toLowerCase(), params: new Map() };
      challenges.push(current);
      rest = rest.slice(scheme[0].length);
    }
  }
  return challenges;
}

/** User name and password (already percent-decoded). */
export interface RtspCredentials {
  readonly username: string;
  readonly password: string;
}

/** The credentials of a URI's user information, if any. */
export function credentialsOf(url: URL): RtspCredentials | undefined {
  if (url.username === '' && url.password === '') {
    return undefined;
  }
  const decode = (text: string): string => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  return { username: decode(url.username), password: decode(url.password) };
}

const DIGEST_HASHES: Record<string, string> = {
  md5: 'md5',
  'md5-sess': 'md5',
  'sha-256': 'sha256',
  'sha-256-sess': 'sha256',
};

/** Answers challenges for every later request of a connection. */
export class RtspAuthenticator {
  private challenge: AuthChallenge | undefined;
  private nonceCount = 0;

  /** `cnonce` makes the client nonce (random by default; fixed in tests of known answers). */
  constructor(
    private readonly credentials: RtspCredentials,
    private readonly cnonce: () => string = () => randomBytes(8).toString('hex'),
  ) {}

  /**
   * Takes the challenges of a 401; returns false when none can be answered (an unknown scheme
   * only, or the same Digest nonce refused again, which means wrong credentials).
   */
  accept(challenges: readonly AuthChallenge[]): boolean {
    const digest = challenges
      .filter((challenge) => challenge.scheme === 'digest' && challenge.params.has('nonce'))
      .filter((challenge) => (challenge.params.get('algorithm') ?? 'md5').toLowerCase() in DIGEST_HASHES)
      .sort((a, b) => algorithmRank(b) - algorithmRank(a))[0];
    const chosen = digest ?? challenges.find((challenge) => challenge.scheme === 'basic');
    if (!chosen) {
      return false;
    }
    const previous = this.challenge;
    if (previous && previous.scheme === chosen.scheme) {
      const stale = chosen.params.get('stale')?.toLowerCase() === 'true';
      if (chosen.scheme === 'basic' || (!stale && previous.params.get('nonce') === chosen.params.get('nonce'))) {
        return false;
      }
    }
    this.challenge = chosen;
    this.nonceCount = 0;
    return true;
  }

  /** The Authorization header of a request, once a challenge was accepted. */
  header(method: string, uri: string): string | undefined {
    const challenge = this.challenge;
    if (!challenge) {
      return undefined;
    }
    const { username, password } = this.credentials;
    if (challenge.scheme === 'basic') {
      return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
    }
    const params = challenge.params;
    const algorithm = (params.get('algorithm') ?? 'MD5').toLowerCase();
    const hash = (text: string): string =>
      createHash(DIGEST_HASHES[algorithm] ?? 'md5')
        .update(text, 'utf8')
        .digest('hex');
    const realm = params.get('realm') ?? '';
    const nonce = params.get('nonce') ?? '';
    const qop = params
      .get('qop')
      ?.split(',')
      .map((option) => option.trim().toLowerCase())
      .includes('auth')
      ? 'auth'
      : undefined;
    const cnonce = this.cnonce();
    this.nonceCount++;
    const nc = this.nonceCount.toString(16).padStart(8, '0');
    let ha1 = hash(`${username}:${realm}:${password}`);
    if (algorithm.endsWith('-sess')) {
      ha1 = hash(`${ha1}:${nonce}:${cnonce}`);
    }
    const ha2 = hash(`${method}:${uri}`);
    const response = qop ? hash(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : hash(`${ha1}:${nonce}:${ha2}`);
    const fields = [
      `username="${quote(username)}"`,
      `realm="${quote(realm)}"`,
      `nonce="${quote(nonce)}"`,
      `uri="${quote(uri)}"`,
      `response="${response}"`,
    ];
    if (params.has('algorithm')) {
      fields.push(`algorithm=${params.get('algorithm')}`);
    }
    if (params.has('opaque')) {
      fields.push(`opaque="${quote(params.get('opaque') ?? '')}"`);
    }
    if (qop) {
      fields.push(`qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`);
    }
    return `Digest ${fields.join(', ')}`;
  }
}

function algorithmRank(challenge: AuthChallenge): number {
  return (challenge.params.get('algorithm') ?? 'md5').toLowerCase().startsWith('sha-256') ? 1 : 0;
}

function quote(text: string): string {
  return text.replace(/[\\"]/g, '\\$&').replace(/[\r\n]/g, '');
}
