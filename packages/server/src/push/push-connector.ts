/**
 * What the push runner dials with: the connector by URI scheme (RTMP/RTMPS with our RTMP client,
 * SRT with our SRT caller) and the destination resolver that applies the private-range
 * guard (spec §4 rule 5) right before every connect, answering the one address to dial.
 */
import { connectRtmpPush } from '@airwave/media/protocols/rtmp/push-output';
import type { DestinationResolver, PushConnector } from '@airwave/media/protocols/shared/push-output';
import { connectSrtPush } from '@airwave/media/protocols/srt/push-output';
import { ValidationError } from '../domain/errors.js';
import { checkOutboundHost, type HostResolver } from '../domain/outbound-url.js';
import { PRIVATE_PUSH_SETTING } from '../domain/push-targets/push-target.js';

/** Options of the connector. */
export interface PushConnectorOptions {
  /** Extra CA certificates (PEM) trusted for rtmps:// destinations, besides the system's. */
  readonly ca?: string;
}

/** Connects rtmp://, rtmps:// and srt:// destinations. */
export function pushConnector(options: PushConnectorOptions = {}): PushConnector {
  return (uri, description, resolve, shared) =>
    uri.startsWith('srt:')
      ? connectSrtPush(uri, description, resolve)
      : connectRtmpPush(uri, description, resolve, options.ca ? { tls: { ca: options.ca } } : {}, shared);
}

/** The guard of this node: a private address is refused unless AIRWAVE_ALLOW_PRIVATE_PUSH_TARGETS allows it. */
export function pushDestinationResolver(allowPrivate: boolean, resolveHost?: HostResolver): DestinationResolver {
  return async (host) => {
    try {
      const check = await checkOutboundHost(host, {
        field: 'destination',
        allowPrivate,
        optInSetting: PRIVATE_PUSH_SETTING,
        ...(resolveHost ? { resolve: resolveHost } : {}),
      });
      const first = check.addresses[0];
      if (first === undefined) {
        throw new Error(`${host} does not resolve`);
      }
      return first;
    } catch (error) {
      if (error instanceof ValidationError && error.constraint === 'public_address') {
        throw new Error(
          `destination host ${host} is a private, loopback, link-local, multicast or reserved address; ` +
            `this node does not allow them (${PRIVATE_PUSH_SETTING}=false)`,
        );
      }
      throw error instanceof ValidationError ? new Error(`destination host ${host} does not resolve`) : error;
    }
  };
}
