/** Derives a stable viewer session id for request-based protocols when the gate gives none. */
import { createHash } from 'node:crypto';

/** A stable id from the client address, its user agent and an optional `?session=` value. */
export function viewerSessionId(ip: string, userAgent: string | undefined, session: string | undefined): string {
  return createHash('sha256')
    .update(`${ip}\n${userAgent ?? ''}\n${session ?? ''}`)
    .digest('base64url')
    .slice(0, 22);
}
