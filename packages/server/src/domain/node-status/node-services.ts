/**
 * The listening services a node registers (and serviceInstancesHealth lists): the HTTP API
 * (`graphql` on control-plane nodes, `playback` on media-only nodes, with its health endpoint)
 * and the ingest listeners.
 */
import type { NodeInfo } from '../node-info.js';
import type { RegisteredService } from './media-nodes-table.js';

/** Services of a node with role `role`. */
export function servicesOf(node: NodeInfo, role: 'all' | 'media'): RegisteredService[] {
  const http = new URL(node.baseUrl).protocol.replace(':', '');
  const host = node.ingestHost;
  return [
    role === 'all'
      ? {
          serviceId: 'graphql',
          protocol: http,
          host,
          port: node.httpPort,
          healthEndpoint: `${node.baseUrl}/graphql?query=%7Bping%7D`,
        }
      : { serviceId: 'playback', protocol: http, host, port: node.httpPort, healthEndpoint: `${node.baseUrl}/healthz` },
    { serviceId: 'rtmp', protocol: 'rtmp', host, port: node.rtmpPort, healthEndpoint: null },
    ...(node.rtmpsPort === undefined
      ? []
      : [{ serviceId: 'rtmps', protocol: 'rtmps', host, port: node.rtmpsPort, healthEndpoint: null }]),
    { serviceId: 'srt', protocol: 'srt', host, port: node.srtPort, healthEndpoint: null },
  ];
}
