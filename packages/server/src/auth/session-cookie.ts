/**
 * The session cookie: httpOnly, SameSite=Lax, Path=/, Secure when the public URL is https,
 * expiring with the session.
 */
import type { FastifyReply } from 'fastify';
import { SESSION_COOKIE } from './authenticator.js';

/** Sets and clears the session cookie on replies. */
export class SessionCookie {
  /** `secure` adds the Secure attribute (public URL is https). */
  constructor(readonly secure: boolean) {}

  /** Sets the cookie to `token` until `expiresAt`. */
  set(reply: FastifyReply, token: string, expiresAt: Date): void {
    void reply.setCookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: this.secure,
      expires: expiresAt,
    });
  }

  /** Tells the browser to drop the cookie. */
  clear(reply: FastifyReply): void {
    void reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: this.secure });
  }
}
