/**
 * Node-to-node relay credentials: `<nodeId>.<expiresAtUnix>.<base64url HMAC-SHA256>` over
 * `airwave-relay:v1:<streamId>:<nodeId>:<expiresAtUnix>` with the deployment's relay key, a
 * secret every node reads from the shared database (so only nodes with database access can pull
 * a stream from another). Tokens name one stream and live at most a few minutes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a token is valid. */
export const RELAY_TOKEN_TTL_S = 60;
/** Tokens expiring further ahead than this are refused (clock skew allowance included). */
const MAX_AHEAD_S = 300;

function mac(key: string, streamId: string, nodeId: string, expires: number): Buffer {
  return createHmac('sha256', key).update(`airwave-relay:v1:${streamId}:${nodeId}:${expires}`).digest();
}

/** Signs a token for `nodeId` to pull `streamId`. */
export function signRelayToken(key: string, streamId: string, nodeId: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + RELAY_TOKEN_TTL_S;
  return `${nodeId}.${expires}.${mac(key, streamId, nodeId, expires).toString('base64url')}`;
}

/** The pulling node's id when `token` is valid for `streamId` now; undefined otherwise. */
export function verifyRelayToken(key: string, streamId: string, token: string, now = Date.now()): string | undefined {
  const match = /^([A-Za-z0-9][A-Za-z0-9._-]{0,63})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) {
    return undefined;
  }
  const [, nodeId, expiresText, signature] = match as unknown as [string, string, string, string];
  const expires = Number(expiresText);
  const seconds = now / 1000;
  if (expires < seconds || expires > seconds + MAX_AHEAD_S) {
    return undefined;
  }
  const expected = mac(key, streamId, nodeId, expires);
  const given = Buffer.from(signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? nodeId : undefined;
}
