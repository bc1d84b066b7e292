/**
 * The dashboard's subscription credential: the session cookie sent with the WebSocket upgrade,
 * accepted only when the upgrade's Origin is this service's own origin (a cross-site page cannot
 * open the socket with the user's cookie), so no token needs to live in page script.
 */
import { SESSION_COOKIE } from '../../auth/authenticator.js';

/** The parts of the upgrade request the check reads. */
export interface UpgradeRequest {
  readonly headers: { readonly origin?: string | undefined; readonly host?: string | undefined };
  readonly cookies?: { readonly [name: string]: string | undefined };
}

/** The session cookie of a same-origin upgrade, else undefined. */
export function sameOriginCookieToken(request: UpgradeRequest): string | undefined {
  const token = request.cookies?.[SESSION_COOKIE];
  const { origin, host } = request.headers;
  if (!token || !origin || !host) {
    return undefined;
  }
  try {
    return new URL(origin).host === host ? token : undefined;
  } catch {
    return undefined;
  }
}
