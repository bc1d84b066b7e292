/**
 * The media plane's PullAddressGuard backed by the outbound-address rules (spec §4 rule 5): a host
 * that is, or resolves to, a loopback, RFC 1918, link-local, CGNAT, unique-local, multicast or
 * unspecified address is refused unless the node allows private pull sources. Asked at every
 * connect, redirect and playlist URI, right before the dial.
 */
import { type PullAddressGuard, PullRefusedError } from '@airwave/media/protocols/pull/address-guard';
import { ValidationError } from '../domain/errors.js';
import { checkOutboundHost, type HostResolver } from '../domain/outbound-url.js';
import { PRIVATE_PULL_SETTING } from '../domain/streams/pull-source.js';

/** Options of the guard. */
export interface PullGuardOptions {
  readonly allowPrivate: boolean;
  /** Host resolver (the system's getaddrinfo by default; tests inject one). */
  readonly resolve?: HostResolver;
}

/** Builds the guard of this node. */
export function pullAddressGuard(options: PullGuardOptions): PullAddressGuard {
  return {
    async resolve(host) {
      try {
        const check = await checkOutboundHost(host, {
          field: 'source host',
          allowPrivate: options.allowPrivate,
          optInSetting: PRIVATE_PULL_SETTING,
          ...(options.resolve ? { resolve: options.resolve } : {}),
        });
        return check.addresses;
      } catch (error) {
        if (!(error instanceof ValidationError)) {
          throw error;
        }
        if (error.constraint === 'resolvable') {
          throw new PullRefusedError('not_found', `host ${host} does not resolve`);
        }
        if (error.constraint === 'public_address') {
          throw new PullRefusedError(
            'private_not_allowed',
            `host ${host} is or resolves to a private, loopback, link-local, multicast or reserved address; ` +
              `this node does not allow them (${PRIVATE_PULL_SETTING}=false)`,
          );
        }
        throw new PullRefusedError('blocked_uri', `host ${host} cannot be dialled`);
      }
    },
  };
}
