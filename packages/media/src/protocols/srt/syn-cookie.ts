/**
 * SYN cookies of the SRT induction (draft-sharabayko-srt-01 §4.3.1.1.2, after RFC 4987): a
 * keyed hash of the caller's address and port and the current minute, so the listener keeps no
 * state per caller until a conclusion returns a cookie it made in this or the previous minute.
 */
import { createHmac, randomBytes } from 'node:crypto';

/** Makes and checks cookies with one secret per listener. */
export class SynCookies {
  private readonly secret = randomBytes(32);

  constructor(private readonly now: () => number = Date.now) {}

  /** The cookie for a caller now. */
  make(address: string, port: number): number {
    return this.at(address, port, Math.floor(this.now() / 60_000));
  }

  /** True when `cookie` was made for this caller in this minute or the previous one. */
  check(address: string, port: number, cookie: number): boolean {
    const minute = Math.floor(this.now() / 60_000);
    return cookie === this.at(address, port, minute) || cookie === this.at(address, port, minute - 1);
  }

  private at(address: string, port: number, minute: number): number {
    return createHmac('sha256', this.secret).update(`${address}|${port}|${minute}`).digest().readUInt32BE(0);
  }
}
