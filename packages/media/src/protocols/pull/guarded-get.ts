/**
 * HTTP(S) GET for pull sources (RFC 9110) where every hop is guarded: the host of the URL and of
 * every redirect (301, 302, 303, 307, 308) is resolved and checked, the connection goes to the
 * checked address, and TLS still verifies the certificate for the host name (SNI) and Host
 * names the host. Redirects to another scheme than http(s) are refused.
 */
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { checkedAddress, type PullAddressGuard, PullRefusedError } from './address-guard.js';

/** Most redirects followed for one request. */
export const MAX_HTTP_REDIRECTS = 5;

/** A response and where it finally came from. */
export interface GuardedResponse {
  readonly response: IncomingMessage;
  /** The URL after redirects (the base of relative URIs in a playlist). */
  readonly url: URL;
  /** The address the final request was sent to. */
  readonly address: string;
}

/** Options of a guarded GET. */
export interface GuardedGetOptions {
  readonly guard: PullAddressGuard;
  /** Request headers (Range, User-Agent, …); Host is set from the URL. */
  readonly headers?: OutgoingHttpHeaders;
  readonly signal?: AbortSignal;
  /** Gives up when no response head arrives in time (default 10 s). */
  readonly timeoutMs?: number;
  /** Called for each redirect followed (from, to). */
  readonly onRedirect?: (from: URL, to: URL) => void;
}

/** GETs `url`, following redirects through the guard; rejects with PullRefusedError or a network error. */
export async function guardedGet(url: URL, options: GuardedGetOptions): Promise<GuardedResponse> {
  let current = url;
  for (let hop = 0; ; hop++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:') {
      throw new PullRefusedError('blocked_uri', `${current.protocol.replace(/:$/, '')} URIs are not fetched`);
    }
    const address = await checkedAddress(options.guard, current.hostname.replace(/^\[|\]$/g, ''));
    const response = await send(current, address, options);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && status !== 304 && location) {
      response.resume();
      if (hop >= MAX_HTTP_REDIRECTS) {
        throw new PullRefusedError('blocked_uri', `more than ${MAX_HTTP_REDIRECTS} redirects`);
      }
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new PullRefusedError('blocked_uri', 'a redirect to an invalid URI');
      }
      options.onRedirect?.(current, next);
      current = next;
      continue;
    }
    return { response, url: current, address };
  }
}

function send(url: URL, address: string, options: GuardedGetOptions): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const request = (secure ? httpsRequest : httpRequest)({
      host: address,
      port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { ...options.headers, host: url.host },
      ...(secure && isIP(host) === 0 ? { servername: host } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      agent: false,
    });
    request.setTimeout(options.timeoutMs ?? 10_000, () => request.destroy(new Error('no response in time')));
    request.on('response', (response) => {
      request.setTimeout(0);
      resolve(response);
    });
    request.on('error', reject);
    request.end();
  });
}
