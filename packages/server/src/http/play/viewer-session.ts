/** Derives a stable viewer session id for request-based protocols when the gate gives none. */
import { createHash } from 'node:crypto';

/** Most derived ids remembered; past it the memo starts over (a viewer polls several times a second). */
const MEMO_LIMIT = 4096;
/** Longer inputs (odd user agents) are hashed every time, so the memo stays small. */
const MEMO_KEY_MAX = 512;
const memo = new Map<string, string>();

/** A stable id from the client address, its user agent and an optional `?session=` value. */
export function viewerSessionId(ip: string, userAgent: string | undefined, session: string | undefined): string {
  const key = `${ip}\n${userAgent ?? ''}\n${session ?? ''}`;
  const known = memo.get(key);
  if (known !== undefined) {
    return known;
  }
  const id = createHash('sha256').update(key).digest('base64url').slice(0, 22);
  if (key.length > MEMO_KEY_MAX) {
    return id;
  }
  if (memo.size >= MEMO_LIMIT) {
    memo.clear();
  }
  memo.set(key, id);
  return id;
}
