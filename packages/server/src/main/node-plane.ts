/**
 * Wiring helpers of a node in a multi-node deployment: the profile it registers and the reader
 * of viewer addresses behind trusted proxies. Used by start.ts only.
 */
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config/config.js';
import type { NodeInfo } from '../domain/node-info.js';
import type { NodeProfile } from '../domain/node-status/media-nodes.store.js';
import { servicesOf } from '../domain/node-status/node-services.js';
import { parseCidrList } from '../net/cidr.js';
import { clientAddress } from '../net/client-address.js';
import { peerAddress } from './http-socket.js';

/** Playback outputs every node serves (WHEP adds `webrtc` where it is served). */
export const NODE_OUTPUTS = ['hls', 'llhls', 'dash', 'mp4'] as const;

/** What this node registers about itself. */
export function nodeProfile(config: Config, node: NodeInfo, outputs: readonly string[] = NODE_OUTPUTS): NodeProfile {
  return {
    role: config.role,
    region: config.nodeRegion ?? null,
    latitude: config.nodeLocation?.latitude ?? null,
    longitude: config.nodeLocation?.longitude ?? null,
    capacityMbps: config.nodeCapacityMbps,
    mode: config.nodeMode === 'draining' ? 'DRAINING' : 'NORMAL',
    services: servicesOf(node, config.role),
    outputs,
  };
}

/** The viewer address of a request (X-Forwarded-For / Forwarded believed only from trusted proxies). */
export function clientIpReader(config: Config): (req: IncomingMessage) => string | undefined {
  const trusted = parseCidrList(config.trustedProxies);
  if (trusted.size === 0) {
    return (req) => peerAddress(req.socket);
  }
  return (req) => {
    const address = clientAddress(
      {
        peer: peerAddress(req.socket),
        forwarded: req.headers.forwarded,
        xForwardedFor: req.headers['x-forwarded-for'],
      },
      trusted,
    );
    return address.ok ? address.ip : peerAddress(req.socket);
  };
}
