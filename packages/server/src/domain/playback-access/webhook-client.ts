/**
 * The playback webhook call: an HTTP/1.1 POST (RFC 9110) of a JSON body signed with
 * HMAC-SHA256 (RFC 2104) of the raw body in `X-Airwave-Signature: sha256=<hex>`. Only a 200
 * allows; any other status, a time-out or a network error denies. The resolved address is
 * checked again at connect time (DNS rebinding), redirects are not followed, and at most 4 KiB
 * of the answer is read.
 */
import { createHmac } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { ValidationError } from '../errors.js';
import { checkOutboundHost, type HostResolver } from '../outbound-url.js';
import { WEBHOOK_OUTBOUND } from '../playback-policies/playback-policies.service.js';

/** User-Agent of every webhook call. */
export const WEBHOOK_USER_AGENT = 'Airwave-PlaybackPolicy/1';
/** Header carrying the body signature. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-airwave-signature';
/** Most bytes of a webhook answer read. */
export const WEBHOOK_MAX_RESPONSE_BYTES = 4 * 1024;

/** The JSON body POSTed to the webhook. */
export interface WebhookRequestBody {
  readonly playbackId: string;
  readonly streamId: string;
  readonly viewerIp: string;
  readonly requestUrl: string;
  readonly protocol: string;
  readonly sessionId: string;
  /** ISO 8601 time of the call (receivers can refuse stale replays). */
  readonly timestamp: string;
}

/** Where and how to call. */
export interface WebhookTarget {
  readonly url: string;
  readonly secret: string;
  readonly timeoutMs: number;
}

/** Address policy of the caller (the node's AIRWAVE_ALLOW_PRIVATE_WEBHOOKS). */
export interface WebhookAddressPolicy {
  readonly allowPrivate: boolean;
  readonly resolve?: HostResolver;
}

/** What one call found. */
export interface WebhookOutcome {
  readonly allowed: boolean;
  /** `webhook-allow`, `webhook-deny-<status>`, `webhook-timeout`, `webhook-network`, `webhook-blocked-ssrf`. */
  readonly reason: string;
  readonly detail: string;
  readonly status: number | null;
  readonly latencyMs: number;
}

/** `sha256=<hex HMAC-SHA256 of body with secret>`: the value of X-Airwave-Signature. */
export function signWebhookBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

class BlockedAddressError extends Error {}

/** A `lookup` for node:net that resolves, then refuses non-public answers unless allowed. */
function checkedLookup(policy: WebhookAddressPolicy) {
  return (
    hostname: string,
    options: { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    checkOutboundHost(hostname, {
      allowPrivate: policy.allowPrivate,
      ...WEBHOOK_OUTBOUND,
      ...(policy.resolve ? { resolve: policy.resolve } : {}),
    }).then(
      (check) => {
        const list = check.addresses.map((address) => ({ address, family: isIP(address) }));
        const first = list[0];
        if (options.all) {
          callback(null, list);
        } else if (first) {
          callback(null, first.address, first.family);
        } else {
          callback(new Error(`${hostname} does not resolve`), '');
        }
      },
      (error: unknown) => {
        const blocked = error instanceof ValidationError && error.constraint === 'public_address';
        callback(blocked ? new BlockedAddressError(error.message) : (error as Error), '');
      },
    );
  };
}

/** POSTs `body` to the webhook and reports the decision; never throws. */
export async function callPlaybackWebhook(
  target: WebhookTarget,
  body: WebhookRequestBody,
  policy: WebhookAddressPolicy,
): Promise<WebhookOutcome> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const outcome = (allowed: boolean, reason: string, detail: string, status: number | null): WebhookOutcome => ({
    allowed,
    reason,
    detail,
    status,
    latencyMs: latency(),
  });
  const url = new URL(target.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    try {
      await checkOutboundHost(host, { allowPrivate: policy.allowPrivate, ...WEBHOOK_OUTBOUND });
    } catch (error) {
      return outcome(false, 'webhook-blocked-ssrf', (error as Error).message, null);
    }
  }
  const raw = JSON.stringify(body);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<WebhookOutcome>((resolve) => {
    let settled = false;
    const finish = (result: WebhookOutcome): void => {
      if (!settled) {
        settled = true;
        resolve(result);
      }
    };
    const request = client.request(url, {
      method: 'POST',
      agent: false,
      lookup: checkedLookup(policy),
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(raw),
        'user-agent': WEBHOOK_USER_AGENT,
        [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(raw, target.secret),
      },
    });
    // The deadline also bounds reading the answer: a hook that trickles its body is cut off.
    const timer = setTimeout(() => {
      finish(outcome(false, 'webhook-timeout', `no answer within ${target.timeoutMs} ms`, null));
      request.destroy();
    }, target.timeoutMs);
    request.once('close', () => clearTimeout(timer));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= WEBHOOK_MAX_RESPONSE_BYTES) {
          response.destroy();
        }
      });
      response.on('end', () => request.destroy());
      response.on('error', () => undefined);
      finish(
        status === 200
          ? outcome(true, 'webhook-allow', 'the webhook answered 200', status)
          : outcome(false, `webhook-deny-${status}`, `the webhook answered ${status}`, status),
      );
    });
    request.on('error', (error) => {
      if (error instanceof BlockedAddressError) {
        finish(outcome(false, 'webhook-blocked-ssrf', error.message, null));
      } else {
        finish(outcome(false, 'webhook-network', `cannot reach the webhook: ${error.message}`, null));
      }
    });
    request.end(raw);
  });
}
