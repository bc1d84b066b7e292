/**
 * Owner preview (docs/adr/0055-dashboard-auth-and-preview.md): a playback request refused by the
 * stream's policy is still served when it carries the session cookie of a user of the tenant
 * that owns the playback ID. Only the cookie counts (a bearer header here is a viewer token), and
 * SameSite=Lax keeps the cookie off cross-site embeds, so the owner's dashboard previews JWT- and
 * webhook-protected streams without anything signing a token or putting one in a URL.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { type Authenticator, SESSION_COOKIE } from '../authenticator.js';

/** The session cookie's value in a raw Cookie header, if any. */
export function sessionCookieOf(header: string | undefined): string | undefined {
  if (!header) {
    return undefined;
  }
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === SESSION_COOKIE) {
      const value = part.slice(index + 1).trim();
      return value.length > 0 && value.length <= 4096 ? value : undefined;
    }
  }
  return undefined;
}

/** Whether the request's cookie belongs to a user of the tenant `ownerTenantId`. */
export type OwnerCheck = (headers: IncomingHttpHeaders, ownerTenantId: string) => Promise<boolean>;

/** Builds the check over the service's authenticator (sessions only; a bad cookie is simply not the owner). */
export function ownerPreviewCheck(authenticator: Authenticator): OwnerCheck {
  return async (headers, ownerTenantId) => {
    const token = sessionCookieOf(headers.cookie);
    if (!token) {
      return false;
    }
    try {
      const { principal } = await authenticator.authenticate({ headers: {}, cookies: { [SESSION_COOKIE]: token } });
      return principal?.kind === 'session' && principal.tenantId === ownerTenantId;
    } catch {
      return false;
    }
  };
}
